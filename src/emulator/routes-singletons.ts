/**
 * The singletons `/configuration/{path}` (docs/gateway-api.md "Singletons"): one object per
 * gateway and kind (KindDefinition `singleton`), `GET` and `PATCH` on the path itself, no id.
 * It starts with the kind's server defaults; a PATCH merges into it (docs/gateway-api.md
 * "Rules for PATCH"). It can be neither created nor deleted: `POST`, `DELETE` and any path
 * below it with an id answer 405 (routing.ts `kindAt`).
 */
import { KINDS, kindExistsIn } from '../kinds/index.js';
import type { KindDefinition } from '../kinds/index.js';
import type { ConfigContent, JsonObject, StoredObject } from './model.js';
import { checkAttributes, fillItemDefaults, mergeAttributes, newObjectAttributes, readableAttributes } from './pure.js';
import type { Reply } from './responses.js';
import { dataReply, errors } from './responses.js';
import type { Call, Route } from './routing.js';
import { isJsonObject, noEndpoint, requestData, show, workingCopy } from './routing.js';

/** The id under which a configuration stores the one object of a singleton kind (never shown). */
const SINGLETON_ID = '1';

/** The kind, when it exists in the gateway's variant. @throws EmulatorApiError 404 otherwise */
function present(call: Call, kind: KindDefinition): KindDefinition {
  if (!kindExistsIn(kind, call.core.variant)) throw noEndpoint(`/configuration/${kind.singleton?.path ?? kind.collection}`);
  return kind;
}

/** The singleton's object in `content`: as stored, or the server defaults when nobody changed it. */
function current(call: Call, content: ConfigContent, kind: KindDefinition): StoredObject {
  return content.objects[kind.type].get(SINGLETON_ID) ?? { type: kind.type, id: SINGLETON_ID, attributes: newObjectAttributes(kind.type, call.core.variant, {}), relationships: {} };
}

/** The resource object a GET or PATCH answers: type and attributes, no id (the path is the identity). */
function singletonObject(obj: StoredObject): { type: string; attributes: JsonObject } {
  return { type: obj.type, attributes: readableAttributes(obj.type, obj.attributes) };
}

function read(kind: KindDefinition): (call: Call) => Reply {
  return (call) => dataReply(singletonObject(current(call, workingCopy(call), present(call, kind))));
}

function patch(kind: KindDefinition): (call: Call) => Reply {
  return (call) => {
    present(call, kind);
    const data = requestData(call.json());
    if (!isJsonObject(data)) throw errors.invalidFormat("'data' must be a resource object");
    if (data.type !== kind.type) throw errors.invalidFormat(`'data.type' must be '${kind.type}'${data.type === undefined ? '' : `, not ${show(data.type)}`}`);
    if (!isJsonObject(data.attributes) || Object.keys(data.attributes).length === 0) throw errors.invalidValue("'data.attributes' must contain at least one attribute");
    const checked = checkAttributes(kind.type, call.core.variant, data.attributes);
    if (!checked.ok) throw errors.invalidValue(checked.detail);
    const content = workingCopy(call);
    const obj = current(call, content, kind);
    const next: StoredObject = { ...obj, attributes: fillItemDefaults(kind.type, mergeAttributes(obj.attributes, checked.value)) };
    content.objects[kind.type].set(SINGLETON_ID, next);
    return dataReply(singletonObject(next));
  };
}

/** GET and PATCH on every singleton's path; any other call there is refused with 405 by the generic routes (routing.ts `kindAt`). */
export const singletonRoutes: readonly Route[] = KINDS.flatMap((kind): Route[] => {
  if (!kind.singleton) return [];
  // The path is one segment for routing: server.ts folds a collection of several segments into one.
  const path = ['configuration', kind.collection];
  return [
    { method: 'GET', pattern: path, modifying: false, needsLoad: true, handle: read(kind) },
    { method: 'PATCH', pattern: path, modifying: true, needsLoad: true, handle: patch(kind) },
  ];
});
