/**
 * Error statuses and codes: docs/gateway-api.md "Errors". (401 and 403 are in
 * session.test.ts, 409 OUTDATED_CONFIGURATION and CONFIGURATION_LOAD_REQUIRED in
 * configurations.test.ts.)
 */
import {describe, expect, it } from 'vitest';
import { errorCode, many, startHarness, uniqueName, VALID, useAdminSession } from './client.js';
import type { Client, Reply } from './client.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(Z|[+-]\d{2}:\d{2})$/;

function expectErrorDocument(reply: Reply, status: number, code: string): void {
  expect(reply.status).toBe(status);
  expect(String(reply.headers['content-type'])).toMatch(/^application\/json/);
  expect(reply.doc?.meta?.type).toBe('jsonapi.metadata.document');
  expect(reply.doc?.meta?.timestamp).toMatch(TIMESTAMP);
  expect(reply.doc?.data).toBeUndefined();
  expect(errorCode(reply)).toBe(code);
}

describe('errors', () => {
  let c: Client;
  useAdminSession((_harness, client) => {
    c = client;
  });

  it('an error document carries meta.type, meta.timestamp, a request id and errors[{code, status, title, detail}]', async () => {
    const reply = await c.call('GET', '/configuration/mappings/424242');
    expectErrorDocument(reply, 404, 'ENTITY_NOT_FOUND');
    expect(typeof reply.doc?.meta?.rid).toBe('string');
    const error = reply.doc?.errors?.[0];
    expect(String(error?.status)).toBe('404');
    expect(typeof error?.title).toBe('string');
    expect(typeof error?.detail).toBe('string');
  });

  describe('400 INVALID_REQUEST_FORMAT', () => {
    it('a body that is not JSON', async () => {
      const reply = await c.call('POST', '/configuration/back-end-groups', {
        raw: '{"data": {"type": "back-end-group", ',
        headers: { 'content-type': 'application/json' },
      });
      expectErrorDocument(reply, 400, 'INVALID_REQUEST_FORMAT');
    });

    it('a PATCH body that is not JSON', async () => {
      const id = await c.create('mapping', VALID.mapping(uniqueName('nojson')));
      const reply = await c.call('PATCH', `/configuration/mappings/${id}`, {
        raw: 'backendPath=/x/',
        headers: { 'content-type': 'application/json' },
      });
      expectErrorDocument(reply, 400, 'INVALID_REQUEST_FORMAT');
    });

    it.each([
      ['an empty body', ''],
      ['null', 'null'],
      ['an array', '[]'],
      ['a string', '"data"'],
    ])('a PATCH whose body is %s', async (_label, raw) => {
      const id = await c.create('mapping', VALID.mapping(uniqueName('badbody')));
      const reply = await c.call('PATCH', `/configuration/mappings/${id}`, { raw, headers: { 'content-type': 'application/json' } });
      expect(reply.status).toBe(400);
      expect(['INVALID_REQUEST_FORMAT', 'INVALID_VALUE']).toContain(errorCode(reply));
    });

    it('a create without a body', async () => {
      const reply = await c.call('POST', '/configuration/back-end-groups', { raw: '', headers: { 'content-type': 'application/json' } });
      expect(reply.status).toBe(400);
      expect(['INVALID_REQUEST_FORMAT', 'INVALID_VALUE']).toContain(errorCode(reply));
    });

    it('a create with a missing data.type', async () => {
      const reply = await c.call('POST', '/configuration/back-end-groups', { json: { data: { attributes: { name: 'x' } } } });
      expectErrorDocument(reply, 400, 'INVALID_REQUEST_FORMAT');
    });

    it('a create whose data.type is not the collection type', async () => {
      const name = uniqueName('wrongtype');
      const reply = await c.call('POST', '/configuration/back-end-groups', { json: { data: { type: 'mapping', attributes: { name } } } });
      expectErrorDocument(reply, 400, 'INVALID_REQUEST_FORMAT');
      expect(await c.list('mapping', `filter=name==${name}`)).toEqual([]);
      expect(await c.list('back-end-group', `filter=name==${name}`)).toEqual([]);
    });
  });

  describe('400 INVALID_VALUE', () => {
    it('a create with an unknown attribute, and nothing is created', async () => {
      const name = uniqueName('unknown');
      const reply = await c.call('POST', '/configuration/virtual-hosts', {
        json: { data: { type: 'virtual-host', attributes: { name, noSuchThing: 1 } } },
      });
      expectErrorDocument(reply, 400, 'INVALID_VALUE');
      expect(await c.list('virtual-host', `filter=name==${name}`)).toEqual([]);
    });

    it('a create with a wrong attribute type', async () => {
      const reply = await c.call('POST', '/configuration/back-end-groups', {
        json: { data: { type: 'back-end-group', attributes: { name: uniqueName('t'), backendHosts: [{ hostName: 'a', port: '80x' }] } } },
      });
      expectErrorDocument(reply, 400, 'INVALID_VALUE');
    });

    it('a create with a bad enum value', async () => {
      const reply = await c.call('POST', '/configuration/ssl-certificates', {
        json: { data: { type: 'ssl-certificate', attributes: { certType: 'ROOT_CERT' } } },
      });
      expectErrorDocument(reply, 400, 'INVALID_VALUE');
    });

    it('a PATCH with an unknown attribute', async () => {
      const id = await c.create('back-end-group', VALID.backEndGroup(uniqueName('p')));
      expectErrorDocument(await c.patch('back-end-group', id, { colour: 'red' }), 400, 'INVALID_VALUE');
    });

    it('a PATCH whose data.id disagrees with the path', async () => {
      const id = await c.create('back-end-group', VALID.backEndGroup(uniqueName('p')));
      const reply = await c.call('PATCH', `/configuration/back-end-groups/${id}`, {
        json: { data: { type: 'back-end-group', id: `${id}0`, attributes: { tenant: 't' } } },
      });
      expectErrorDocument(reply, 400, 'INVALID_VALUE');
    });
  });

  describe('404 ENTITY_NOT_FOUND', () => {
    it('a relationship call on an unknown object', async () => {
      const mapping = await c.create('mapping', VALID.mapping(uniqueName('rel404')));
      const reply = await c.relationship('PATCH', 'virtual-host', '777777', 'mappings', 'mapping', [mapping]);
      expectErrorDocument(reply, 404, 'ENTITY_NOT_FOUND');
    });

    it('a relationship call naming an unknown target, and no link is made', async () => {
      const vhost = await c.create('virtual-host', VALID.virtualHost(uniqueName('rel404')));
      const reply = await c.relationship('PATCH', 'virtual-host', vhost, 'mappings', 'mapping', ['777777']);
      expectErrorDocument(reply, 404, 'ENTITY_NOT_FOUND');
      expect((await c.read('virtual-host', vhost)).relationships?.mappings?.data).toEqual([]);
    });

    it('maintenance of an unknown virtual host', async () => {
      expectErrorDocument(await c.call('POST', '/configuration/virtual-hosts/777777/maintenance'), 404, 'ENTITY_NOT_FOUND');
    });
  });

  describe('409 DEFAULT_ENTITY_MODIFICATION (built-in entities, negative ids)', () => {
    const builtInId = async (): Promise<string> => {
      const reply = await c.call('GET', '/configuration/templates/mappings');
      const id = many(reply).find((t) => t.attributes.name === 'New_Mapping')?.id;
      if (id === undefined) throw new Error(`no New_Mapping template: ${reply.text}`);
      return id;
    };

    it('PATCH of a built-in mapping answers 409 DEFAULT_ENTITY_MODIFICATION', async () => {
      const id = await builtInId();
      const reply = await c.call('PATCH', `/configuration/mappings/${id}`, {
        json: { data: { type: 'mapping', id, attributes: { backendPath: '/x/' } } },
      });
      expectErrorDocument(reply, 409, 'DEFAULT_ENTITY_MODIFICATION');
    });

    it('DELETE of a built-in mapping answers 409 DEFAULT_ENTITY_MODIFICATION and the template remains', async () => {
      const id = await builtInId();
      expectErrorDocument(await c.call('DELETE', `/configuration/mappings/${id}`), 409, 'DEFAULT_ENTITY_MODIFICATION');
      expect(await builtInId()).toBe(id);
    });
  });

  it('409 appears only in later variants: on earliest a built-in entity modification is refused with 400 or 403', async () => {
    const early = await startHarness({ variant: 'earliest' });
    try {
      const e = await early.client().open(early.emulator.apiKey);
      const templates = await e.call('GET', '/configuration/templates/mappings');
      const id = many(templates).find((t) => t.attributes.name === 'New_Mapping')?.id ?? '-1';
      const reply = await e.call('PATCH', `/configuration/mappings/${id}`, {
        json: { data: { type: 'mapping', id, attributes: { backendPath: '/x/' } } },
      });
      expect([400, 403]).toContain(reply.status);
    } finally {
      await early.close();
    }
  });

  describe('415 unsupported payload format', () => {
    it('a create with Content-Type text/plain', async () => {
      const name = uniqueName('plain');
      const reply = await c.call('POST', '/configuration/back-end-groups', {
        raw: JSON.stringify({ data: { type: 'back-end-group', attributes: { name } } }),
        headers: { 'content-type': 'text/plain' },
      });
      expect(reply.status).toBe(415);
      expect(reply.doc?.errors?.length).toBeGreaterThan(0);
      expect(await c.list('back-end-group', `filter=name==${name}`)).toEqual([]);
    });

    it('a PATCH with Content-Type application/x-www-form-urlencoded', async () => {
      const id = await c.create('back-end-group', VALID.backEndGroup(uniqueName('form')));
      const reply = await c.call('PATCH', `/configuration/back-end-groups/${id}`, {
        raw: JSON.stringify({ data: { type: 'back-end-group', id, attributes: { tenant: 'x' } } }),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(reply.status).toBe(415);
    });

    it('a body with an unsupported Content-Encoding (the reference names it under 415)', async () => {
      const name = uniqueName('enc');
      const reply = await c.call('POST', '/configuration/back-end-groups', {
        raw: JSON.stringify({ data: { type: 'back-end-group', attributes: { name } } }),
        headers: { 'content-type': 'application/json', 'content-encoding': 'x-unsupported' },
      });
      expect(reply.status).toBe(415);
      expect(await c.list('back-end-group', `filter=name==${name}`)).toEqual([]);
    });

    it('application/json with a charset parameter is accepted', async () => {
      const reply = await c.call('POST', '/configuration/back-end-groups', {
        raw: JSON.stringify({ data: { type: 'back-end-group', attributes: VALID.backEndGroup(uniqueName('cs')) } }),
        headers: { 'content-type': 'application/json; charset=UTF-8' },
      });
      expect(reply.status).toBe(201);
    });

    it('application/vnd.api+json is accepted', async () => {
      const reply = await c.call('POST', '/configuration/back-end-groups', {
        raw: JSON.stringify({ data: { type: 'back-end-group', attributes: VALID.backEndGroup(uniqueName('vnd')) } }),
        headers: { 'content-type': 'application/vnd.api+json' },
      });
      expect(reply.status).toBe(201);
    });
  });
});
