/**
 * Content sub-resource endpoints `/configuration/{collection}/{id}/content` of the kinds that
 * declare one (`KindDefinition.content`; docs/gateway-api.md "OpenAPI and GraphQL
 * documents"): `PUT` with an `application/octet-stream` body stores the bytes (204), `GET`
 * answers them as `application/octet-stream` (200; empty before the first upload).
 */
import { KINDS } from '../kinds/index.js';
import type { KindDefinition } from '../kinds/index.js';
import type { Reply } from './responses.js';
import { EmulatorApiError, emptyReply, errors } from './responses.js';
import type { Call, Route } from './routing.js';
import { param, refuseBuiltIn, workingCopy } from './routing.js';

const OCTET_STREAM = 'application/octet-stream';

function readContent(kind: KindDefinition): (call: Call) => Reply {
  return (call) => {
    const id = param(call, 'id');
    const obj = workingCopy(call).objects[kind.type].get(id);
    if (!obj) throw errors.notFound(`${kind.type} ${id}`);
    return { status: 200, binary: { contentType: OCTET_STREAM, data: Buffer.from(obj.content ?? '', 'base64') } };
  };
}

function writeContent(kind: KindDefinition): (call: Call) => Reply {
  return (call) => {
    const id = param(call, 'id');
    refuseBuiltIn(call, kind.type, id);
    const media = (call.contentType?.split(';')[0] ?? '').trim().toLowerCase();
    if (media !== OCTET_STREAM) throw new EmulatorApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `upload the content as ${OCTET_STREAM}`);
    const objects = workingCopy(call).objects[kind.type];
    const obj = objects.get(id);
    if (!obj) throw errors.notFound(`${kind.type} ${id}`);
    objects.set(id, { ...obj, content: call.raw().toString('base64') });
    return emptyReply();
  };
}

/** GET and PUT `/{id}/content` of every kind with a content sub-resource. */
export const contentRoutes: readonly Route[] = KINDS.filter((kind) => kind.content === true).flatMap((kind): Route[] => {
  const pattern = ['configuration', kind.collection, ':id', 'content'];
  return [
    { method: 'GET', pattern, modifying: false, needsLoad: true, handle: readContent(kind) },
    { method: 'PUT', pattern, modifying: true, needsLoad: true, handle: writeContent(kind) },
  ];
});
