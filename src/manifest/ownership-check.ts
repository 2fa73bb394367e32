/**
 * The ownership scope seen from the manifests, offline (docs/architecture.md "Decisions",
 * "Ownership is a GET filter"): an object the project declares must match every
 * ownership filter of its kind, evaluated on its declared attributes with the API's own
 * filter rules (src/api/filter.ts; docs/gateway-api.md "Filter syntax"). Otherwise gwops
 * would create it outside its own scope, and from then on refuse it as someone else's
 * object (src/engine/ownership.ts). A filter on what only the gateway knows (an `id`) is
left to the plan. Pure; located at the attribute the filter tests.
 */
import { FilterSyntaxError, matchesFilter, parseFilters } from '../api/filter.js';
import type { Filter } from '../api/filter.js';
import { kindOf } from '../kinds/index.js';
import type { ResourceType } from '../kinds/index.js';
import { attributesSchema } from '../schema/index.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { entryDiagnostic } from './entries.js';
import type { ProjectConfig } from './project.js';
import type { Resolved } from './rules.js';

/** The value at `path` of `attributes`, or undefined. */
function valueAt(attributes: unknown, path: readonly string[]): unknown {
  let node = attributes;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node) || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Each filter of a kind's scope with its parsed form; a filter that does not parse is left to the project file's checks. */
function parsedScope(filters: readonly string[]): { text: string; filter: Filter }[] {
  const out: { text: string; filter: Filter }[] = [];
  for (const text of filters) {
    try {
      out.push({ text, filter: parseFilters([text]) });
    } catch (error) {
      if (!(error instanceof FilterSyntaxError)) throw error;
    }
  }
  return out;
}

/**
 * True when a manifest decides whether `filter` matches: every property it tests is an
 * attribute of the kind (or a filter property that reads one). A filter on a member of
 * the resource itself (`id`, `type`, `meta.…`) is known only on the gateway.
 */
function decidable(kind: ResourceType, filter: Filter): boolean {
  const attributes = attributesSchema(kind).properties ?? {};
  const properties = kindOf(kind).filterProperties ?? {};
  return filter.all.every((group) => group.every((c) => Object.hasOwn(properties, c.property) || Object.hasOwn(attributes, c.path[0] ?? '')));
}

/**
 * The attribute path (inside `attributes`) a filter's first condition tests for `kind`: the
 * attribute a filter property of the kind reads (a mapping's `label` reads `labels`), else
 * the property's own path.
 */
function testedPath(kind: ResourceType, filter: Filter): readonly string[] {
  const condition = filter.all[0]?.[0];
  if (!condition) return [];
  return kindOf(kind).filterProperties?.[condition.property] ?? condition.path;
}

/**
 * Errors (code `outside-ownership-scope`) for every declared object that fails one of its
 * kind's ownership filters, naming the filter, the value it tested and what to change.
 * Nothing is sent to a gateway for such a project: the loader's errors stop plan and apply.
 */
export function ownershipDiagnostics(project: Pick<ProjectConfig, 'ownership'>, resolved: readonly Resolved[]): Diagnostic[] {
  const scopes = new Map<ResourceType, { text: string; filter: Filter }[]>();
  for (const [kind, filters] of Object.entries(project.ownership) as [ResourceType, string[] | undefined][]) {
    if (filters && filters.length > 0) scopes.set(kind, parsedScope(filters));
  }
  if (scopes.size === 0) return [];
  const out: Diagnostic[] = [];
  for (const { doc, entry } of resolved) {
    const scope = scopes.get(doc.kind);
    if (!scope) continue;
    const properties = kindOf(doc.kind).filterProperties;
    for (const { text, filter } of scope) {
      if (!decidable(doc.kind, filter)) continue;
      if (matchesFilter(filter, { type: doc.kind, id: '', attributes: doc.attributes }, properties)) continue;
      const path = testedPath(doc.kind, filter);
      const value = valueAt(doc.attributes, path);
      const shown = path.join('.');
      const tested = value === undefined ? `which declares no ${shown}` : `whose ${shown} is ${JSON.stringify(value)}`;
      // The document's `name` is its own key; other tested attributes are under `attributes` (the document's start when absent).
      const pointer = shown === 'name' ? ['name'] : value === undefined ? [] : ['attributes', ...path];
      out.push(
        entryDiagnostic(entry, {
          code: 'outside-ownership-scope',
          pointer,
          message:
            `${doc.kind} '${doc.name}' does not match the ownership filter '${text}' of this project (ownership.${doc.kind} in the project file), ${tested}: ` +
            `gwops would create it outside its own scope and then refuse it as someone else's object; give it a ${shown} that the filter matches, or change ownership.${doc.kind}`,
        }),
      );
    }
  }
  return out;
}
