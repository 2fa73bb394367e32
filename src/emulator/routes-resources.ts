/**
 * Resource endpoints `/configuration/{collection}[/{id}]` (docs/gateway-api.md "Resource
 * types", "Rules for PATCH") and the endpoints below one object that the kinds declare
 * (`itemActions` of their emulator hooks, e.g. the maintenance page of virtual hosts).
 */
import { KINDS } from '../kinds/index.js';
import type { KindDefinition, ResourceType, Variant } from '../kinds/index.js';
import type { ItemAction } from '../kinds/emulator-hooks.js';
import { writeOnlyAttributes } from '../schema/index.js';
import type { ConfigContent, Json, JsonObject, ObjectMap, StoredObject } from './model.js';
import { disown } from './model.js';
import { addLinks, relationshipOf, relationshipsMember, removeAllLinks, removeLinks } from './links.js';
import {
  FilterSyntaxError,
  checkAttributes,
  fillItemDefaults,
  matchesFilter,
  mergeAttributes,
  newObjectAttributes,
  parseFilters,
  readableAttributes,
} from './pure.js';
import type { Filter } from './pure.js';
import type { Reply } from './responses.js';
import { dataListReply, dataReply, emptyReply, errors } from './responses.js';
import { identifiersOf, refuseLinksSettingBuiltIns, requireTargets } from './routes-relationships.js';
import type { Call, Route } from './routing.js';
import { isJsonObject, kindAt, param, refuseBuiltIn, requestData, show, workingCopy } from './routing.js';

/** A resource object as GET answers it: write-only attributes removed, every relationship shown. */
export function resourceObject(obj: StoredObject, variant: Variant): { type: ResourceType; id: string; attributes: JsonObject; relationships: Record<string, { data: unknown }> } {
  return {
    type: obj.type,
    id: obj.id,
    attributes: readableAttributes(obj.type, obj.attributes),
    relationships: relationshipsMember(obj, variant),
  };
}

/**
 * The filter of a list call, from its `filter` query parameters; undefined without any.
 * @throws EmulatorApiError 400 INVALID_REQUEST_FORMAT when a filter cannot be parsed.
 */
export function filterOf(call: Call): Filter | undefined {
  const values = call.query.get('filter');
  if (!values || values.length === 0) return undefined;
  try {
    return parseFilters(values);
  } catch (error) {
    if (error instanceof FilterSyntaxError) throw errors.invalidFormat(error.message);
    throw error;
  }
}

const hasWriteOnly = new Map<ResourceType, boolean>();

/** True when filtering must look at readable attributes only (the kind has write-only ones). */
function filtersReadable(type: ResourceType): boolean {
  let found = hasWriteOnly.get(type);
  if (found === undefined) {
    found = writeOnlyAttributes(type).length > 0;
    hasWriteOnly.set(type, found);
  }
  return found;
}

/**
 * The ids that can match `filter` when one of its parameters asks for names only
 * (`name==a,b`): looked up in the name index, so a filter by name of 100,000 mappings tests
 * one object, not all. Undefined when every object must be tested.
 */
function candidatesByName(kind: KindDefinition, objects: ObjectMap, filter: Filter): string[] | undefined {
  // A kind whose own filter property `name` reads another attribute is not indexed by it.
  if (Object.hasOwn(kind.filterProperties ?? {}, 'name')) return undefined;
  const byName = filter.all.find((anyOf) => anyOf.length > 0 && anyOf.every((c) => c.property === 'name' && c.operator === '=='));
  if (!byName) return undefined;
  const ids = new Set<string>();
  for (const c of byName) for (const name of c.values) for (const id of objects.idsNamed(name, true)) ids.add(id);
  return [...ids];
}

function list(call: Call): Reply {
  const kind = kindAt(call, param(call, 'collection'));
  const content = workingCopy(call);
  const filter = filterOf(call);
  const variant = call.core.variant;
  const objects = content.objects[kind.type];
  const readable = filtersReadable(kind.type);
  const candidates = filter ? candidatesByName(kind, objects, filter) : undefined;
  const matching: StoredObject[] = [];
  for (const obj of candidates ? candidates.map((id) => objects.get(id)) : objects.values()) {
    if (!obj) continue;
    if (filter) {
      const attributes = readable ? readableAttributes(obj.type, obj.attributes) : obj.attributes;
      if (!matchesFilter(filter, { type: obj.type, id: obj.id, attributes }, kind.filterProperties)) continue;
    }
    matching.push(obj);
  }
  if (!inIdOrder(matching)) matching.sort((a, b) => Number(a.id) - Number(b.id));
  // The answer is written over several turns of the event loop: edits made meanwhile must not
  // reach it, so the content stops appending in place to the relationship lists it holds.
  disown(content);
  return dataListReply(matching, (obj, chunks) => chunks.json(resourceObject(obj, variant)));
}

/** True when the objects' ids ascend numerically (as after creates: the sort is skipped). */
function inIdOrder(objects: readonly StoredObject[]): boolean {
  for (let i = 1; i < objects.length; i++) if (Number(objects[i - 1]?.id) > Number(objects[i]?.id)) return false;
  return true;
}

/** The object addressed by the path. @throws EmulatorApiError 404 ENTITY_NOT_FOUND. */
function addressed(call: Call): { kind: KindDefinition; content: ConfigContent; obj: StoredObject } {
  const kind = kindAt(call, param(call, 'collection'));
  const content = workingCopy(call);
  const id = param(call, 'id');
  const obj = content.objects[kind.type].get(id);
  if (!obj) throw errors.notFound(`${kind.type} ${id}`);
  return { kind, content, obj };
}

function read(call: Call): Reply {
  const { obj } = addressed(call);
  return dataReply(resourceObject(obj, call.core.variant));
}

/**
 * The `data` of a create or PATCH body, checked: an object whose `type` is the kind's.
 * @throws EmulatorApiError 400 INVALID_REQUEST_FORMAT otherwise.
 */
function resourceData(call: Call, kind: KindDefinition): JsonObject {
  const data = requestData(call.json());
  if (!isJsonObject(data)) throw errors.invalidFormat("'data' must be a resource object");
  if (data.type !== kind.type) {
    throw errors.invalidFormat(`'data.type' must be '${kind.type}'${data.type === undefined ? '' : `, not ${show(data.type)}`}`);
  }
  return data;
}

/** Checked attributes of a request. @throws EmulatorApiError 400 INVALID_VALUE. */
function checked(kind: KindDefinition, variant: Variant, attributes: Json | undefined): JsonObject {
  const result = checkAttributes(kind.type, variant, attributes ?? {});
  if (!result.ok) throw errors.invalidValue(result.detail);
  return result.value;
}

/**
 * The links named in a body's `relationships` member, checked (relationship exists in the
 * variant, identifiers well formed, targets exist).
 */
function requestedLinks(content: ConfigContent, kind: KindDefinition, variant: Variant, relationships: Json | undefined): { name: string; ids: string[] }[] {
  if (relationships === undefined || relationships === null) return [];
  if (!isJsonObject(relationships)) throw errors.invalidFormat("'data.relationships' must be an object");
  const out: { name: string; ids: string[] }[] = [];
  for (const [name, member] of Object.entries(relationships)) {
    const def = relationshipOf(kind.type, name, variant);
    if (!def) throw errors.invalidValue(`unknown relationship '${name}' of ${kind.type}`);
    const ids = identifiersOf(requestData(member), def);
    if (def.cardinality === 'one' && ids.length > 1) throw errors.invalidValue(`relationship '${name}' is to-one`);
    requireTargets(content, def, ids);
    refuseLinksSettingBuiltIns(variant, def, ids);
    out.push({ name: def.name, ids });
  }
  return out;
}

/**
 * Names are unique among the objects of a kind whose hooks say `uniqueNames` (mappings,
 * docs/gateway-api.md "Resource types"): a create or rename onto an existing name is refused.
 * @throws EmulatorApiError 400 INVALID_VALUE naming the holder of the name.
 */
function requireUniqueName(content: ConfigContent, kind: KindDefinition, attributes: JsonObject, selfId?: string): void {
  if (kind.emulator.uniqueNames !== true) return;
  const name = attributes.name;
  if (typeof name !== 'string' || name === '') return;
  // The first holder in id order, should several hold the name (e.g. from an older state file).
  const holder = content.objects[kind.type]
    .idsNamed(name)
    .filter((id) => id !== selfId)
    .sort((a, b) => Number(a) - Number(b))[0];
  if (holder !== undefined) throw errors.invalidValue(`a ${kind.emulator.label} named '${name}' exists already (id ${holder})`);
}

function applyLinks(content: ConfigContent, type: ResourceType, id: string, variant: Variant, links: readonly { name: string; ids: string[] }[]): void {
  for (const { name, ids } of links) {
    const def = relationshipOf(type, name, variant);
    if (!def) continue;
    removeLinks(content, type, id, def, undefined);
    addLinks(content, type, id, def, ids);
  }
}

function create(call: Call): Reply {
  const kind = kindAt(call, param(call, 'collection'));
  const content = workingCopy(call);
  const variant = call.core.variant;
  const data = resourceData(call, kind);
  const attributes = checked(kind, variant, data.attributes);
  requireUniqueName(content, kind, attributes);
  const links = requestedLinks(content, kind, variant, data.relationships);
  const id = String(content.nextId++);
  const filled = newObjectAttributes(kind.type, variant, attributes);
  const obj: StoredObject = { type: kind.type, id, attributes: kind.emulator.completeWrite?.(filled, attributes, id) ?? filled, relationships: {} };
  content.objects[kind.type].set(id, obj);
  applyLinks(content, kind.type, id, variant, links);
  return dataReply(resourceObject(content.objects[kind.type].get(id) ?? obj, variant), 201);
}

function patch(call: Call): Reply {
  const kind = kindAt(call, param(call, 'collection'));
  refuseBuiltIn(call, kind.type, param(call, 'id'));
  const variant = call.core.variant;
  const data = resourceData(call, kind);
  const id = param(call, 'id');
  // PATCH rule 2; a missing id is tolerated (docs/gateway-api.md "Rules for PATCH", rule 1).
  const givenId = data.id;
  if (givenId !== undefined && givenId !== null && (typeof givenId === 'object' || String(givenId) !== id)) {
    throw errors.invalidValue(`'data.id' (${show(givenId)}) differs from the id in the path (${id})`);
  }
  // PATCH rule 1: at least one attribute (or, tolerated, a relationships member).
  const hasRelationships = isJsonObject(data.relationships);
  if (data.attributes !== undefined && !isJsonObject(data.attributes)) throw errors.invalidValue("'data.attributes' must be an object");
  if ((!isJsonObject(data.attributes) || Object.keys(data.attributes).length === 0) && !hasRelationships) {
    throw errors.invalidValue("'data.attributes' must contain at least one attribute");
  }
  const { content, obj } = addressed(call);
  const attributes = checked(kind, variant, data.attributes);
  requireUniqueName(content, kind, attributes, id);
  const links = requestedLinks(content, kind, variant, data.relationships);
  const merged = fillItemDefaults(kind.type, mergeAttributes(obj.attributes, attributes));
  content.objects[kind.type].set(id, { ...obj, attributes: kind.emulator.completeWrite?.(merged, attributes, id) ?? merged });
  applyLinks(content, kind.type, id, variant, links);
  return dataReply(resourceObject(content.objects[kind.type].get(id) ?? obj, variant));
}

function remove(call: Call): Reply {
  const kind = kindAt(call, param(call, 'collection'));
  refuseBuiltIn(call, kind.type, param(call, 'id'));
  const { content, obj } = addressed(call);
  removeAllLinks(content, kind.type, obj.id);
  content.objects[kind.type].delete(obj.id);
  return emptyReply();
}

/**
 * `{method} .../{collection}/{id}/{segment}` of a kind's item action (e.g. `POST`/`DELETE
 * .../virtual-hosts/{id}/maintenance`, docs/gateway-api.md "Resource types"): merges the
 * action's attributes into the object, 204.
 */
function itemAction(kind: KindDefinition, action: ItemAction): (call: Call) => Reply {
  return (call) => {
    refuseBuiltIn(call, kind.type, param(call, 'id'));
    const content = workingCopy(call);
    const id = param(call, 'id');
    const obj = content.objects[kind.type].get(id);
    if (!obj) throw errors.notFound(`${kind.type} ${id}`);
    content.objects[kind.type].set(id, { ...obj, attributes: mergeAttributes(obj.attributes, action.attributes) });
    return emptyReply();
  };
}

const COLLECTION = ['configuration', ':collection'] as const;
const ITEM = ['configuration', ':collection', ':id'] as const;

/** The routes of every kind's item actions. */
const itemActionRoutes: readonly Route[] = KINDS.flatMap((kind) =>
  (kind.emulator.itemActions ?? []).map(
    (action): Route => ({
      method: action.method,
      pattern: ['configuration', kind.collection, ':id', action.segment],
      modifying: true,
      needsLoad: true,
      handle: itemAction(kind, action),
    }),
  ),
);

/** The kinds' item actions, then the resource routes. */
export const resourceRoutes: readonly Route[] = [
  ...itemActionRoutes,
  { method: 'GET', pattern: COLLECTION, modifying: false, needsLoad: true, handle: list },
  { method: 'POST', pattern: COLLECTION, modifying: true, needsLoad: true, handle: create },
  { method: 'GET', pattern: ITEM, modifying: false, needsLoad: true, handle: read },
  { method: 'PATCH', pattern: ITEM, modifying: true, needsLoad: true, handle: patch },
  { method: 'DELETE', pattern: ITEM, modifying: true, needsLoad: true, handle: remove },
];
