/**
 * The manifests of `gwops export` as data: a pure function of the fetched lists (no I/O).
 * Built-in objects (negative ids) are never exported; ids are dropped and links are
 * written by name, on the canonical side when that object is exported, else on the
 * exported end (so that a plan of the result manages exactly the links it had);
 * write-only and other secrets become `{ fromEnv: GWOPS_<KIND>_<NAME>_<ATTR> }`.
 */
import type { ApiResource } from '../gateway/index.js';
import { isBuiltInId } from '../gateway/index.js';
import type { ResourceType } from '../kinds/index.js';
import { KINDS, kindOf, relationshipNamed } from '../kinds/index.js';
import { writeOnlyAttributes } from '../schema/index.js';
import { mapReferences } from '../schema/references.js';
import { SecretSlot, forEachPath, isPlainObject } from './attributes.js';
import { generatedName, secretEnvName } from './names.js';

/** One manifest document: the gwops/v1 format (apiVersion and kind are added when written). */
export interface ExportedDocument {
  readonly kind: ResourceType;
  readonly name: string;
  readonly attributes: Record<string, unknown>;
  /** By relationship name: a name (to-one) or a sorted list of names (to-many). */
  readonly relationships: Record<string, string | string[]>;
}

/** One environment variable a secret of the exported manifests is read from. */
export interface SecretVariable {
  readonly variable: string;
  readonly kind: ResourceType;
  readonly name: string;
  /** Dotted attribute path, e.g. `privateKey`. */
  readonly attribute: string;
  /** True when the gateway never returns the value; false for a readable secret (the variable must hold the live value). */
  readonly writeOnly: boolean;
}

/** Result of {@link buildDocuments}. */
export interface BuildResult {
  /** In registry order (dependency order), then by name. */
  readonly documents: ExportedDocument[];
  readonly secrets: SecretVariable[];
  readonly warnings: string[];
  /** Links written to objects that no exported document declares (the project then needs `allowExternalLinks`). */
  readonly externalLinks: number;
}

/** Input of {@link buildDocuments}. */
export interface BuildInput {
  /** The kinds whose objects are exported. */
  readonly exported: readonly ResourceType[];
  /**
   * The fetched lists: those of exported kinds with attributes as `exportAttributes`
   * made them; others (read only to name link ends) need only their identity attributes.
   */
  readonly lists: Partial<Record<ResourceType, readonly ApiResource[]>>;
  /** Objects (`<type>\u0000<id>`) of exported kinds that are listed only to name link ends (left out by the filters). */
  readonly nameOnly?: ReadonlySet<string> | undefined;
}

/** Ids are strings holding integers: numeric order when both are integers, else code-point order. */
function compareIds(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  if (Number.isInteger(x) && Number.isInteger(y) && x !== y) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}

const idKey = (kind: string, id: string): string => `${kind}\u0000${id}`;

/** Builds the documents (see the module comment). */
export function buildDocuments(input: BuildInput): BuildResult {
  const exported = new Set(input.exported);
  const warnings: string[] = [];
  const names = new Map<string, string>(); // idKey → name
  const documents = new Map<string, { kind: ResourceType; name: string; attributes: Record<string, unknown>; relationships: Record<string, Set<string> | string>; dropped: Set<string> }>();

  for (const kind of KINDS) {
    const taken = new Set<string>();
    for (const resource of [...(input.lists[kind.type] ?? [])].sort((a, b) => compareIds(a.id, b.id))) {
      const exportable = exported.has(kind.type) && !isBuiltInId(resource.id) && !input.nameOnly?.has(idKey(kind.type, resource.id));
      const generate = exportable && !kind.identity.byName;
      const identity = kind.identity.live(resource.attributes, (key) =>
        generate ? generatedName(kind.type, key, resource.attributes[kind.identity.attributes[0] ?? '']) : undefined,
      );
      if (identity.name === undefined) {
        if (exportable) warnings.push(`${kind.type} with id ${resource.id} has no name: not exported`);
        continue;
      }
      let name = identity.name;
      if (taken.has(name)) {
        if (exportable) warnings.push(`${kind.type} '${name}' exists more than once: only the one with the lowest id is exported (id ${resource.id} is not)`);
        name = `${name}@id:${resource.id}`;
      } else if (exportable) {
        documents.set(idKey(kind.type, resource.id), { kind: kind.type, name, attributes: resource.attributes, relationships: {}, dropped: new Set() });
      }
      taken.add(name);
      names.set(idKey(kind.type, resource.id), name);
    }
  }

  // Attributes that hold another object's id name it, as manifests do (src/schema/references.ts).
  for (const document of documents.values()) {
    document.attributes = mapReferences(document.kind, document.attributes, (target, value) => {
      const name = names.get(idKey(target, String(value)));
      if (name === undefined) warnings.push(`${document.kind} '${document.name}' names ${target} with id ${String(value)}, which could not be read: exported as '#id:${String(value)}'`);
      return name ?? `#id:${String(value)}`;
    });
  }

  // Links, once each in the canonical direction (read from both sides, as live state does).
  const links = new Map<string, { from: ResourceType; fromId: string; relationship: string; to: ResourceType; toId: string }>();
  for (const kind of KINDS) {
    for (const resource of input.lists[kind.type] ?? []) {
      for (const [relationship, member] of Object.entries(resource.relationships)) {
        const def = relationshipNamed(kind, relationship);
        if (!def || member.data === null) continue;
        for (const ident of Array.isArray(member.data) ? member.data : [member.data]) {
          const inverse = def.canonical ? undefined : kindOf(def.target).relationships[def.inverse];
          if (!def.canonical && !inverse?.canonical) continue;
          const link = def.canonical
            ? { from: kind.type, fromId: resource.id, relationship: def.name, to: def.target, toId: ident.id }
            : { from: def.target, fromId: ident.id, relationship: inverse?.name ?? '', to: kind.type, toId: resource.id };
          links.set([link.from, link.fromId, link.relationship, link.to, link.toId].join('\u0000'), link);
        }
      }
    }
  }
  let externalLinks = 0;
  const addLink = (holderKey: string, relationship: string, targetKind: ResourceType, targetId: string): void => {
    const holder = documents.get(holderKey);
    if (!holder) return;
    const def = kindOf(holder.kind).relationships[relationship];
    if (!def) return;
    const targetName = names.get(idKey(targetKind, targetId));
    if (targetName === undefined) {
      // Declaring the relationship without this link would unlink it: leave the relationship undeclared.
      holder.dropped.add(relationship);
      warnings.push(`${holder.kind} '${holder.name}' links to ${targetKind} with id ${targetId}, which could not be read: its relationship '${relationship}' is not exported`);
      return;
    }
    if (!documents.has(idKey(targetKind, targetId))) externalLinks++;
    if (def.cardinality === 'one') holder.relationships[relationship] = targetName;
    else {
      const set = holder.relationships[relationship];
      if (set instanceof Set) set.add(targetName);
      else holder.relationships[relationship] = new Set([targetName]);
    }
  };
  for (const link of links.values()) {
    const fromKey = idKey(link.from, link.fromId);
    if (documents.has(fromKey)) addLink(fromKey, link.relationship, link.to, link.toId);
    else {
      const inverse = kindOf(link.from).relationships[link.relationship]?.inverse;
      if (inverse !== undefined) addLink(idKey(link.to, link.toId), inverse, link.from, link.fromId);
    }
  }

  const secrets: SecretVariable[] = [];
  const variables = new Set<string>();
  const variableFor = (kind: ResourceType, name: string, path: readonly string[], writeOnly: boolean): { fromEnv: string } => {
    const base = secretEnvName(kind, name, path);
    let variable = base;
    for (let i = 2; variables.has(variable); i++) variable = `${base}_${i}`;
    variables.add(variable);
    secrets.push({ variable, kind, name, attribute: path.join('.'), writeOnly });
    return { fromEnv: variable };
  };
  const fillSlots = (value: unknown, kind: ResourceType, name: string, path: string[]): unknown => {
    if (value instanceof SecretSlot) return variableFor(kind, name, path, value.writeOnly);
    if (Array.isArray(value)) return value.map((item: unknown, i) => fillSlots(item, kind, name, [...path, String(i)]));
    if (isPlainObject(value)) {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(value)) out[key] = fillSlots(child, kind, name, [...path, key]);
      return out;
    }
    return value;
  };

  const out: ExportedDocument[] = [];
  for (const kind of KINDS) {
    const ofKind = [...documents.values()].filter((d) => d.kind === kind.type).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const doc of ofKind) {
      // Write-only attributes: wherever their parent object is written (the top level always).
      const attributes = copyTree(doc.attributes) as Record<string, unknown>;
      for (const secret of writeOnlyAttributes(kind.type)) {
        const parentPath = secret.segments.slice(0, -1);
        const key = secret.segments[secret.segments.length - 1];
        if (key === undefined) continue;
        const place = (parent: Record<string, unknown>): void => {
          parent[key] = new SecretSlot(true);
        };
        if (parentPath.length === 0) place(attributes);
        else forEachPath(attributes, parentPath, (_path, grand, last) => {
          const parent = grand[last];
          if (isPlainObject(parent)) place(parent);
        });
      }
      const relationships: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(doc.relationships).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (doc.dropped.has(name)) continue;
        relationships[name] = value instanceof Set ? [...value].sort() : value;
      }
      delete attributes.name; // the document's name
      out.push({ kind: kind.type, name: doc.name, attributes: fillSlots(attributes, kind.type, doc.name, []) as Record<string, unknown>, relationships });
    }
  }
  return { documents: out, secrets, warnings, externalLinks };
}

/** A deep copy of a JSON tree that keeps {@link SecretSlot}s as they are. */
function copyTree(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyTree);
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyTree(v)]));
  return value;
}
