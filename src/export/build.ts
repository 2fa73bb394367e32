/**
 * The manifests of `gwops export` as data: a pure function of the fetched lists (no I/O),
 * read through the live state of src/engine/live.ts (its names and links). Built-in objects (negative ids) are never exported; ids are dropped and links are
 * written by name, on the canonical side when that object is exported, else on the
 * exported end (so that a plan of the result manages exactly the links it had);
 * write-only and other secrets become `{ fromEnv: GWOPS_<KIND>_<NAME>_<ATTR> }`, but a
 * write-only one the object takes no value for (a certificate's passphrase when its key is
 * not encrypted) is not written.
 */
import { NODE_CERTIFICATES } from '../crypto/node.js';
import type { ApiResource } from '../gateway/index.js';
import { isBuiltInId } from '../gateway/index.js';
import type { ResourceType } from '../kinds/index.js';
import { KINDS, kindOf } from '../kinds/index.js';
import { liveStateNamed } from '../engine/live.js';
import type { ObjectRef, State } from '../engine/model.js';
import { codePoint } from '../engine/code-point.js';
import { subResourcesOf } from '../engine/sub-resources.js';
import { linkDefinition, liveIdOf, objectOf, refKey } from '../engine/model.js';
import type { ObjectKey } from '../core/object-key.js';
import { writeOnlyAttributes } from '../schema/index.js';
import { attributeReferences } from '../schema/references.js';
import { hasUrlCredentials, urlValues } from '../schema/urls.js';
import { NoSecret, SecretSlot, isPlainObject } from './values.js';
import { generatedName, secretEnvName } from './names.js';
import { setOwnMember } from '../core/own-member.js';

/** One manifest document: the gwops/v1 format (apiVersion and kind are added when written). */
export interface ExportedDocument {
  readonly kind: ResourceType;
  readonly name: string;
  readonly attributes: Record<string, unknown>;
  /** By relationship name: a name (to-one) or a sorted list of names (to-many). */
  readonly relationships: Record<string, string | string[]>;
  /** The bytes of its content sub-resource (kinds with `content`), written to a file beside the manifest. */
  readonly content?: Uint8Array;
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
  /** The content of exported objects of kinds with a content sub-resource, by {@link contentKey}. */
  readonly contents?: ReadonlyMap<string, Uint8Array> | undefined;
}

const idKey = (kind: string, id: string): string => `${kind}\u0000${id}`;

/** The key of an object's content in {@link BuildInput.contents}: its kind and id. */
export const contentKey = idKey;

/** A document being built: the live object's attributes and its links by relationship name. */
interface Draft {
  readonly kind: ResourceType;
  readonly name: string;
  readonly attributes: Record<string, unknown>;
  readonly relationships: Record<string, Set<string> | string>;
  readonly content?: Uint8Array | undefined;
  /** Relationships left undeclared: one of their links names an object that could not be read. */
  readonly dropped: Set<string>;
}

/**
 * The attributes of `document` with the keys of its sub-resources that name an object of a
 * target kind (KindDefinition `subResources`) turned from ids into names; an entry whose
 * object is not exported is left out, with a warning (the same attributes when none has such keys).
 */
function namedSubResourceKeys(document: Draft, state: State, isExported: (ref: ObjectRef) => boolean, warnings: string[]): Record<string, unknown> {
  let attributes = document.attributes;
  for (const [name, def] of subResourcesOf(document.kind)) {
    const entries = attributes[name];
    if (!('target' in def.key) || !isPlainObject(entries)) continue;
    const target = def.key.target;
    const byId = new Map([...(state.objects.get(target)?.values() ?? [])].map((o) => [o.id, o.name]));
    const named: Record<string, unknown> = {};
    for (const [id, use] of Object.entries(entries)) {
      const targetName = byId.get(id);
      if (targetName !== undefined && isExported({ kind: target, name: targetName })) setOwnMember(named, targetName, use);
      else warnings.push(`${document.kind} '${document.name}' uses ${target} with id ${id}, which is not exported: that ${def.label} use is left out`);
    }
    const sorted = Object.fromEntries(Object.entries(named).sort(([a], [b]) => codePoint(a, b)));
    const { [name]: _ids, ...others } = attributes;
    attributes = Object.keys(sorted).length > 0 ? { ...attributes, [name]: sorted } : others;
  }
  return attributes;
}

/**
 * `attributes` without the value at `segments` (a copy of the objects on its path); a value
 * inside a list takes its whole top-level attribute with it (an item left out would change
 * the list).
 */
function withoutValue(attributes: Record<string, unknown>, segments: readonly string[]): Record<string, unknown> {
  const inList = segments.some((_, i) => i > 0 && Array.isArray(segments.slice(0, i).reduce<unknown>((node, key) => (isPlainObject(node) ? node[key] : undefined), attributes)));
  const path = inList ? segments.slice(0, 1) : segments;
  const drop = (node: Record<string, unknown>, depth: number): Record<string, unknown> => {
    const key = path[depth] ?? '';
    const { [key]: child, ...rest } = node;
    if (depth === path.length - 1) return rest;
    return isPlainObject(child) ? { ...node, [key]: drop(child, depth + 1) } : node;
  };
  return drop(attributes, 0);
}

/**
 * Builds the documents (see the module comment) from the live state of the lists
 * (src/engine/live.ts): its names, duplicate-name suffixes and canonical links. An object
 * of a kind whose identity is not its name is named by {@link generatedName}.
 */
export function buildDocuments(input: BuildInput): BuildResult {
  const exported = new Set(input.exported);
  const exportable = (kind: ResourceType, id: string): boolean => exported.has(kind) && !isBuiltInId(id) && !input.nameOnly?.has(idKey(kind, id));
  const { state, naming } = liveStateNamed(input.lists, (kind, key, resource) =>
    exportable(kind, resource.id) ? generatedName(kind, key, kindOf(kind).identity.exportName?.(resource.attributes, NODE_CERTIFICATES)) : undefined,
  );
  const warnings: string[] = [];
  const documents = new Map<ObjectKey<ResourceType>, Draft>();
  for (const [kind, objects] of state.objects) {
    for (const object of objects.values()) {
      if (object.id === undefined || !exportable(kind, object.id)) continue;
      const key = refKey(object);
      const duplicate = naming.duplicates.get(key);
      if (naming.unnamed.has(key)) warnings.push(`${kind} with id ${object.id} has no name: not exported`);
      else if (duplicate !== undefined) warnings.push(`${kind} '${duplicate}' exists more than once: only the one with the lowest id is exported (id ${object.id} is not)`);
      else {
        const content = input.contents?.get(idKey(kind, object.id));
        documents.set(key, { kind, name: object.name, attributes: object.attributes, relationships: {}, dropped: new Set(), ...(content ? { content } : {}) });
      }
    }
  }

  // Each link on its canonical side when that object is exported, else on the other end.
  const readable = (ref: ObjectRef): boolean => !naming.unnamed.has(refKey(ref)) && (objectOf(state, ref) !== undefined || state.builtIns?.get(ref.kind)?.has(ref.name) === true);

  // Attributes that name another object already hold its name in the live state (src/schema/references.ts).
  for (const document of documents.values()) {
    for (const reference of attributeReferences(document.kind, document.attributes)) {
      const target: ObjectRef = { kind: reference.target, name: String(reference.value) };
      if (!readable(target)) warnings.push(`${document.kind} '${document.name}' names ${target.kind} with id ${liveIdOf(state, target) ?? '?'}, which could not be read: exported as '${target.name}'`);
    }
  }
  // Sub-resource keys that name another object hold its id (src/operations/steps/export-sub-resources.ts): written by its document's name.
  for (const [key, document] of documents) {
    const attributes = namedSubResourceKeys(document, state, (ref) => documents.has(refKey(ref)), warnings);
    if (attributes !== document.attributes) documents.set(key, { ...document, attributes });
  }
  // A URL with a user name or password (masked in live state, src/schema/urls.ts) is not written: a manifest may not hold one.
  for (const [key, document] of documents) {
    let attributes = document.attributes;
    for (const { segments } of urlValues(document.kind, attributes).filter((u) => hasUrlCredentials(u.value))) {
      attributes = withoutValue(attributes, segments);
      warnings.push(
        `${document.kind} '${document.name}' attribute ${segments.join('.')} is a URL with a user name or password: not exported (a manifest may not hold credentials in a URL; ` +
          'remove them on the gateway, or declare the URL without them)',
      );
    }
    if (attributes !== document.attributes) documents.set(key, { ...document, attributes });
  }
  let externalLinks = 0;
  const addLink = (holder: Draft, relationship: string, target: ObjectRef): void => {
    const def = kindOf(holder.kind).relationships[relationship];
    if (!def) return;
    if (!readable(target)) {
      // Declaring the relationship without this link would unlink it: leave the relationship undeclared.
      holder.dropped.add(relationship);
      warnings.push(`${holder.kind} '${holder.name}' links to ${target.kind} with id ${liveIdOf(state, target) ?? '?'}, which could not be read: its relationship '${relationship}' is not exported`);
      return;
    }
    if (!documents.has(refKey(target))) externalLinks++;
    if (def.cardinality === 'one') holder.relationships[relationship] = target.name;
    else {
      const set = holder.relationships[relationship];
      if (set instanceof Set) set.add(target.name);
      else holder.relationships[relationship] = new Set([target.name]);
    }
  };
  for (const link of state.links) {
    const from = documents.get(refKey(link.from));
    if (from) addLink(from, link.relationship, link.to);
    else {
      const to = documents.get(refKey(link.to));
      if (to) addLink(to, linkDefinition(link).inverse, link.from);
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

  const out: ExportedDocument[] = [];
  const byKind = new Map<ResourceType, Draft[]>();
  for (const draft of documents.values()) {
    const ofKind = byKind.get(draft.kind);
    if (ofKind) ofKind.push(draft);
    else byKind.set(draft.kind, [draft]);
  }
  for (const kind of KINDS) {
    const ofKind = (byKind.get(kind.type) ?? []).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const writeOnly = writeOnlyAttributes(kind.type).map((secret) => secret.segments);
    for (const doc of ofKind) {
      // A copy of the attributes with each secret slot filled: write-only attributes wherever
      // their parent object is written (the top level always), the others where they were.
      const at: string[] = [];
      const slot = (key: string, writeOnly: boolean): { fromEnv: string } => variableFor(kind.type, doc.name, [...at, key], writeOnly);
      const fill = (value: unknown): unknown => {
        if (value instanceof SecretSlot) return variableFor(kind.type, doc.name, [...at], value.writeOnly);
        if (Array.isArray(value)) {
          return value.map((item: unknown, i) => {
            at.push(String(i));
            const filled = fill(item);
            at.pop();
            return filled;
          });
        }
        if (!isPlainObject(value)) return value;
        const placed = writeOnly.filter((segments) => segments.length === at.length + 1 && at.every((part, i) => segments[i] === '*' || segments[i] === part)).map((segments) => segments[at.length] ?? '');
        const filled: Record<string, unknown> = {};
        for (const [key, child] of Object.entries(value)) {
          if (at.length === 0 && key === 'name') continue; // the document's name
          if (child instanceof NoSecret) continue; // a write-only secret this object takes none of
          if (placed.includes(key)) setOwnMember(filled, key, slot(key, true));
          else {
            at.push(key);
            setOwnMember(filled, key, fill(child));
            at.pop();
          }
        }
        for (const key of placed) if (!Object.hasOwn(value, key)) filled[key] = slot(key, true);
        return filled;
      };
      const relationships: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(doc.relationships).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (doc.dropped.has(name)) continue;
        relationships[name] = value instanceof Set ? [...value].sort() : value;
      }
      out.push({ kind: kind.type, name: doc.name, attributes: fill(doc.attributes) as Record<string, unknown>, relationships, ...(doc.content ? { content: doc.content } : {}) });
    }
  }
  return { documents: out, secrets, warnings, externalLinks };
}
