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
  const list = ownedList(content, obj.relationships[rel] ?? []);
  content.owned.get(list)?.set(value, list.length);
  list.push(value);
  map.set(id, withIds(obj, rel, list));
}

/**
 * Lists shorter than this are copied on every edit rather than owned: a mapping's own one
 * or two links are copied for less than keeping 200,000 of them in the content's weak map
 * costs (every full garbage collection walks its entries).
 */
const OWNED_FROM = 16;

/** `ids` when the content owns it, else a copy (that it then owns when long enough: {@link OWNED_FROM}). */
function ownedList(content: ConfigContent, ids: readonly string[]): string[] {
  if (content.owned.has(ids)) return ids as string[];
  const copy = [...ids];
  if (copy.length + 1 >= OWNED_FROM) content.owned.set(copy, null);
  return copy;
}

/**
 * Removes `values` from the ids of `rel` of an object; returns those it held. When only a
 * few of many go, one at a time in the list the content owns (a copy of it first when it
 * does not), each found through the list's position index and its slot given to the list's
 * last id: O(1) each, so unlinking or deleting one of a virtual host's 100,000 mappings
 * costs what it costs with ten (the remaining ids change order). Otherwise by one pass into
 * a new list, in order.
 */
function removeIds(content: ConfigContent, type: ResourceType, id: string, rel: string, values: ReadonlySet<string>): string[] {
  const map = content.objects[type];
  const obj = map.get(id);
  const ids = obj?.relationships[rel] ?? [];
  if (!obj || ids.length === 0 || values.size === 0) return [];
  if (values.size * 4 >= ids.length) {
    const removed = ids.filter((x) => values.has(x));
    if (removed.length === 0) return removed;
    const next = ids.filter((x) => !values.has(x));
    if (next.length >= OWNED_FROM) content.owned.set(next, null);
    map.set(id, withIds(obj, rel, next));
    return removed;
  }
  const list = ownedList(content, ids);
  let positions = content.owned.get(list);
  if (!positions) {
    positions = new Map(list.map((x, i) => [x, i]));
    content.owned.set(list, positions);
  }
  const removed: string[] = [];
  for (const value of values) {
    const at = positions.get(value);
    if (at === undefined) continue;
    positions.delete(value);
    const last = list.pop() as string;
    if (at < list.length) {
      list[at] = last;
      positions.set(last, at);
    }
    removed.push(value);
  }
  if (removed.length > 0 || list !== ids) map.set(id, withIds(obj, rel, list));
  return removed;
}

/** Removes one link (both sides). */
function removeLink(content: ConfigContent, type: ResourceType, id: string, def: RelationshipDefinition, targetId: string): void {
  removeIds(content, type, id, def.name, new Set([targetId]));
  removeIds(content, def.target, targetId, def.inverse, new Set([id]));
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

/**
 * Removes the links of `type`/`id` through `def` to `targetIds`, or all of them when
 * undefined; both sides, each in O(1) per link where few of a long list go ({@link removeIds}).
 */
export function removeLinks(
  content: ConfigContent,
  type: ResourceType,
  id: string,
  def: RelationshipDefinition,
  targetIds: readonly string[] | undefined,
): void {
  const removing = new Set(targetIds ?? content.objects[type].get(id)?.relationships[def.name] ?? []);
  const self = new Set([id]);
  for (const targetId of removeIds(content, type, id, def.name, removing)) removeIds(content, def.target, targetId, def.inverse, self);
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
