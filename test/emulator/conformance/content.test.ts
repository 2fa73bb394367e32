/**
 * The content sub-resource `/configuration/{collection}/{id}/content` of every kind that
 * declares one (docs/gateway-api.md "OpenAPI and GraphQL documents"), or its own segment and
 * media type (a virtual host's `/{id}/crl`, `application/pkix-crl`, which DELETE removes;
 * "Virtual hosts"), through the raw API.
 */
import { describe, expect, it } from 'vitest';
import { KINDS, contentResourceOf, kindExistsIn } from '../../../src/kinds/index.js';
import { COLLECTION, errorCode, exampleObject, useAdminSession } from './client.js';
import type { Client } from './client.js';

const kinds = KINDS.filter((k) => k.content === true && kindExistsIn(k, 'latest')).map((kind) => ({ type: kind.type, ...contentResourceOf(kind) }));

describe('content sub-resources (latest variant)', () => {
  let c: Client;
  useAdminSession((_harness, client) => {
    c = client;
  });

  it('exist for at least one kind', () => {
    expect(kinds.length).toBeGreaterThan(0);
  });

  describe.each(kinds)('$type', ({ type, segment, mediaType, optional }) => {
    const octets = { 'content-type': mediaType, accept: mediaType };

    it('PUT stores the bytes (204) and GET answers them in the media type of the kind', async () => {
      const id = await c.create(type, (await exampleObject(type)).attributes);
      const path = `/configuration/${COLLECTION[type]}/${id}/${segment}`;
      const bytes = Buffer.from('openapi: 3.0.1\ninfo: { title: shop, version: "1" }\npaths: {}\n\u00ff', 'latin1');
      expect((await c.call('PUT', path, { raw: bytes, headers: octets })).status).toBe(204);
      const read = await c.call('GET', path, { headers: { accept: mediaType } });
      expect(read.status).toBe(200);
      expect(String(read.headers['content-type'])).toContain(mediaType);
      expect(Buffer.compare(read.raw, bytes)).toBe(0);
      // An optional content (a revocation list) can be removed: 204, and then it is empty.
      const removed = await c.call('DELETE', path);
      expect(removed.status).toBe(optional === true ? 204 : 405);
      expect((await c.call('GET', path, { headers: { accept: mediaType } })).raw.length).toBe(optional === true ? 0 : bytes.length);
    });

    it('PUT of another media type answers 415; of an unknown id 404 ENTITY_NOT_FOUND', async () => {
      const id = await c.create(type, (await exampleObject(type)).attributes);
      const json = await c.call('PUT', `/configuration/${COLLECTION[type]}/${id}/${segment}`, { raw: '{}', headers: { 'content-type': 'application/json' } });
      expect(json.status).toBe(415);
      const unknown = await c.call('PUT', `/configuration/${COLLECTION[type]}/999999/${segment}`, { raw: Buffer.from('x'), headers: octets });
      expect(unknown.status).toBe(404);
      expect(errorCode(unknown)).toBe('ENTITY_NOT_FOUND');
    });
  });
});
