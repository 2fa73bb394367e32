/**
 * The content sub-resource `/configuration/{collection}/{id}/content` of every kind that
 * declares one (docs/gateway-api.md "OpenAPI and GraphQL documents"), through the raw API.
 */
import { describe, expect, it } from 'vitest';
import { KINDS, kindExistsIn } from '../../../src/kinds/index.js';
import { COLLECTION, errorCode, exampleObject, useAdminSession } from './client.js';
import type { Client } from './client.js';

const kinds = KINDS.filter((k) => k.content === true && kindExistsIn(k, 'latest')).map((kind) => ({ type: kind.type }));

describe('content sub-resources (latest variant)', () => {
  let c: Client;
  useAdminSession((_harness, client) => {
    c = client;
  });

  it('exist for at least one kind', () => {
    expect(kinds.length).toBeGreaterThan(0);
  });

  describe.each(kinds)('$type', ({ type }) => {
    const octets = { 'content-type': 'application/octet-stream', accept: 'application/octet-stream' };

    it('PUT stores the bytes (204) and GET answers them as application/octet-stream', async () => {
      const id = await c.create(type, (await exampleObject(type)).attributes);
      const path = `/configuration/${COLLECTION[type]}/${id}/content`;
      const bytes = Buffer.from('openapi: 3.0.1\ninfo: { title: shop, version: "1" }\npaths: {}\n\u00ff', 'latin1');
      expect((await c.call('PUT', path, { raw: bytes, headers: octets })).status).toBe(204);
      const read = await c.call('GET', path, { headers: { accept: 'application/octet-stream' } });
      expect(read.status).toBe(200);
      expect(read.headers['content-type']).toMatch(/^application\/octet-stream/);
      expect(Buffer.compare(read.raw, bytes)).toBe(0);
    });

    it('PUT of another media type answers 415; of an unknown id 404 ENTITY_NOT_FOUND', async () => {
      const id = await c.create(type, (await exampleObject(type)).attributes);
      const json = await c.call('PUT', `/configuration/${COLLECTION[type]}/${id}/content`, { raw: '{}', headers: { 'content-type': 'application/json' } });
      expect(json.status).toBe(415);
      const unknown = await c.call('PUT', `/configuration/${COLLECTION[type]}/999999/content`, { raw: Buffer.from('x'), headers: octets });
      expect(unknown.status).toBe(404);
      expect(errorCode(unknown)).toBe('ENTITY_NOT_FOUND');
    });
  });
});
