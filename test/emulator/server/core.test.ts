import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/emulator/index.js';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { Client, data, errorCode, list, useEmulator } from './helpers.js';

let emulator: RunningEmulator;
const suite = useEmulator((e) => (emulator = e));
function client(key?: string): Client {
  return suite.client(key);
}

describe('sessions', () => {
  it('creates a session with the bearer key and refuses a wrong one', async () => {
    const bad = client('nope');
    expect((await bad.login()).status).toBe(401);
    const c = client();
    const answer = await c.login();
    expect(answer.status).toBe(200);
    expect(c.cookie).toMatch(/^JSESSIONID=[0-9A-F]{32}$/);
    expect(String(answer.headers['set-cookie'])).toContain('HttpOnly');
  });

  it('authenticates later calls by cookie only, tolerating a copied Set-Cookie value and a Bearer beside it', async () => {
    const c = client();
    await c.login();
    const id = String(c.cookie);
    const full = await c.call('GET', '/configuration/configurations', { headers: { cookie: `${id}; Path=/; Secure; HttpOnly` } });
    expect(full.status).toBe(200);
    const both = await c.call('GET', '/system/status/node', { headers: { authorization: 'Bearer whatever' } });
    expect(both.status).toBe(200);
    expect((data(both).attributes as { version: string }).version).toBe('8.6');
    const none = await c.call('GET', '/configuration/configurations', { headers: { cookie: 'JSESSIONID=ABC' } });
    expect(none.status).toBe(401);
  });

  it('ends a session on terminate', async () => {
    const c = client();
    await c.login();
    expect((await c.call('POST', '/session/terminate')).status).toBe(200);
    expect((await c.call('GET', '/configuration/configurations')).status).toBe(401);
  });

  it('answers CONFIGURATION_LOAD_REQUIRED before a load, except for the configuration list', async () => {
    const c = client();
    await c.login();
    const before = await c.call('GET', '/configuration/mappings');
    expect(before.status).toBe(400);
    expect(errorCode(before)).toBe('CONFIGURATION_LOAD_REQUIRED');
    const save = await c.call('POST', '/configuration/configurations/save');
    expect(save.status).toBe(400);
    const configs = await c.call('GET', '/configuration/configurations');
    expect(list(configs)[0]?.type).toBe('configuration');
  });

  it('gives a read-only key 403 on modifying calls but lets it read', async () => {
    const c = client(emulator.readOnlyApiKey);
    await c.start();
    expect((await c.call('GET', '/configuration/mappings')).status).toBe(200);
    const post = await c.call('POST', '/configuration/mappings', { body: { data: { type: 'mapping', attributes: { name: 'x' } } } });
    expect(post.status).toBe(403);
    expect((await c.call('POST', '/configuration/configurations/activate')).status).toBe(403);
  });
});

describe('resources', () => {
  it('creates, reads, patches, filters and deletes', async () => {
    const c = client();
    await c.start();
    const created = await c.call('POST', '/configuration/mappings', {
      body: { data: { type: 'mapping', attributes: { name: 'shop-a', labels: ['team-a'] } } },
    });
    expect(created.status).toBe(201);
    const id = data(created).id as string;
    expect(id).toMatch(/^\d+$/);
    await c.call('POST', '/configuration/mappings', { body: { data: { type: 'mapping', attributes: { name: 'other' } } } });

    const read = await c.call('GET', `/configuration/mappings/${id}`);
    expect((data(read).attributes as { name: string }).name).toBe('shop-a');

    const patched = await c.call('PATCH', `/configuration/mappings/${id}`, {
      body: { data: { type: 'mapping', id, attributes: { backendPath: '/x/' } } },
    });
    expect(patched.status).toBe(200);
    expect(data(patched).attributes).toMatchObject({ name: 'shop-a', backendPath: '/x/' });

    const byLabel = await c.call('GET', '/configuration/mappings?filter=label==team-a');
    expect(list(byLabel).map((m) => m.id)).toEqual([id]);
    const encoded = await c.call('GET', `/configuration/mappings?filter=${encodeURIComponent('name=@sho')}`);
    expect(list(encoded).map((m) => m.id)).toEqual([id]);

    expect((await c.call('DELETE', `/configuration/mappings/${id}`)).status).toBe(204);
    const gone = await c.call('GET', `/configuration/mappings/${id}`);
    expect(gone.status).toBe(404);
    expect(errorCode(gone)).toBe('ENTITY_NOT_FOUND');
  });

  it('applies the PATCH rules', async () => {
    const c = client();
    await c.start();
    const id = data(await c.call('POST', '/configuration/back-end-groups', { body: { data: { type: 'back-end-group', attributes: { name: 'b' } } } })).id as string;
    const wrongType = await c.call('PATCH', `/configuration/back-end-groups/${id}`, { body: { data: { type: 'mapping', id, attributes: { name: 'c' } } } });
    expect([wrongType.status, errorCode(wrongType)]).toEqual([400, 'INVALID_REQUEST_FORMAT']);
    const empty = await c.call('PATCH', `/configuration/back-end-groups/${id}`, { body: { data: { type: 'back-end-group', id, attributes: {} } } });
    expect([empty.status, errorCode(empty)]).toEqual([400, 'INVALID_VALUE']);
    const otherId = await c.call('PATCH', `/configuration/back-end-groups/${id}`, { body: { data: { type: 'back-end-group', id: '999', attributes: { name: 'c' } } } });
    expect([otherId.status, errorCode(otherId)]).toEqual([400, 'INVALID_VALUE']);
    const notJson = await c.call('PATCH', `/configuration/back-end-groups/${id}`, { raw: '{nope', headers: { 'content-type': 'application/json' } });
    expect([notJson.status, errorCode(notJson)]).toEqual([400, 'INVALID_REQUEST_FORMAT']);
    const wrongMedia = await c.call('PATCH', `/configuration/back-end-groups/${id}`, { raw: '{}', headers: { 'content-type': 'text/plain' } });
    expect(wrongMedia.status).toBe(415);
    const missing = await c.call('PATCH', '/configuration/back-end-groups/4242', { body: { data: { type: 'back-end-group', id: '4242', attributes: { name: 'c' } } } });
    expect([missing.status, errorCode(missing)]).toEqual([404, 'ENTITY_NOT_FOUND']);
  });

  it('tolerates double slashes and body-less POSTs in every form', async () => {
    const c = client();
    await c.login();
    for (const raw of [undefined, '', 'null', '{}']) {
      const answer = await c.call('POST', '//configuration/configurations/load-active', raw === undefined ? {} : { raw, headers: { 'content-type': 'application/json' } });
      expect(answer.status).toBe(204);
    }
  });
});

describe('relationships', () => {
  it('shows a link made from one side on both objects and removes links of deleted objects', async () => {
    const c = client();
    await c.start();
    const vh = data(await c.call('POST', '/configuration/virtual-hosts', { body: { data: { type: 'virtual-host', attributes: { name: 'vh' } } } })).id as string;
    const m = data(await c.call('POST', '/configuration/mappings', { body: { data: { type: 'mapping', attributes: { name: 'm' } } } })).id as string;
    const linked = await c.call('PATCH', `/configuration/virtual-hosts/${vh}/relationships/mappings`, { body: { data: [{ type: 'mapping', id: Number(m) }] } });
    expect(linked.status).toBe(204);
    const mapping = data(await c.call('GET', `/configuration/mappings/${m}`));
    expect(mapping.relationships).toMatchObject({ 'virtual-hosts': { data: [{ type: 'virtual-host', id: vh }] } });

    const unlinked = await c.call('DELETE', `/configuration/mappings/${m}/relationships/virtual-hosts`, { body: { data: [{ type: 'virtual-host', id: vh }] } });
    expect(unlinked.status).toBe(204);
    const host = data(await c.call('GET', `/configuration/virtual-hosts/${vh}`));
    expect(host.relationships).toMatchObject({ mappings: { data: [] } });

    await c.call('PATCH', `/configuration/virtual-hosts/${vh}/relationships/mappings`, { body: { data: [{ type: 'mapping', id: m }] } });
    await c.call('DELETE', `/configuration/mappings/${m}`);
    const after = data(await c.call('GET', `/configuration/virtual-hosts/${vh}`));
    expect(after.relationships).toMatchObject({ mappings: { data: [] } });
  });

  it('replaces a to-one link', async () => {
    const c = client();
    await c.start();
    const vh = data(await c.call('POST', '/configuration/virtual-hosts', { body: { data: { type: 'virtual-host', attributes: { name: 'vh2' } } } })).id as string;
    const certs: string[] = [];
    for (let i = 0; i < 2; i++) {
      certs.push(data(await c.call('POST', '/configuration/ssl-certificates', { body: { data: { type: 'ssl-certificate', attributes: { certType: 'SERVER_CERT', privateKey: 'secret', passphrase: 'pass' } } } })).id as string);
    }
    for (const cert of certs) {
      await c.call('PATCH', `/configuration/virtual-hosts/${vh}/relationships/ssl-certificate`, { body: { data: { type: 'ssl-certificate', id: cert } } });
    }
    const host = data(await c.call('GET', `/configuration/virtual-hosts/${vh}`));
    expect(host.relationships).toMatchObject({ 'ssl-certificate': { data: { type: 'ssl-certificate', id: certs[1] } } });
    const first = data(await c.call('GET', `/configuration/ssl-certificates/${certs[0]}`));
    expect(first.relationships).toMatchObject({ 'virtual-hosts': { data: [] } });
    expect(first.attributes).not.toHaveProperty('passphrase');
    expect(first.attributes).toHaveProperty('privateKey', 'secret');
  });
});

describe('unmanaged relationships', () => {
  it("serves a back-end group's client-certificate link on both sides", async () => {
    const c = client();
    await c.start();
    const group = data(await c.call('POST', '/configuration/back-end-groups', { body: { data: { type: 'back-end-group', attributes: { name: 'cc' } } } })).id as string;
    const cert = data(await c.call('POST', '/configuration/ssl-certificates', { body: { data: { type: 'ssl-certificate', attributes: { certType: 'CLIENT_CERT' } } } })).id as string;
    const linked = await c.call('PATCH', `/configuration/back-end-groups/${group}/relationships/client-certificate`, { body: { data: { type: 'ssl-certificate', id: cert } } });
    expect(linked.status).toBe(204);
    expect(data(await c.call('GET', `/configuration/ssl-certificates/${cert}`)).relationships).toMatchObject({
      'back-end-groups': { data: [{ type: 'back-end-group', id: group }] },
    });
    await c.call('DELETE', `/configuration/ssl-certificates/${cert}`);
    const relationships = data(await c.call('GET', `/configuration/back-end-groups/${group}`)).relationships as Record<string, unknown>;
    expect(relationships).toMatchObject({ mappings: { data: [] } });
    expect(Object.keys(relationships)).not.toContain('client-certificate');
  });
});

describe('configurations', () => {
  it('activates with a comment and refuses an outdated activation', async () => {
    const a = client();
    const b = client();
    await a.start();
    await b.start();
    const group = await a.call('POST', '/configuration/back-end-groups', { body: { data: { type: 'back-end-group', attributes: { name: 'from-a' } } } });
    const groupId = data(group).id as string;
    const refused = await a.call('POST', '/configuration/configurations/activate', { body: { comment: 'no hosts' } });
    expect([refused.status, errorCode(refused)]).toEqual([400, 'VALIDATION_FAILED']);
    const errorsOnly = list(await a.call('GET', '/configuration/validator-messages?filter=meta.severity%3D%3DERROR'));
    expect(errorsOnly.map((m) => (m.attributes as { meta: { model: unknown } }).meta.model)).toEqual([{ type: 'back-end-group', id: groupId }]);
    expect(errorsOnly[0]?.meta).toMatchObject({ severity: 'ERROR' });
    await a.call('PATCH', `/configuration/back-end-groups/${groupId}`, {
      body: { data: { type: 'back-end-group', id: groupId, attributes: { backendHosts: [{ protocol: 'HTTP', hostName: 'app', port: 8080 }] } } },
    });
    const filled = data(await a.call('GET', `/configuration/back-end-groups/${groupId}`));
    expect((filled.attributes as { backendHosts: unknown[] }).backendHosts[0]).toMatchObject({ mode: 'ENABLED', spare: false, weight: 100 });
    const ok = await a.call('POST', '/configuration/configurations/activate', { body: { comment: 'first' } });
    expect(ok.status).toBe(200);
    const outdated = await b.call('POST', '/configuration/configurations/activate', { body: { comment: 'second' } });
    expect([outdated.status, errorCode(outdated)]).toEqual([409, 'OUTDATED_CONFIGURATION']);
    const forced = await b.call('POST', '/configuration/configurations/activate', { body: { comment: 'second', options: { ignoreOutdatedConfiguration: true } } });
    expect(forced.status).toBe(200);

    const configs = list(await a.call('GET', '/configuration/configurations'));
    expect(configs[0]?.attributes).toMatchObject({ configType: 'CURRENTLY_ACTIVE', comment: 'second', createdBy: 'admin' });
    expect(configs[1]?.attributes).toMatchObject({ configType: 'PREVIOUSLY_ACTIVE', comment: 'first' });
    const activeId = configs[0]?.id as string;
    const del = await a.call('DELETE', `/configuration/configurations/${activeId}`);
    expect(del.status).toBe(409);
  });

  it('saves, loads by id and deletes a saved configuration', async () => {
    const c = client();
    await c.start();
    await c.call('POST', '/configuration/back-end-groups', { body: { data: { type: 'back-end-group', attributes: { name: 'saved-one' } } } });
    const saved = await c.call('POST', '/configuration/configurations/save', { body: { comment: 'keep' } });
    expect(saved.status).toBe(200);
    const id = data(saved).id as string;
    const other = client();
    await other.login();
    expect((await other.call('POST', `/configuration/configurations/${id}/load`, { body: {} })).status).toBe(204);
    const groups = list(await other.call('GET', '/configuration/back-end-groups?filter=name==saved-one'));
    expect(groups).toHaveLength(1);
    expect((await other.call('POST', '/configuration/configurations/999/load')).status).toBe(404);
    expect((await other.call('DELETE', `/configuration/configurations/${id}`)).status).toBe(204);
  });
});

describe('request log', () => {
  it('records method, path, status and no secrets', async () => {
    emulator.requestLog.length = 0;
    const c = client();
    await c.login();
    await c.call('GET', '/configuration/mappings');
    expect(emulator.requestLog.map((e) => [e.method, e.path, e.status])).toEqual([
      ['POST', '/session/create', 200],
      ['GET', '/configuration/mappings', 400],
    ]);
    expect(JSON.stringify(emulator.requestLog)).not.toContain(emulator.apiKey);
  });
});

describe('built-in entities and unique names', () => {
  it('refuses a second mapping with the same name, on create and on rename', async () => {
    const c = client();
    await c.start();
    await c.call('POST', '/configuration/mappings', { body: { data: { type: 'mapping', attributes: { name: 'dup' } } } });
    const again = await c.call('POST', '/configuration/mappings', { body: { data: { type: 'mapping', attributes: { name: 'dup' } } } });
    expect([again.status, errorCode(again)]).toEqual([400, 'INVALID_VALUE']);
    const other = data(await c.call('POST', '/configuration/mappings', { body: { data: { type: 'mapping', attributes: { name: 'dup-2' } } } })).id as string;
    const rename = await c.call('PATCH', `/configuration/mappings/${other}`, { body: { data: { type: 'mapping', id: other, attributes: { name: 'dup' } } } });
    expect(rename.status).toBe(400);
    const same = await c.call('PATCH', `/configuration/mappings/${other}`, { body: { data: { type: 'mapping', id: other, attributes: { name: 'dup-2' } } } });
    expect(same.status).toBe(200);
  });

  it('answers 409 for built-in entities, but 400 on the earliest variant (409 is later-only)', async () => {
    const body = { data: { type: 'mapping', id: '-1000', attributes: { backendPath: '/x/' } } };
    const c = client();
    await c.start();
    const latest = await c.call('PATCH', '/configuration/mappings/-1000', { body });
    expect([latest.status, errorCode(latest)]).toEqual([409, 'DEFAULT_ENTITY_MODIFICATION']);
    const early = await startEmulator({ port: 0, tls: false, variant: 'earliest' });
    try {
      const e = new Client(early);
      await e.start();
      const answer = await e.call('PATCH', '/configuration/mappings/-1000', { body });
      expect([answer.status, errorCode(answer)]).toEqual([400, 'DEFAULT_ENTITY_MODIFICATION']);
      expect((data(await e.call('GET', '/system/status/node')).attributes as { version: string }).version).toBe('7.8');
      expect((await e.call('GET', '/configuration/acme-services')).status).toBe(404);
      await e.close();
    } finally {
      await early.close();
    }
  });
});

describe('routing', () => {
  it('answers 404 for unknown paths and paths outside the base path, 405 for a wrong method', async () => {
    const c = client();
    await c.start();
    expect((await c.call('GET', '/configuration/no-such-things')).status).toBe(404);
    expect((await c.call('GET', '/configuration/acme-services')).status).toBe(200);
    const wrongMethod = await c.call('PUT', '/configuration/mappings');
    expect(wrongMethod.status).toBe(405);
    const outside = await fetch(emulator.url.replace('/airlock/rest', '/other/session/create'), { method: 'POST' });
    expect(outside.status).toBe(404);
  });

  it('reads one configuration entry', async () => {
    const c = client();
    await c.login();
    const first = list(await c.call('GET', '/configuration/configurations')).at(-1);
    const one = await c.call('GET', `/configuration/configurations/${String(first?.id)}`);
    expect(data(one)).toMatchObject({ type: 'configuration', id: first?.id, attributes: { configType: 'INITIAL' } });
  });
});
