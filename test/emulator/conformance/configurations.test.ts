/**
 * Configurations: docs/gateway-api.md "Configurations and activation" (one test per row of its
 * table, the activation rules), and the concurrency case (OUTDATED_CONFIGURATION).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KINDS } from '../../../src/kinds/index.js';
import { at, errorCode, many, one, startHarness, uniqueName, VALID } from './client.js';
import type { Harness, ResourceObject } from './client.js';

/** docs/gateway-api.md "Documents and ids": response timestamps use `yyyy-MM-dd'T'HH:mm:ss.SSSXXX`. */
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(Z|[+-]\d{2}:\d{2})$/;

async function configurations(h: Harness): Promise<ResourceObject[]> {
  const c = h.client();
  await c.createSession(h.emulator.apiKey);
  const reply = await c.call('GET', '/configuration/configurations');
  expect(reply.status).toBe(200);
  await c.terminate();
  return many(reply);
}

describe('configurations', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('GET /configuration/configurations works before a load and lists typed entries', async () => {
    const c = h.client();
    await c.createSession(h.emulator.apiKey);
    const reply = await c.call('GET', '/configuration/configurations');
    expect(reply.status).toBe(200);
    const list = many(reply);
    expect(list.length).toBeGreaterThan(0);
    for (const entry of list) {
      expect(entry.type).toBe('configuration');
      expect(entry.id).toMatch(/^-?\d+$/);
      expect(typeof entry.attributes.configType).toBe('string');
      expect(String(entry.attributes.createdAt)).toMatch(ISO);
    }
    expect(list.filter((e) => e.attributes.configType === 'CURRENTLY_ACTIVE')).toHaveLength(1);
  });

  it('POST load-active answers 204 with no body, and the working copy holds the active objects', async () => {
    const admin = await h.client().open(h.emulator.apiKey);
    await admin.create('back-end-group', VALID.backEndGroup('active-one'));
    expect((await admin.activate('one group')).status).toBe(200);

    const c = h.client();
    await c.createSession(h.emulator.apiKey);
    const reply = await c.call('POST', '/configuration/configurations/load-active');
    expect(reply.status).toBe(204);
    expect(reply.text).toBe('');
    expect((await c.list('back-end-group')).map((g) => g.attributes.name)).toEqual(['active-one']);
  });

  it('each session edits its own working copy until activation', async () => {
    const a = await h.client().open(h.emulator.apiKey);
    const b = await h.client().open(h.emulator.apiKey);
    await a.create('back-end-group', VALID.backEndGroup('only-in-a'));
    expect(await b.list('back-end-group', 'filter=name==only-in-a')).toEqual([]);
    expect((await a.list('back-end-group', 'filter=name==only-in-a')).length).toBe(1);
    // a fresh load of the active configuration does not see it either
    const c = await h.client().open(h.emulator.apiKey);
    expect(await c.list('back-end-group', 'filter=name==only-in-a')).toEqual([]);
  });

  it('POST activate answers 200, stores comment, createdAt and createdBy, and makes the copy active', async () => {
    const c = await h.client().open(h.emulator.apiKey);
    await c.create('back-end-group', VALID.backEndGroup('activated-group'));
    const reply = await c.activate('deploy abc123');
    expect(reply.status).toBe(200);

    const list = await configurations(h);
    const active = list.filter((e) => e.attributes.configType === 'CURRENTLY_ACTIVE');
    expect(active).toHaveLength(1);
    expect(list[0]?.id).toBe(active[0]?.id); // newest first
    expect(active[0]?.attributes.comment).toBe('deploy abc123');
    expect(String(active[0]?.attributes.createdAt)).toMatch(ISO);
    expect(typeof active[0]?.attributes.createdBy).toBe('string');
    expect(JSON.stringify(h.emulator.activeSnapshot())).toContain('deploy abc123');

    const d = await h.client().open(h.emulator.apiKey);
    expect((await d.list('back-end-group')).map((g) => g.attributes.name)).toEqual(['activated-group']);
  });

  it('POST activate without a body is accepted (body optional)', async () => {
    const c = await h.client().open(h.emulator.apiKey);
    await c.create('back-end-group', VALID.backEndGroup('no-comment'));
    const reply = await c.call('POST', '/configuration/configurations/activate');
    expect(reply.status).toBe(200);
    const d = await h.client().open(h.emulator.apiKey);
    expect((await d.list('back-end-group')).map((g) => g.attributes.name)).toEqual(['no-comment']);
  });

  it('configurations are listed newest first', async () => {
    const c = await h.client().open(h.emulator.apiKey);
    await c.create('back-end-group', VALID.backEndGroup('g1'));
    expect((await c.activate('first')).status).toBe(200);
    const d = await h.client().open(h.emulator.apiKey);
    await d.create('back-end-group', VALID.backEndGroup('g2'));
    expect((await d.activate('second')).status).toBe(200);
    const list = await configurations(h);
    const comments = list.map((e) => e.attributes.comment);
    expect(comments.indexOf('second')).toBeLessThan(comments.indexOf('first'));
    expect(comments.indexOf('second')).toBe(0);
    const times = list.map((e) => Date.parse(String(e.attributes.createdAt)));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
  });

  it('POST save answers 200 with data.id of the new saved configuration, listed with its comment', async () => {
    const c = await h.client().open(h.emulator.apiKey);
    await c.create('back-end-group', VALID.backEndGroup('saved-group'));
    const reply = await c.call('POST', '/configuration/configurations/save', { json: { comment: 'work in progress' } });
    expect(reply.status).toBe(200);
    const id = one(reply).id;
    expect(typeof id).toBe('string');
    const entry = (await configurations(h)).find((e) => e.id === id);
    expect(entry?.attributes.comment).toBe('work in progress');
    expect(entry?.attributes.configType).not.toBe('CURRENTLY_ACTIVE');
    // saving does not activate
    const d = await h.client().open(h.emulator.apiKey);
    expect(await d.list('back-end-group', 'filter=name==saved-group')).toEqual([]);
  });

  it('POST save without a body is accepted', async () => {
    const c = await h.client().open(h.emulator.apiKey);
    const reply = await c.call('POST', '/configuration/configurations/save');
    expect(reply.status).toBe(200);
    expect(one(reply).id).toMatch(/^-?\d+$/);
  });

  it('POST save without a loaded configuration answers 400', async () => {
    const c = h.client();
    await c.createSession(h.emulator.apiKey);
    const reply = await c.call('POST', '/configuration/configurations/save', { json: { comment: 'x' } });
    expect(reply.status).toBe(400);
    expect(errorCode(reply)).toBe('CONFIGURATION_LOAD_REQUIRED');
  });

  it.each([
    ['a hostname body', { json: { hostname: 'gw.example.com' } }],
    ['an empty object', { json: {} }],
    ['an empty body', { raw: '', headers: { 'content-type': 'application/json' } }],
    ['no body', {}],
  ] as const)('POST /configurations/{id}/load with %s answers 204 and loads that configuration', async (_label, options) => {
    const c = await h.client().open(h.emulator.apiKey);
    await c.create('back-end-group', VALID.backEndGroup('in-saved'));
    const id = one(await c.call('POST', '/configuration/configurations/save', { json: { comment: 's' } })).id;

    const d = h.client();
    await d.createSession(h.emulator.apiKey);
    const reply = await d.call('POST', `/configuration/configurations/${id}/load`, options);
    expect(reply.status).toBe(204);
    expect((await d.list('back-end-group')).map((g) => g.attributes.name)).toEqual(['in-saved']);
  });

  it('POST /configurations/{id}/load of an unknown id answers 404', async () => {
    const c = h.client();
    await c.createSession(h.emulator.apiKey);
    const reply = await c.call('POST', '/configuration/configurations/987654/load', { json: {} });
    expect(reply.status).toBe(404);
    expect(errorCode(reply)).toBe('ENTITY_NOT_FOUND');
  });

  it('POST load-empty-config answers 204 and gives a working copy holding only the built-ins', async () => {
    const admin = await h.client().open(h.emulator.apiKey);
    await admin.create('back-end-group', VALID.backEndGroup('not-in-empty'));
    expect((await admin.activate('has a group')).status).toBe(200);

    const c = h.client();
    await c.createSession(h.emulator.apiKey);
    const reply = await c.call('POST', '/configuration/configurations/load-empty-config', { json: { hostname: 'gw' } });
    expect(reply.status).toBe(204);
    // A singleton has no list (its one object is at its path: resources.test.ts).
    for (const { type } of KINDS.filter((k) => !k.singleton)) {
      expect((await c.list(type)).filter((o) => !o.id.startsWith('-'))).toEqual([]);
    }
    expect((await c.list('virtual-host')).map((o) => o.id)).toEqual(['-1000']);
  });

  it('DELETE /configurations/{id} answers 204 and removes the entry', async () => {
    const c = await h.client().open(h.emulator.apiKey);
    const id = one(await c.call('POST', '/configuration/configurations/save', { json: { comment: 'to delete' } })).id;
    expect((await configurations(h)).map((e) => e.id)).toContain(id);
    const reply = await c.call('DELETE', `/configuration/configurations/${id}`);
    expect(reply.status).toBe(204);
    expect((await configurations(h)).map((e) => e.id)).not.toContain(id);
    const d = h.client();
    await d.createSession(h.emulator.apiKey);
    expect((await d.call('POST', `/configuration/configurations/${id}/load`)).status).toBe(404);
  });

  it("a community client's configuration delete (DELETE through its object, then the same DELETE again) sees 204, then 404: the entry is gone", async () => {
    const c = await h.client().open(h.emulator.apiKey);
    const id = one(await c.call('POST', '/configuration/configurations/save', { json: { comment: 'deleted twice' } })).id;
    // The client connects with load-empty-config and deletes from that session.
    const d = h.client();
    await d.createSession(h.emulator.apiKey);
    expect((await d.call('POST', '/configuration/configurations/load-empty-config', { json: {} })).status).toBe(204);
    expect((await d.call('DELETE', `/configuration/configurations/${id}`)).status).toBe(204);
    const again = await d.call('DELETE', `/configuration/configurations/${id}`);
    expect([again.status, again.doc?.errors?.[0]?.code]).toEqual([404, 'ENTITY_NOT_FOUND']);
    expect((await d.call('GET', `/configuration/configurations/${id}`)).status).toBe(404);
    expect((await configurations(h)).map((e) => e.id)).not.toContain(id);
  });

  it('GET /configuration/configurations/export answers 200 with a zip', async () => {
    const c = await h.client().open(h.emulator.apiKey);
    const reply = await c.call('GET', '/configuration/configurations/export');
    expect(reply.status).toBe(200);
    expect(String(reply.headers['content-type'])).toMatch(/zip|octet-stream/);
    expect(reply.raw.subarray(0, 2).toString('latin1')).toBe('PK');
  });

  it('GET /configuration/configurations/{id}/export answers 200 with a zip', async () => {
    const c = await h.client().open(h.emulator.apiKey);
    const id = one(await c.call('POST', '/configuration/configurations/save', { json: { comment: 'to export' } })).id;
    const reply = await c.call('GET', `/configuration/configurations/${id}/export`);
    expect(reply.status).toBe(200);
    expect(reply.raw.subarray(0, 2).toString('latin1')).toBe('PK');
  });

  it('PUT /configuration/configurations/import of an exported zip answers 200', async () => {
    const c = await h.client().open(h.emulator.apiKey);
    await c.create('back-end-group', VALID.backEndGroup('exported'));
    const exported = await c.call('GET', '/configuration/configurations/export');
    expect(exported.status).toBe(200);
    const d = h.client();
    await d.createSession(h.emulator.apiKey);
    const reply = await d.call('PUT', '/configuration/configurations/import', {
      raw: exported.raw,
      headers: { 'content-type': 'application/zip' },
    });
    expect(reply.status).toBe(200);
    expect((await d.list('back-end-group')).map((g) => g.attributes.name)).toEqual(['exported']);
  });
});

describe('import errors', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('an upload that is not a zip answers 400 INVALID_REQUEST_FORMAT and loads nothing', async () => {
    const c = await h.client().open(h.emulator.apiKey);
    await c.create('back-end-group', VALID.backEndGroup('kept'));
    const reply = await c.call('PUT', '/configuration/configurations/import', {
      raw: Buffer.from('this is not an archive'),
      headers: { 'content-type': 'application/zip' },
    });
    expect(reply.status).toBe(400);
    expect(errorCode(reply)).toBe('INVALID_REQUEST_FORMAT');
    expect((await c.list('back-end-group')).map((g) => g.attributes.name)).toEqual(['kept']);
  });

  it('an upload with a Content-Type that is not an archive answers 415', async () => {
    const c = await h.client().open(h.emulator.apiKey);
    const exported = await c.call('GET', '/configuration/configurations/export');
    const reply = await c.call('PUT', '/configuration/configurations/import', { raw: exported.raw, headers: { 'content-type': 'text/plain' } });
    expect(reply.status).toBe(415);
  });
});

describe('CONFIGURATION_LOAD_REQUIRED before a load', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const calls: [string, 'GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown][] = [
    ['list mappings', 'GET', '/configuration/mappings', undefined],
    ['list virtual hosts', 'GET', '/configuration/virtual-hosts', undefined],
    ['list back-end groups', 'GET', '/configuration/back-end-groups', undefined],
    ['list ssl certificates', 'GET', '/configuration/ssl-certificates', undefined],
    ['read one', 'GET', '/configuration/virtual-hosts/1', undefined],
    ['create', 'POST', '/configuration/back-end-groups', { data: { type: 'back-end-group', attributes: { name: 'x' } } }],
    ['update', 'PATCH', '/configuration/mappings/1', { data: { type: 'mapping', id: '1', attributes: { name: 'y' } } }],
    ['delete', 'DELETE', '/configuration/mappings/1', undefined],
    ['link', 'PATCH', '/configuration/virtual-hosts/1/relationships/mappings', { data: [{ type: 'mapping', id: '2' }] }],
    ['unlink', 'DELETE', '/configuration/mappings/1/relationships/back-end-groups', { data: [{ type: 'back-end-group', id: '2' }] }],
    ['maintenance', 'POST', '/configuration/virtual-hosts/1/maintenance', undefined],
    ['list templates', 'GET', '/configuration/templates/mappings', undefined],
    ['save', 'POST', '/configuration/configurations/save', { comment: 'x' }],
    ['validator messages', 'GET', '/configuration/validator-messages', undefined],
    ['activate', 'POST', '/configuration/configurations/activate', { comment: 'x' }],
  ];

  it.each(calls)('%s answers 400 CONFIGURATION_LOAD_REQUIRED', async (_label, method, path, body) => {
    const c = h.client();
    await c.createSession(h.emulator.apiKey);
    const reply = await c.call(method, path, body === undefined ? {} : { json: body });
    expect(reply.status).toBe(400);
    expect(errorCode(reply)).toBe('CONFIGURATION_LOAD_REQUIRED');
    expect(reply.doc?.meta?.type).toBe('jsonapi.metadata.document');
  });

  it('after a load the same session is served', async () => {
    const c = h.client();
    await c.createSession(h.emulator.apiKey);
    expect(errorCode(await c.call('GET', '/configuration/mappings'))).toBe('CONFIGURATION_LOAD_REQUIRED');
    expect((await c.call('POST', '/configuration/configurations/load-active')).status).toBe(204);
    expect((await c.call('GET', '/configuration/mappings')).status).toBe(200);
  });
});

describe('concurrent activation (docs/gateway-api.md "Configurations and activation")', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('the second session activating after the first answers 409 OUTDATED_CONFIGURATION and changes nothing', async () => {
    const a = await h.client().open(h.emulator.apiKey);
    const b = await h.client().open(h.emulator.apiKey);
    await a.create('back-end-group', VALID.backEndGroup('from-a'));
    await b.create('back-end-group', VALID.backEndGroup('from-b'));

    expect((await a.activate('a wins')).status).toBe(200);
    const afterA = JSON.stringify(h.emulator.activeSnapshot());

    const reply = await b.activate('b is outdated');
    expect(reply.status).toBe(409);
    expect(errorCode(reply)).toBe('OUTDATED_CONFIGURATION');
    expect(JSON.stringify(h.emulator.activeSnapshot())).toBe(afterA);
    const c = await h.client().open(h.emulator.apiKey);
    expect((await c.list('back-end-group')).map((g) => g.attributes.name)).toEqual(['from-a']);
    // the refused session keeps its working copy
    expect((await b.list('back-end-group')).map((g) => g.attributes.name)).toEqual(['from-b']);
  });

  it('with options.ignoreOutdatedConfiguration the second activation succeeds and replaces the active copy', async () => {
    const a = await h.client().open(h.emulator.apiKey);
    const b = await h.client().open(h.emulator.apiKey);
    await a.create('back-end-group', VALID.backEndGroup('from-a'));
    await b.create('back-end-group', VALID.backEndGroup('from-b'));
    expect((await a.activate('a')).status).toBe(200);
    expect((await b.activate('b', { ignoreOutdatedConfiguration: false })).status).toBe(409);
    const reply = await b.activate('b forced', { ignoreOutdatedConfiguration: true });
    expect(reply.status).toBe(200);
    const c = await h.client().open(h.emulator.apiKey);
    expect((await c.list('back-end-group')).map((g) => g.attributes.name)).toEqual(['from-b']);
    const list = await configurations(h);
    expect(list[0]?.attributes.comment).toBe('b forced');
    expect(list[0]?.attributes.configType).toBe('CURRENTLY_ACTIVE');
  });

  it('options.ignoreOutdatedConfiguration as the string "true" is honoured (string booleans)', async () => {
    const a = await h.client().open(h.emulator.apiKey);
    const b = await h.client().open(h.emulator.apiKey);
    await a.create('back-end-group', VALID.backEndGroup('from-a'));
    await b.create('back-end-group', VALID.backEndGroup('from-b'));
    expect((await a.activate('a')).status).toBe(200);
    expect((await b.activate('b', { ignoreOutdatedConfiguration: 'true' })).status).toBe(200);
  });

  it('another session saving (not activating) does not make this session outdated', async () => {
    const a = await h.client().open(h.emulator.apiKey);
    const b = await h.client().open(h.emulator.apiKey);
    await a.create('back-end-group', VALID.backEndGroup('saved-by-a'));
    expect((await a.call('POST', '/configuration/configurations/save', { json: { comment: 'a saves' } })).status).toBe(200);
    await b.create('back-end-group', VALID.backEndGroup('from-b'));
    expect((await b.activate('b activates')).status).toBe(200);
    // and now a is outdated
    expect(errorCode(await a.activate('a too late'))).toBe('OUTDATED_CONFIGURATION');
  });

  it('reloading after another activation makes activation possible again', async () => {
    const a = await h.client().open(h.emulator.apiKey);
    const b = await h.client().open(h.emulator.apiKey);
    await a.create('back-end-group', VALID.backEndGroup('from-a'));
    expect((await a.activate('a')).status).toBe(200);
    expect((await b.call('POST', '/configuration/configurations/load-active')).status).toBe(204);
    await b.create('back-end-group', VALID.backEndGroup('from-b'));
    expect((await b.activate('b after reload')).status).toBe(200);
    const c = await h.client().open(h.emulator.apiKey);
    expect((await c.list('back-end-group')).map((g) => g.attributes.name).sort()).toEqual(['from-a', 'from-b']);
  });

  it('a session activating twice in a row is not outdated by its own activation', async () => {
    const a = await h.client().open(h.emulator.apiKey);
    await a.create('back-end-group', VALID.backEndGroup(uniqueName('twice')));
    expect((await a.activate('first')).status).toBe(200);
    await a.create('back-end-group', VALID.backEndGroup(uniqueName('twice')));
    const second = await a.activate('second');
    expect(second.status).toBe(200);
    expect(at(h.emulator.activeSnapshot(), 'comment')).toBe('second');
  });
});
