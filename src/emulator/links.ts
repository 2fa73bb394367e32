/**
 * Links between objects of a working copy (docs/gateway-api.md "Relationships"): a link
 * made from either side is the same link, so both sides are always stored (model.ts
 * `StoredObject.relationships`). Linking a to-one relationship replaces its previous link,
 * on whichever side the to-one end is.
 *
 * Objects are immutable: every change replaces the affected objects in the content's maps.
 */
import { kindOf, relationshipNamed } from '../kinds/index.js';
import type { RelationshipDefinition, ResourceType, Variant } from '../kinds/index.js';
import type { ConfigContent, StoredObject } from './model.js';

/** Every relationship the emulated gateway serves for `type` (the kind registry's). */
export function emulatedRelationships(type: ResourceType): Readonly<Record<string, RelationshipDefinition>> {
  return kindOf(type).relationships;
}

/**
 * The relationship `name` of `type` as it exists in `variant`, or undefined.
 * A relationship's aliases (older gateways' names) name the relationship itself
 * (docs/gateway-api.md "Relationships").
 */
export function relationshipOf(type: ResourceType, name: string, variant: Variant): RelationshipDefinition | undefined {
  const def = relationshipNamed(kindOf(type), name);
  if (!def) return undefined;
  if (def.variants && !def.variants.includes(variant)) return undefined;
  return def;
}

function inverseOf(def: RelationshipDefinition): RelationshipDefinition {
  const inverse = emulatedRelationships(def.target)[def.inverse];
  if (!inverse) throw new Error(`relationship ${def.name} has no inverse ${def.inverse} on ${def.target}`);
  return inverse;
}

function withIds(obj: StoredObject, rel: string, ids: readonly string[]): StoredObject {
  return { ...obj, relationships: { ...obj.relationships, [rel]: ids } };
}

/** Replaces the ids of `rel` of an object by `change(ids)`, a new list, which the content then owns. */
function setIds(content: ConfigContent, type: ResourceType, id: string, rel: string, change: (ids: readonly string[]) => string[]): void {
  const map = content.objects[type];
  const obj = map.get(id);
  if (!obj) return;
  const next = change(obj.relationships[rel] ?? []);
  content.owned.add(next);
  map.set(id, withIds(obj, rel, next));
}

/**
 * Appends `value` to the ids of `rel` of an object: in place when the content owns the list
 * (model.ts `ConfigContent.owned`), else on a copy that it then owns. Linking 100,000
 * mappings to one virtual host, one create at a time, so costs O(1) per link instead of a
 * copy of the host's growing list.
 */
function appendId(content: ConfigContent, type: ResourceType, id: string, rel: string, value: string): void {
  const map = content.objects[type];
  const obj = map.get(id);
  if (!obj) return;
  const ids = obj.relationships[rel] ?? [];
  let next: string[];
  if (content.owned.has(ids)) {
    next = ids as string[];
    next.push(value);
  } else {
    next = [...ids, value];
    content.owned.add(next);
  }
  map.set(id, withIds(obj, rel, next));
}

/** Removes one link (both sides). */
function removeLink(content: ConfigContent, type: ResourceType, id: string, def: RelationshipDefinition, targetId: string): void {
  setIds(content, type, id, def.name, (ids) => ids.filter((x) => x !== targetId));
  setIds(content, def.target, targetId, def.inverse, (ids) => ids.filter((x) => x !== id));
}

/**
 * Links object `type`/`id` to `targetIds` through `def` (both sides). Objects that do not
 * exist are skipped: callers check existence first.
 */
export function addLinks(content: ConfigContent, type: ResourceType, id: string, def: RelationshipDefinition, targetIds: readonly string[]): void {
  const inverse = inverseOf(def);
  /** The ids `id` links to through `def`, as a set (a link call may name 100,000 targets). */
  let linked: Set<string> | undefined;
  for (const targetId of targetIds) {
    if (!content.objects[type].has(id) || !content.objects[def.target].has(targetId)) continue;
    const current = content.objects[type].get(id)?.relationships[def.name] ?? [];
    linked ??= new Set(current);
    if (linked.has(targetId)) continue;
    if (def.cardinality === 'one') {
      for (const old of current) removeLink(content, type, id, def, old);
      linked.clear();
    }
    if (inverse.cardinality === 'one') {
      // The target's previous link is to another object (else `linked` would hold the target).
      const held = content.objects[def.target].get(targetId)?.relationships[inverse.name] ?? [];
      for (const old of held) removeLink(content, def.target, targetId, inverse, old);
    }
    appendId(content, type, id, def.name, targetId);
    linked.add(targetId);
    appendId(content, def.target, targetId, def.inverse, id);
  }
}

/** Removes the links of `type`/`id` through `def` to `targetIds`, or all of them when undefined. */
export function removeLinks(
  content: ConfigContent,
  type: ResourceType,
  id: string,
  def: RelationshipDefinition,
  targetIds: readonly string[] | undefined,
): void {
  const current = content.objects[type].get(id)?.relationships[def.name] ?? [];
  const linked = new Set(current);
  const removing = new Set((targetIds ?? current).filter((targetId) => linked.has(targetId)));
  if (removing.size === 0) return;
  setIds(content, type, id, def.name, (ids) => ids.filter((x) => !removing.has(x)));
  for (const targetId of removing) setIds(content, def.target, targetId, def.inverse, (ids) => ids.filter((x) => x !== id));
}

/** Removes every link of an object (before it is deleted). */
export function removeAllLinks(content: ConfigContent, type: ResourceType, id: string): void {
  const obj = content.objects[type].get(id);
  if (!obj) return;
  const rels = emulatedRelationships(type);
  for (const name of Object.keys(obj.relationships)) {
    const def = rels[name];
    if (def) removeLinks(content, type, id, def, undefined);
  }
}

/**
 * The `relationships` member of a resource object: every relationship of the kind that exists
 * in `variant`, to-many always, as `{data:[{type,id}]}` (`[]` when empty), to-one as
 * `{data:{type,id}}` and left out when empty (docs/gateway-api.md "Relationships": a
 * `{data:null}` member breaks clients that read every member as an identifier).
 */
export function relationshipsMember(obj: StoredObject, variant: Variant): Record<string, { data: unknown }> {
  const out: Record<string, { data: unknown }> = {};
  for (const def of Object.values(emulatedRelationships(obj.type))) {
    if (def.variants && !def.variants.includes(variant)) continue;
    const data = linkageData(def, obj.relationships[def.name] ?? []);
    if (data !== null) out[def.name] = { data };
  }
  return out;
}

/** The `data` of one relationship: `[{type,id}]` for to-many, `{type,id}` or null for to-one. */
export function linkageData(def: RelationshipDefinition, ids: readonly string[]): { type: ResourceType; id: string }[] | { type: ResourceType; id: string } | null {
  const idents = ids.map((id) => ({ type: def.target, id }));
  return def.cardinality === 'one' ? (idents[0] ?? null) : idents;
}
