/**
 * Content sub-resource endpoints `/configuration/{collection}/{id}/content` of the kinds that
 * declare one (`KindDefinition.content`; docs/gateway-api.md "OpenAPI and GraphQL
 * documents"): `PUT` with an `application/octet-stream` body stores the bytes (204), `GET`
 * answers them as `application/octet-stream` (200; empty before the first upload). A kind's
 * `contentResource` moves them (a virtual host's revocation list: `/{id}/crl`,
 * `application/pkix-crl`, with `DELETE`; docs/gateway-api.md "Virtual hosts").
 */
import { KINDS, contentResourceOf } from '../kinds/index.js';
import type { KindDefinition } from '../kinds/index.js';
import type { Reply } from './responses.js';
import { EmulatorApiError, emptyReply, errors } from './responses.js';
import type { Call, Route } from './routing.js';
import { param, refuseBuiltIn, workingCopy } from './routing.js';

function readContent(kind: KindDefinition): (call: Call) => Reply {
  return (call) => {
    const id = param(call, 'id');
    const obj = workingCopy(call).objects[kind.type].get(id);
    if (!obj) throw errors.notFound(`${kind.type} ${id}`);
    return { status: 200, binary: { contentType: contentResourceOf(kind).mediaType, data: Buffer.from(obj.content ?? '', 'base64') } };
  };
}

function writeContent(kind: KindDefinition): (call: Call) => Reply {
  return (call) => {
    const id = param(call, 'id');
    refuseBuiltIn(call, kind.type, id);
    const media = (call.contentType?.split(';')[0] ?? '').trim().toLowerCase();
    const expected = contentResourceOf(kind).mediaType;
    if (media !== expected) throw new EmulatorApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `upload the content as ${expected}`);
    const objects = workingCopy(call).objects[kind.type];
    const obj = objects.get(id);
    if (!obj) throw errors.notFound(`${kind.type} ${id}`);
    objects.set(id, { ...obj, content: call.raw().toString('base64') });
    return emptyReply();
  };
}

/** `DELETE` of an optional content (a revocation list): the object has none after it (204). */
function deleteContent(kind: KindDefinition): (call: Call) => Reply {
  return (call) => {
    const id = param(call, 'id');
    refuseBuiltIn(call, kind.type, id);
    const objects = workingCopy(call).objects[kind.type];
    const obj = objects.get(id);
    if (!obj) throw errors.notFound(`${kind.type} ${id}`);
    const { content: _dropped, ...rest } = obj;
    objects.set(id, rest);
    return emptyReply();
  };
}

/**
 * GET and PUT `/{id}/content` (or the kind's own segment, e.g. `/{id}/crl`) of every kind
 * with a content sub-resource; DELETE too where the content is optional.
 */
export const contentRoutes: readonly Route[] = KINDS.filter((kind) => kind.content === true).flatMap((kind): Route[] => {
  const resource = contentResourceOf(kind);
  const pattern = ['configuration', kind.collection, ':id', resource.segment];
  return [
    { method: 'GET', pattern, modifying: false, needsLoad: true, handle: readContent(kind) },
    { method: 'PUT', pattern, modifying: true, needsLoad: true, handle: writeContent(kind) },
    ...(resource.optional === true ? [{ method: 'DELETE', pattern, modifying: true, needsLoad: true, handle: deleteContent(kind) } as const] : []),
  ];
});
