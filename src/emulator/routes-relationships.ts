/**
 * Relationship endpoints `/configuration/{collection}/{id}/relationships/{name}`
 * (docs/gateway-api.md "Relationships"): PATCH (and POST) add links, DELETE removes them,
 * both 204; GET answers the linkage.
 */
import type { KindDefinition, RelationshipDefinition } from '../kinds/index.js';
import type { Variant } from '../kinds/index.js';
import type { ConfigContent, Json } from './model.js';
import { addLinks, emulatedRelationships, linkageData, relationshipOf, removeLinks } from './links.js';
import type { Reply } from './responses.js';
import { dataReply, emptyReply, errors } from './responses.js';
import type { Call, Route } from './routing.js';
import { isJsonObject, kindAt, noEndpoint, param, refuseBuiltIn, requestData, show, workingCopy } from './routing.js';
import { isBuiltInId } from '../api/documents.js';

/**
 * The ids named by a relationship body's `data`: one identifier or an array of them, ids as
 * JSON strings or numbers (docs/gateway-api.md "What real clients send"). `null` or `[]`
 * name none.
 * @throws EmulatorApiError 400 INVALID_REQUEST_FORMAT for a malformed identifier, 400 INVALID_VALUE
 * when an identifier's `type` is not the relationship's target type.
 */
export function identifiersOf(data: Json, def: RelationshipDefinition): string[] {
  if (data === null) return [];
  const items = Array.isArray(data) ? data : [data];
  return items.map((item) => {
    if (!isJsonObject(item)) throw errors.invalidFormat('a resource identifier must be an object {type, id}');
    const { type, id } = item;
    if (typeof id !== 'string' && typeof id !== 'number') throw errors.invalidFormat('a resource identifier needs an id');
    if (type !== undefined && type !== def.target) {
      throw errors.invalidValue(`relationship '${def.name}' links objects of type '${def.target}', not ${show(type)}`);
    }
    return String(id);
  });
}

/**
 * Checks that every id names an object of the relationship's target type.
 * @throws EmulatorApiError 404 ENTITY_NOT_FOUND naming the first missing one.
 */
export function requireTargets(content: ConfigContent, def: RelationshipDefinition, ids: readonly string[]): void {
  for (const id of ids) {
    if (!content.objects[def.target].has(id)) throw errors.notFound(`${def.target} ${id}`);
  }
}

/**
 * Links to a built-in entity are allowed from other objects (a virtual host may use the
 * default certificate) as long as they only add to the built-in's to-many side; a link that
 * would set or replace a built-in's to-one relationship changes the built-in and is refused
 * (docs/gateway-api.md "Documents and ids").
 * @throws EmulatorApiError 409 (400 on the earliest variant) DEFAULT_ENTITY_MODIFICATION.
 */
export function refuseLinksSettingBuiltIns(variant: Variant, def: RelationshipDefinition, ids: readonly string[]): void {
  if (emulatedRelationships(def.target)[def.inverse]?.cardinality !== 'one') return;
  const builtIn = ids.find(isBuiltInId);
  if (builtIn !== undefined) throw errors.defaultEntity(`${def.target} ${builtIn}`, variant);
}

/** The relationship addressed by the path. @throws EmulatorApiError 404 for an unknown relationship or object. */
function addressed(call: Call): { kind: KindDefinition; content: ConfigContent; def: RelationshipDefinition; id: string } {
  const kind = kindAt(call, param(call, 'collection'));
  const def = relationshipOf(kind.type, param(call, 'relationship'), call.core.variant);
  if (!def) throw noEndpoint(`/configuration/${kind.collection}/{id}/relationships/${param(call, 'relationship')}`);
  const content = workingCopy(call);
  const id = param(call, 'id');
  if (!content.objects[kind.type].has(id)) throw errors.notFound(`${kind.type} ${id}`);
  return { kind, content, def, id };
}

function linkage(call: Call): Reply {
  const { kind, content, def, id } = addressed(call);
  return dataReply(linkageData(def, content.objects[kind.type].get(id)?.relationships[def.name] ?? []));
}

function link(call: Call): Reply {
  const { kind, content, def, id } = addressed(call);
  refuseBuiltIn(call, kind.type, id);
  const ids = identifiersOf(requestData(call.json()), def);
  if (def.cardinality === 'one' && ids.length > 1) throw errors.invalidValue(`relationship '${def.name}' is to-one`);
  requireTargets(content, def, ids);
  refuseLinksSettingBuiltIns(call.core.variant, def, ids);
  if (def.cardinality === 'one' && ids.length === 0) removeLinks(content, kind.type, id, def, undefined);
  else addLinks(content, kind.type, id, def, ids);
  return emptyReply();
}

function unlink(call: Call): Reply {
  const { kind, content, def, id } = addressed(call);
  refuseBuiltIn(call, kind.type, id);
  const body = call.json();
  // A to-one link may be removed without naming it; a to-many removal names what it removes.
  if (body === undefined || body === null || (isJsonObject(body) && body.data === null)) {
    if (def.cardinality === 'many') throw errors.invalidFormat(`name the ${def.target} objects to unlink in 'data'`);
    removeLinks(content, kind.type, id, def, undefined);
    return emptyReply();
  }
  const ids = identifiersOf(requestData(body), def);
  requireTargets(content, def, ids);
  removeLinks(content, kind.type, id, def, ids);
  return emptyReply();
}

const PATTERN = ['configuration', ':collection', ':id', 'relationships', ':relationship'] as const;

/** The relationship routes. */
export const relationshipRoutes: readonly Route[] = [
  { method: 'GET', pattern: PATTERN, modifying: false, needsLoad: true, handle: linkage },
  { method: 'PATCH', pattern: PATTERN, modifying: true, needsLoad: true, handle: link },
  { method: 'POST', pattern: PATTERN, modifying: true, needsLoad: true, handle: link },
  { method: 'DELETE', pattern: PATTERN, modifying: true, needsLoad: true, handle: unlink },
];

