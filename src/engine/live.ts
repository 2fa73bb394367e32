/**
 * Live state: the JSON:API lists fetched from the gateway (one per kind) built into the
 * same state model as desired state (model.ts; docs/architecture.md "Habits": the same model
 * for desired and live).
 */
import { KINDS, isResourceType, kindOf } from '../kinds/index.js';
import type { RelationshipDefinition, ResourceType } from '../kinds/index.js';
import type { AttributeObject } from '../manifest/types.js';
import type { ObjectKey } from '../core/object-key.js';
import { objectKey } from '../core/object-key.js';
import type { Link, LinkKey, ObjectRef, State, StateObject } from './model.js';
import { UNKNOWN_ID_PREFIX, canonicalLink, emptyObjectMaps, linkKey, recordLinkKeys, relationshipDefinition } from './model.js';
import { mapReferences } from '../schema/references.js';
import { maskedUrls } from '../schema/urls.js';

/** A JSON:API resource object as a GET list returns it (the REST client's type). */
export type { ApiResource } from '../api/documents.js';
import type { ApiResource, ResourceIdentifier } from '../api/documents.js';
import { isBuiltInId } from '../api/documents.js';

/**
 * Builds the live state from the fetched lists.
 *
 * - Objects are named by their kind's `identity.live` hook: by their `name` attribute, or
 *   for kinds whose identity is not the name (an `ssl-certificate` has no `name` on the
 *   gateway) by the desired handle with the same identity key (`handles`, from
 *   `identityHandles()` in desired.ts), else a display name derived from the key
 *   (`sha256:<first 16 hex digits>`). An object without a usable identity is named
 *   `#id:<id>`.
 * - Two live objects with the same name (the gateway does not forbid it): the one with
 *   the lowest id keeps the name (a built-in, whose id is negative, before any other), the
 *   others are named `<name>@id:<id>`, so they show up as undeclared objects instead of
 *   vanishing.
 * - Links are read from both sides' `relationships`, converted to names through the
 *   fetched objects and stored once in the canonical direction. A link to an object not
 *   in the lists keeps the ref `{ kind, name: '#id:<id>' }`: never silently dropped.
 *   Relationships gwops does not manage (e.g. a back-end group's `client-certificate`)
 *   are not links of the model; they are counted on both ends as `unmanagedLinks`.
 * - Attributes are kept as returned (the object is not copied: treat as read-only), except
 *   that an attribute holding another object's id (schema `x-gwops-reference`) holds its
 *   name, or `#id:<id>` when no fetched object has that id.
 * - Built-in objects (negative ids, `isBuiltInId`; docs/gateway-api.md "Documents and ids")
 *   are left out of `objects`: they are never planned, pruned or reported as unmanaged.
 *   Their names and ids are kept in `builtIns`, so that a manifest declaring one is
 *   refused and a link naming one is resolved. A link to a built-in names it by its
 *   identity (the virtual host `default`, a certificate `sha256:<first 16 hex digits>`), as
 *   a manifest that links to it does.
 *
 * Kinds missing from `lists` are empty. Never throws on odd input.
 */
export function liveState(
  lists: Partial<Record<ResourceType, readonly ApiResource[]>>,
  handles: ReadonlyMap<ObjectKey<ResourceType>, string>,
  linkEnds?: Partial<Record<ResourceType, readonly ApiResource[]>>,
): State {
  return liveStateNamed(lists, handles, linkEnds).state;
}

/**
 * The name of a fetched object whose identity is not its name, from its identity key (the
 * kind's `identity.live` hook asks for it), or undefined for the hook's own display name.
 */
export type HandleOf = (kind: ResourceType, key: string, resource: ApiResource) => string | undefined;

/** How {@link liveStateNamed} named the fetched objects that could not keep their identity as name. */
export interface LiveNaming {
  /** Objects without a usable identity, named `#id:<id>` (by `refKey`). */
  readonly unnamed: ReadonlySet<ObjectKey<ResourceType>>;
  /** Objects named `<name>@id:<id>` because one with a lower id holds their name (by `refKey`): the name they carry. */
  readonly duplicates: ReadonlyMap<ObjectKey<ResourceType>, string>;
}

/**
 * {@link liveState} with its naming: which objects had no identity and which were renamed
 * as duplicates (`gwops export` leaves them out and says so). `handles` is the desired
 * handles by identity key, or a function that names such objects ({@link HandleOf}).
 * `linkEnds`: objects outside the lists, read only to name the link ends and references
 * that name them (`State.outside`); they are no objects of the state.
 */
export function liveStateNamed(
  lists: Partial<Record<ResourceType, readonly ApiResource[]>>,
  handles: ReadonlyMap<ObjectKey<ResourceType>, string> | HandleOf,
  linkEnds?: Partial<Record<ResourceType, readonly ApiResource[]>>,
): { state: State; naming: LiveNaming } {
  const handleOf: HandleOf = typeof handles === 'function' ? handles : (kind, key) => handles.get(objectKey(kind, key));
  const unnamed = new Set<ObjectKey<ResourceType>>();
  const duplicates = new Map<ObjectKey<ResourceType>, string>();
  const objects = emptyObjectMaps();
  const builtIns = new Map<ResourceType, Map<string, string>>();
  const namesByKind = new Map<string, Map<string, string>>(); // type → id → name
  const nameOf = (type: string, id: string): string | undefined => namesByKind.get(type)?.get(id);
  const nameIds = (type: string): Map<string, string> => {
    let ofKind = namesByKind.get(type);
    if (!ofKind) namesByKind.set(type, (ofKind = new Map<string, string>()));
    return ofKind;
  };
  for (const kind of KINDS) {
    const byName = objects.get(kind.type);
    const resources = lists[kind.type];
    if (!byName || !resources) continue;
    const names = nameIds(kind.type);
    for (const resource of inIdOrder(resources)) {
      const id = String(resource.id);
      const attributes = resource.attributes as AttributeObject;
      const identity = kind.identity.live(attributes, (key) => handleOf(kind.type, key, resource));
      if (isBuiltInId(id)) {
        const ofKind = builtIns.get(kind.type) ?? new Map<string, string>();
        if (identity.name !== undefined && !ofKind.has(identity.name)) {
          builtIns.set(kind.type, ofKind.set(identity.name, id));
          names.set(id, identity.name);
        }
        continue;
      }
      let name = identity.name ?? `${UNKNOWN_ID_PREFIX}${id}`;
      const taken = byName.has(name) || builtIns.get(kind.type)?.has(name) === true;
      if (taken) name = `${name}@id:${id}`;
      // Built by assignment: a conditional spread per object cost more than the rest of this loop.
      const object: { -readonly [K in keyof StateObject]: StateObject[K] } = { kind: kind.type, name, id, attributes };
      if (identity.key !== undefined) object.identityKey = identity.key;
      byName.set(name, object);
      if (identity.name === undefined) unnamed.add(objectKey(kind.type, name));
      else if (taken) duplicates.set(objectKey(kind.type, name), identity.name);
      names.set(id, name);
    }
  }
  // Objects outside the lists that links and references name: named as fetched objects are, never objects of the state.
  const outside = new Map<ResourceType, Map<string, string>>();
  const outsideIds = new Set<string>(); // `<type>\u0000<id>`: named, but not fetched
  for (const kind of KINDS) {
    const names = nameIds(kind.type);
    const byName = objects.get(kind.type);
    for (const resource of linkEnds?.[kind.type] ?? []) {
      const id = String(resource.id);
      if (isBuiltInId(id) || names.has(id)) continue;
      const identity = kind.identity.live(resource.attributes, (key) => handleOf(kind.type, key, resource));
      if (identity.name === undefined) continue;
      const ofKind = outside.get(kind.type) ?? new Map<string, string>();
      const taken = byName?.has(identity.name) === true || builtIns.get(kind.type)?.has(identity.name) === true || ofKind.has(identity.name);
      const name = taken ? `${identity.name}@id:${id}` : identity.name;
      outside.set(kind.type, ofKind.set(name, id));
      outsideIds.add(`${kind.type}\u0000${id}`);
      names.set(id, name);
    }
  }

  // Attributes that hold another object's id name it instead, as manifests do (src/schema/references.ts);
  // an id of no fetched object keeps the name `#id:<id>`. A user name or password in a URL
  // attribute is masked: no plan, report or export shows it (src/schema/urls.ts).
  for (const byName of objects.values()) {
    for (const [name, object] of byName) {
      const named = mapReferences(object.kind, object.attributes, (target, value) => nameOf(target, String(value)) ?? `${UNKNOWN_ID_PREFIX}${value}`);
      const attributes = maskedUrls(object.kind, named);
      if (attributes !== object.attributes) byName.set(name, { ...object, attributes });
    }
  }

  // A link is listed by both of its ends. The canonical sides are read first, counting per
  // kind which relationships every fetched object carries; a link read from the other side
  // is then skipped when its canonical end was fetched and carries the relationship (it was
  // read there), which halves the links to key at 100,000 mappings. A link only one end
  // shows (its other end not fetched, or not carrying the relationship) is kept.
  const links = new Map<LinkKey, Link>();
  const addLink = (self: ObjectRef, def: RelationshipDefinition, targetId: string): void => {
    const link = canonicalLink(self, def, nameOf(def.target, targetId) ?? `${UNKNOWN_ID_PREFIX}${targetId}`);
    links.set(linkKey(link), link);
  };
  const carried = new Map<ResourceType, Map<string, number>>(); // kind → relationship → fetched objects of the kind carrying it
  const fetched = new Map<ResourceType, number>(); // kind → fetched objects (built-ins left out, as their links are)
  const inverseSides: { self: ObjectRef; def: RelationshipDefinition; data: ResourceIdentifier | readonly ResourceIdentifier[] }[] = [];
  for (const kind of KINDS) {
    const carriedHere = new Map<string, number>();
    carried.set(kind.type, carriedHere);
    for (const resource of lists[kind.type] ?? []) {
      if (isBuiltInId(String(resource.id))) continue;
      fetched.set(kind.type, (fetched.get(kind.type) ?? 0) + 1);
      const self: ObjectRef = { kind: kind.type, name: nameOf(kind.type, String(resource.id)) ?? `${UNKNOWN_ID_PREFIX}${resource.id}` };
      const relationships = resource.relationships ?? {};
      for (const relationship in relationships) {
        if (!Object.hasOwn(relationships, relationship)) continue;
        const member = relationships[relationship] as NonNullable<(typeof relationships)[string]>;
        const def = relationshipDefinition(kind.type, relationship);
        if (def?.canonical && member.data !== undefined) carriedHere.set(def.name, (carriedHere.get(def.name) ?? 0) + 1);
        const data = member.data;
        if (data === null || data === undefined) continue;
        if (!def) {
          // not managed by gwops: remember that both ends are in use
          for (const ident of Array.isArray(data) ? data : [data]) {
            countUnmanaged(objects, kind.type, self.name);
            const targetName = nameOf(ident.type, String(ident.id));
            if (targetName !== undefined && isResourceType(ident.type)) countUnmanaged(objects, ident.type, targetName);
          }
          continue;
        }
        if (!def.canonical) {
          inverseSides.push({ self, def, data });
          continue;
        }
        for (const ident of Array.isArray(data) ? data : [data]) addLink(self, def, String(ident.id));
      }
    }
  }
  for (const { self, def, data } of inverseSides) {
    const inverse = kindOf(def.target).relationships[def.inverse];
    const targets = fetched.get(def.target);
    const everyTargetCarries = inverse !== undefined && targets !== undefined && carried.get(def.target)?.get(inverse.name) === targets;
    const idents: readonly ResourceIdentifier[] = Array.isArray(data) ? data : [data as ResourceIdentifier];
    for (const ident of idents) {
      const targetId = String(ident.id);
      if (everyTargetCarries && !isBuiltInId(targetId) && nameOf(def.target, targetId) !== undefined && (outsideIds.size === 0 || !outsideIds.has(`${def.target}\u0000${targetId}`))) continue;
      addLink(self, def, targetId);
    }
  }
  const state: State = { objects, links: recordLinkKeys([...links.values()], [...links.keys()], links), ...(builtIns.size > 0 ? { builtIns } : {}), ...(outside.size > 0 ? { outside } : {}) };
  return { state, naming: { unnamed, duplicates } };
}

function countUnmanaged(objects: Map<ResourceType, Map<string, StateObject>>, kind: ResourceType, name: string): void {
  const byName = objects.get(kind);
  const object = byName?.get(name);
  if (!byName || !object) return;
  byName.set(name, { ...object, unmanagedLinks: (object.unmanagedLinks ?? 0) + 1 });
}

/** The resources in {@link compareIds} order (as given when they already are, as lists usually come). */
function inIdOrder(resources: readonly ApiResource[]): readonly ApiResource[] {
  for (let i = 1; i < resources.length; i++) {
    if (compareIds(String((resources[i - 1] as ApiResource).id), String((resources[i] as ApiResource).id)) > 0) {
      return [...resources].sort((a, b) => compareIds(a.id, b.id));
    }
  }
  return resources;
}

/** Ids are strings holding integers: numeric order when both are integers, else code-point order. */
function compareIds(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  if (Number.isInteger(x) && Number.isInteger(y) && x !== y) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The path of a kind's collection relative to the API base, e.g. `/configuration/mappings`. */
export function collectionPathOf(kind: ResourceType): string {
  return `/configuration/${kindOf(kind).collection}`;
}
