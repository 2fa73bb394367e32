/**
 * Semantic rules beyond the schema (docs/architecture.md "The data path", step 1): variants,
 * names, regular expressions, links to names no manifest defines, and the rules of each
 * kind (KindDefinition `rules`, in the kind's module). Each rule pushes diagnostics; none
 * throws.
 */
import { NODE_CERTIFICATES } from '../crypto/node.js';
import { KINDS, isResourceType, isTemplateKind, kindOf, kindOfDocument } from '../kinds/index.js';
import type { ManifestRuleContext, ResourceType, RuleDocument, Variant } from '../kinds/index.js';
import { attributesSchema, deref, documentSchema, existsInVariant } from '../schema/index.js';
import type { JsonSchema } from '../schema/index.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { EntryIndex } from './collect.js';
import type { Entry } from './entries.js';
import { entryDiagnostic, entryLocation, labelOf } from './entries.js';
import { attributePath, suggestion } from './schema-check.js';
import type { ManifestDocument, SourceLocation } from './types.js';
import { attributeReferences } from '../schema/references.js';
import { withoutDelimited } from '../core/linear-text.js';
import { ownMember, setOwnMember } from '../core/own-member.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const variantsText = (schema: JsonSchema): string => {
  const v = schema['x-gwops-variants'] ?? [];
  return v.length === 1 ? `the ${v[0] ?? ''} variant` : `the ${v.join(' and ')} variants`;
};

/** {@link excludesSome} by schema node, root and variant. */
const excluding = new Map<JsonSchema, Map<JsonSchema, Map<Variant, boolean>>>();

/**
 * True when some property reachable from `schema` (through `properties`, `items` and local
 * `$ref`s into `root`, as {@link checkVariant} walks a value) does not exist in `variant`:
 * where none does, no value under it can hold one and the walk skips it. Cached per schema
 * node (a schema is walked once per node a value reaches).
 */
function excludesSome(schema: JsonSchema, root: JsonSchema, variant: Variant): boolean {
  let byRoot = excluding.get(schema);
  if (!byRoot) excluding.set(schema, (byRoot = new Map<JsonSchema, Map<Variant, boolean>>()));
  let byVariant = byRoot.get(root);
  if (!byVariant) byRoot.set(root, (byVariant = new Map<Variant, boolean>()));
  let known = byVariant.get(variant);
  if (known === undefined) {
    const seen = new Set<JsonSchema>();
    const search = (node: JsonSchema): boolean => {
      const n = deref(node, root);
      if (seen.has(n)) return false;
      seen.add(n);
      for (const child of Object.values(n.properties ?? {})) if (!existsInVariant(child, variant) || search(child)) return true;
      return n.items !== undefined && search(n.items);
    };
    known = search(schema);
    byVariant.set(variant, known);
  }
  return known;
}

/**
 * Reports attributes, relationships and kinds that do not exist in `variant`
 * (docs/gateway-api.md "Variants"; the schemas' `x-gwops-variants` marks).
 */
export function checkVariant(entry: Entry, variant: Variant, out: Diagnostic[]): void {
  const docSchema = documentSchema(entry.kind);
  if (!existsInVariant(docSchema, variant)) {
    out.push(
      entryDiagnostic(entry, {
        code: 'variant-kind',
        pointer: ['kind'],
        message: `kind '${entry.kind}' exists only in ${variantsText(docSchema)}, not in the ${variant} variant of this target`,
      }),
    );
    return;
  }
  // A template's attributes are those of the kind that names it.
  const type = kindOfDocument(entry.kind).type;
  const root = documentSchema(type);
  const visit = (value: unknown, schema: JsonSchema, segments: string[]): void => {
    const n = deref(schema, root);
    if (isObject(value) && n.properties) {
      for (const key in value) {
        const childSchema = n.properties[key];
        if (!childSchema) continue;
        const child = value[key];
        if (!existsInVariant(childSchema, variant)) {
          const at = [...segments, key];
          out.push(
            entryDiagnostic(entry, {
              code: 'variant-attribute',
              pointer: at,
              at: 'key',
              message: `${at[0] === 'relationships' ? 'relationship' : 'attribute'} '${attributePath(at.slice(1))}' of ${labelOf(entry.kind, entry.name)} exists only in ${variantsText(childSchema)}, not in the ${variant} variant of this target`,
            }),
          );
          continue;
        }
        if (typeof child !== 'object' || child === null || !excludesSome(childSchema, root, variant)) continue;
        segments.push(key);
        visit(child, childSchema, segments);
        segments.pop();
      }
    } else if (Array.isArray(value) && n.items) {
      const items = n.items;
      if (!excludesSome(items, root, variant)) return;
      value.forEach((item, i) => {
        segments.push(String(i));
        visit(item, items, segments);
        segments.pop();
      });
    }
  };
  const attributes = attributesSchema(type);
  if (excludesSome(attributes, root, variant)) visit(entry.value.attributes, attributes, ['attributes']);
  const rels = docSchema.properties?.relationships;
  if (rels && excludesSome(rels, root, variant)) visit(entry.value.relationships, rels, ['relationships']);
}

/** `attributes.name`, when given, must equal the document's `name`. */
export function checkNameAttribute(entry: Entry, out: Diagnostic[]): void {
  const attrs = entry.value.attributes;
  if (isObject(attrs) && attrs.name !== undefined && attrs.name !== entry.name) {
    out.push(
      entryDiagnostic(entry, {
        code: 'name-mismatch',
        pointer: ['attributes', 'name'],
        message: `attributes.name of ${labelOf(entry.kind, entry.name)} differs from its name: leave attributes.name out (it is set from name)`,
      }),
    );
  }
}

/**
 * The regular-expression dialect of the gateway is PCRE-like; JavaScript lacks a few of its
 * constructs. These are rewritten to equivalents before compiling, so that only patterns
 * that are broken in any dialect are reported.
 */
function jsCompatible(pattern: string): string {
  // Each expression runs in time linear in the pattern's length (a pattern is the input of
  // a manifest: test/drills/regex-cost.test.ts); comments are cut by a scan, since
  // `/\(\?#[^)]*\)/g` scans to the end again from every unclosed `(?#`.
  const withoutComments = withoutDelimited(
    pattern
      .replace(/\(\?[imsxU]+\)/g, '') // inline flags (?i)
      .replace(/\(\?[imsxU]+(?:-[imsxU]*)?:/g, '(?:') // scoped flags (?i:...)
      .replace(/\(\?>/g, '(?:') // atomic groups
      .replace(/\(\?P</g, '(?<') // named groups, Python/PCRE spelling
      .replace(/\(\?P=(\w+)\)/g, '\\k<$1>'), // named back-references
    [['(?#', ')']], // comments
  );
  return withoutComments
    .replace(/\\[AZz]/g, '') // anchors \A \Z \z
    .replace(/([*+?}])\+/g, '$1'); // possessive quantifiers
}

const regexCache = new Map<string, string | undefined>();

/** The reason a pattern does not compile, or undefined when it does (results cached per pattern). */
export function regexProblem(pattern: string): string | undefined {
  if (regexCache.has(pattern)) return regexCache.get(pattern);
  let problem: string | undefined;
  try {
    new RegExp(jsCompatible(pattern));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    problem = message.split(': ').pop() ?? message;
  }
  // Long patterns are rare and not worth holding (10,000 of 150 KB each would be 1.5 GB).
  if (regexCache.size < 10_000 && pattern.length <= 4096) regexCache.set(pattern, problem);
  return problem;
}

/** Keys whose string value is a regular expression: pattern objects' `pattern`, and `statusContentPattern` of error-page rewrites. */
const REGEX_KEYS = new Set(['pattern', 'statusContentPattern']);

/** Every pattern object (`{ pattern: '...' }`) and regex string in an entry's own attributes must compile. */
export function checkPatterns(entry: Entry, out: Diagnostic[]): void {
  const label = labelOf(entry.kind, entry.name);
  const visit = (value: unknown, segments: string[]): void => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        segments.push(String(i));
        visit(item, segments);
        segments.pop();
      });
      return;
    }
    if (!isObject(value)) return;
    for (const key in value) {
      const child = value[key];
      if (REGEX_KEYS.has(key) && typeof child === 'string') {
        const problem = regexProblem(child);
        if (problem !== undefined) {
          const at = [...segments, key];
          out.push(
            entryDiagnostic(entry, {
              code: 'invalid-regex',
              pointer: at,
              message: `invalid regular expression in '${attributePath(at.slice(1))}' of ${label}: ${problem}`,
            }),
          );
        }
      } else if (typeof child === 'object' && child !== null) {
        segments.push(key);
        visit(child, segments);
        segments.pop();
      }
    }
  };
  visit(entry.value.attributes, ['attributes']);
}

/** One resolved document with the entry it came from (for positions). */
export interface Resolved {
  readonly doc: ManifestDocument;
  readonly entry: Entry;
}

/**
 * Rules across documents: links to names no manifest defines (`links`: errors; warnings
 * when the project sets `allowExternalLinks`; skipped when a document was lost to a syntax
 * error, since it may be what a link names, and for the names of `unknownKindNames`, the
 * documents of an unknown kind, already reported with the kind they likely mean), then the rules of each kind (KindDefinition `rules`, in registry
 * order; e.g. unique priorities of regex mappings, HTTP/2 only with HTTPS,
 * `tls.certificateMode` with its link, and a certificate's private key that belongs to it).
 */
export function checkDocuments(
  resolved: readonly Resolved[],
  index: EntryIndex,
  links: 'errors' | 'warnings' | 'skip',
  out: Diagnostic[],
  unknownKindNames: ReadonlySet<string> = new Set(),
): void {
  if (links !== 'skip') for (const r of resolved) checkLinks(r, index, links === 'warnings', unknownKindNames, out);
  // The entry of a document is looked up only for a problem found: indexed when first needed.
  let entries: Map<RuleDocument, Entry> | undefined;
  const all = resolved.map((r) => r.doc);
  const byKind = new Map<ResourceType, ManifestDocument[]>();
  for (const doc of all) {
    const list = byKind.get(doc.kind);
    if (list) list.push(doc);
    else byKind.set(doc.kind, [doc]);
  }
  const entryOf = (document: RuleDocument): Entry => {
    entries ??= new Map<RuleDocument, Entry>(resolved.map((r) => [r.doc, r.entry]));
    const entry = entries.get(document);
    if (!entry) throw new Error(`rules reported about ${labelOf(document.kind, document.name)}, which is no resolved document`);
    return entry;
  };
  const context: ManifestRuleContext = {
    documents: (type) => (type === undefined ? all : (byKind.get(type) ?? [])),
    report: (document, problem) => out.push(entryDiagnostic(entryOf(document), problem)),
    where: (document, pointer) => {
      const at = entryDiagnostic(entryOf(document), { code: 'unresolved-link', pointer, message: '' });
      return `${at.file}:${at.line}:${at.column}`;
    },
    label: (document) => labelOf(document.kind, document.name),
    certificates: NODE_CERTIFICATES,
    regexProblem,
  };
  for (const kind of KINDS) kind.rules?.(byKind.get(kind.type) ?? [], context);
}

/**
 * Links to names no manifest defines, each said at the link's own line and column (the
 * name as written), with a declared name when one is close or the kind the name has when
 * it is another one. Errors; when the project allows external links (`allowExternalLinks`,
 * which export sets) the plan looks for such names on the gateway, so each is a warning
 * instead: it is declared nowhere and will have to exist on the gateway, and a typo shows
 * here, offline, rather than only in the plan (README.md "Manifests").
 */
function checkLinks({ doc, entry }: Resolved, index: EntryIndex, allowExternalLinks: boolean, unknownKindNames: ReadonlySet<string>, out: Diagnostic[]): void {
  const kind = kindOf(doc.kind);
  for (const [rel, names] of Object.entries(doc.relationships)) {
    const def = kind.relationships[rel];
    if (!def) continue;
    const known = index.get(def.target);
    const builtIn = isResourceType(def.target) ? kindOf(def.target).builtInName : undefined;
    names.forEach((name, i) => {
      // A built-in object resolves by name everywhere (docs/gateway-api.md "Documents and ids"); a name of a
      // document whose kind is unknown is not reported again as a dangling link.
      if (known?.has(name) === true || builtIn?.(name) === true || unknownKindNames.has(name)) return;
      // A name of another kind is the likelier mistake than a typo.
      const other = [...index.entries()].find(([k, m]) => k !== def.target && !isTemplateKind(k) && m.has(name))?.[0];
      const hint = other !== undefined ? `: '${name}' is a ${other}` : suggestion(name, [...(known?.keys() ?? [])]);
      const what = `${labelOf(doc.kind, doc.name)} links to ${def.target} '${name}' (relationship '${rel}')`;
      out.push(
        entryDiagnostic(entry, {
          code: 'unresolved-link',
          pointer: linkPointer(def.cardinality, rel, i),
          ...(allowExternalLinks
            ? { severity: 'warning' as const, message: `${what}, which is declared in no manifest and will have to exist on the gateway (allowExternalLinks)${hint}` }
            : { message: `${what}, which no manifest defines${hint}` }),
        }),
      );
    });
  }
}

/** The pointer of the `i`th target name of a relationship as a manifest writes it (a to-one relationship holds one name). */
function linkPointer(cardinality: 'one' | 'many', relationship: string, i: number): string[] {
  return cardinality === 'one' ? ['relationships', relationship] : ['relationships', relationship, String(i)];
}

/**
 * Where each relationship target of a document that no manifest defines is written, by
 * relationship and name (the plan locates a link it cannot resolve there, not at the
 * document's start).
 */
export function undeclaredLinkSources(doc: Pick<ManifestDocument, 'kind' | 'relationships'>, entry: Entry, index: EntryIndex): Record<string, Record<string, SourceLocation>> | undefined {
  let out: Record<string, Record<string, SourceLocation>> | undefined;
  for (const [rel, names] of Object.entries(doc.relationships)) {
    const def = kindOf(doc.kind).relationships[rel];
    if (!def) continue;
    names.forEach((name, i) => {
      if (index.get(def.target)?.has(name) === true) return;
      const at = entryLocation(entry, linkPointer(def.cardinality, rel, i));
      out ??= {};
      let byName = ownMember(out, rel);
      if (byName === undefined) setOwnMember(out, rel, (byName = {}));
      setOwnMember(byName, name, at);
    });
  }
  return out;
}

/**
 * Where each attribute of a document that names an object no manifest defines (schema
 * `x-gwops-reference`) is written, by dotted attribute path (ManifestDocument
 * `referenceSources`): the plan locates a name it cannot resolve there.
 */
export function undeclaredReferenceSources(doc: Pick<ManifestDocument, 'kind' | 'attributes'>, entry: Entry, index: EntryIndex): Record<string, SourceLocation> | undefined {
  let out: Record<string, SourceLocation> | undefined;
  for (const reference of attributeReferences(doc.kind, doc.attributes)) {
    if (index.get(reference.target)?.has(String(reference.value)) === true) continue;
    out ??= {};
    out[reference.segments.join('.')] = entryLocation(entry, ['attributes', ...reference.segments]);
  }
  // Sub-resource keys (KindDefinition `subResources`): short names are checked against the
  // gateway's catalogue, names of objects may resolve to live ones; both at plan time.
  const subResources = kindOf(doc.kind).subResources ?? {};
  for (const name in subResources) {
    const def = subResources[name];
    const map = doc.attributes[name];
    if (def === undefined) continue;
    if (typeof map !== 'object' || map === null || Array.isArray(map)) continue;
    for (const key of Object.keys(map)) {
      if ('target' in def.key && index.get(def.key.target)?.has(key) === true) continue;
      out ??= {};
      out[`${name}.${key}`] = entryLocation(entry, ['attributes', name, key], 'key');
    }
  }
  return out;
}
