/**
 * Sessions and system calls: docs/gateway-api.md "Sessions" (including its system calls);
 * TLS and plain HTTP ("Base path and transport") are in transport.test.ts.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, errorCode, jsessionSetCookie, one, startHarness, VALID } from './client.js';
import type { Harness } from './client.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(Z|[+-]\d{2}:\d{2})$/;

describe('sessions over HTTPS', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('serves HTTPS under the base path /airlock/rest', () => {
    expect(h.emulator.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/airlock\/rest$/);
    expect(h.emulator.caCertificate).toContain('BEGIN CERTIFICATE');
  });

  it('POST /session/create with a valid Bearer key answers 200 and sets a JSESSIONID cookie (Secure, HttpOnly under TLS)', async () => {
    const c = h.client();
    const reply = await c.createSession(h.emulator.apiKey);
    expect(reply.status).toBe(200);
    const setCookie = jsessionSetCookie(reply.headers);
    expect(setCookie).toMatch(/^JSESSIONID=[^;\s]+/);
    expect(setCookie).toMatch(/;\s*HttpOnly/i);
    expect(setCookie).toMatch(/;\s*Secure/i);
    expect(setCookie).toMatch(/;\s*Path=\//i);
  });

  it('two sessions get different cookies', async () => {
    const a = h.client();
    const b = h.client();
    await a.createSession(h.emulator.apiKey);
    await b.createSession(h.emulator.apiKey);
    expect(a.cookie).toBeDefined();
    expect(a.cookie).not.toBe(b.cookie);
  });

  it('POST /session/create without Authorization answers 401 with an error document', async () => {
    const reply = await h.client().call('POST', '/session/create');
    expect(reply.status).toBe(401);
    expect(jsessionSetCookie(reply.headers)).toBeUndefined();
    expect(reply.doc?.meta?.type).toBe('jsonapi.metadata.document');
    expect(reply.doc?.errors?.length).toBeGreaterThan(0);
  });

  it('POST /session/create with a wrong key answers 401 and sets no cookie', async () => {
    const reply = await h.client().call('POST', '/session/create', {
      headers: { authorization: `Bearer ${h.emulator.apiKey}x` },
    });
    expect(reply.status).toBe(401);
    expect(jsessionSetCookie(reply.headers)).toBeUndefined();
  });

  it('POST /session/create with the key but not as a Bearer credential answers 401', async () => {
    const reply = await h.client().call('POST', '/session/create', {
      headers: { authorization: `Basic ${Buffer.from(`admin:${h.emulator.apiKey}`).toString('base64')}` },
    });
    expect(reply.status).toBe(401);
  });

  it('after create, the cookie alone authenticates (no Authorization header)', async () => {
    const c = h.client();
    await c.createSession(h.emulator.apiKey);
    const reply = await c.call('POST', '/configuration/configurations/load-active');
    expect(reply.status).toBe(204);
    const list = await c.call('GET', '/configuration/virtual-hosts');
    expect(list.status).toBe(200);
    expect(Array.isArray(list.doc?.data)).toBe(true);
  });

  it('a call without a cookie answers 401, also when it carries a valid Bearer key', async () => {
    const c = h.client();
    expect((await c.call('GET', '/configuration/configurations')).status).toBe(401);
    const withBearer = await c.call('GET', '/configuration/configurations', {
      headers: { authorization: `Bearer ${h.emulator.apiKey}` },
    });
    expect(withBearer.status).toBe(401);
  });

  it('an unknown JSESSIONID answers 401', async () => {
    const c = h.client();
    c.cookie = 'JSESSIONID=not-a-session';
    const reply = await c.call('GET', '/configuration/configurations');
    expect(reply.status).toBe(401);
    expect(reply.doc?.errors?.length).toBeGreaterThan(0);
  });

  it('POST /session/terminate answers 200, and the cookie stops working', async () => {
    const c = h.client();
    await c.open(h.emulator.apiKey);
    const before = h.emulator.openSessionCount();
    const reply = await c.terminate();
    expect(reply.status).toBe(200);
    expect(h.emulator.openSessionCount()).toBe(before - 1);
    expect((await c.call('GET', '/configuration/virtual-hosts')).status).toBe(401);
  });

  it('terminating a session loses its unsaved edits', async () => {
    const c = h.client();
    await c.open(h.emulator.apiKey);
    await c.create('back-end-group', VALID.backEndGroup('lost-on-terminate'));
    await c.terminate();
    const d = await h.client().open(h.emulator.apiKey);
    expect(await d.list('back-end-group', 'filter=name==lost-on-terminate')).toEqual([]);
  });

  it('GET /system/status/node answers 200 right after create, before any load', async () => {
    const c = h.client();
    await c.createSession(h.emulator.apiKey);
    const reply = await c.call('GET', '/system/status/node');
    expect(reply.status).toBe(200);
    const node = one(reply);
    expect(node.type).toBe('node-status');
    expect(node.attributes.version).toBe('8.6');
    expect(typeof node.attributes.hostName).toBe('string');
    expect(['active', 'passive', 'standalone', 'offline']).toContain(node.attributes.failoverState);
    expect(reply.doc?.meta?.type).toBe('jsonapi.metadata.document');
    expect(reply.doc?.meta?.timestamp).toMatch(TIMESTAMP);
  });

  it('GET /system/status/node without a session answers 401', async () => {
    expect((await h.client().call('GET', '/system/status/node')).status).toBe(401);
  });

  it('GET /configuration/license answers 200 (a side-effect-free keep-alive)', async () => {
    const c = h.client();
    await c.createSession(h.emulator.apiKey);
    const reply = await c.call('GET', '/configuration/license');
    expect(reply.status).toBe(200);
    // still no configuration loaded: a later resource call needs a load
    expect(errorCode(await c.call('GET', '/configuration/mappings'))).toBe('CONFIGURATION_LOAD_REQUIRED');
  });

  it('answers JSON with Content-Type application/json and the JSON:API envelope', async () => {
    const c = await h.client().open(h.emulator.apiKey);
    const reply = await c.call('GET', '/configuration/mappings');
    expect(String(reply.headers['content-type'])).toMatch(/^application\/json/);
    expect(reply.doc?.meta?.type).toBe('jsonapi.metadata.document');
    expect(reply.doc?.meta?.timestamp).toMatch(TIMESTAMP);
    expect(Number.isNaN(Date.parse(String(at(reply.doc, 'meta.timestamp'))))).toBe(false);
  });

  it('a path outside the API answers 404', async () => {
    const c = await h.client().open(h.emulator.apiKey);
    expect((await c.call('GET', '/configuration/no-such-collection')).status).toBe(404);
  });
});

describe('keys and lifecycle of the programmatic API', () => {
  it('generated keys are JWT-shaped (the reference: "the key is a JWT"), admin and read-only differ', async () => {
    const h = await startHarness();
    try {
      expect(h.emulator.apiKey).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(h.emulator.readOnlyApiKey).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(h.emulator.readOnlyApiKey).not.toBe(h.emulator.apiKey);
    } finally {
      await h.close();
    }
  });

  it('given keys are the ones accepted', async () => {
    const h = await startHarness({ apiKey: 'admin-key-for-test', readOnlyApiKey: 'reader-key-for-test' });
    try {
      expect(h.emulator.apiKey).toBe('admin-key-for-test');
      expect((await h.client().createSession('admin-key-for-test')).status).toBe(200);
      const reader = h.client();
      expect((await reader.createSession('reader-key-for-test')).status).toBe(200);
      await reader.call('POST', '/configuration/configurations/load-active');
      expect((await reader.call('POST', '/configuration/configurations/save')).status).toBe(403);
      expect((await h.client().createSession('some-other-key')).status).toBe(401);
    } finally {
      await h.close();
    }
  });

  it('close() stops serving: the port refuses new connections', async () => {
    const h = await startHarness({ tls: false });
    const url = h.emulator.url;
    expect((await h.client().createSession(h.emulator.apiKey)).status).toBe(200);
    await h.close();
    await expect(request(`${url}/session/create`, { method: 'POST' })).rejects.toThrow();
  });
});

describe('concurrent sessions', () => {
  it('four sessions read concurrently, each with its own working copy', async () => {
    const h = await startHarness();
    try {
      const admin = await h.client().open(h.emulator.apiKey);
      await admin.create('back-end-group', VALID.backEndGroup('shared'));
      expect((await admin.activate('shared')).status).toBe(200);
      const clients = await Promise.all([1, 2, 3, 4].map(() => h.client().open(h.emulator.apiKey)));
      expect(new Set(clients.map((c) => c.cookie)).size).toBe(4);
      const lists = await Promise.all(clients.map((c) => c.list('back-end-group')));
      for (const list of lists) expect(list.map((g) => g.attributes.name)).toEqual(['shared']);
      await Promise.all(clients.map((c, i) => c.create('back-end-group', VALID.backEndGroup(`own-${i}`))));
      const after = await Promise.all(clients.map((c) => c.list('back-end-group')));
      after.forEach((list, i) => expect(list.map((g) => g.attributes.name).sort()).toEqual([`own-${i}`, 'shared']));
    } finally {
      await h.close();
    }
  });
});

describe('session idle timeout and expiry', () => {
  it('a session idle longer than the timeout answers 401', async () => {
    const h = await startHarness({ sessionIdleTimeoutMs: 200 });
    try {
      const c = await h.client().open(h.emulator.apiKey);
      expect((await c.call('GET', '/configuration/mappings')).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 600));
      const reply = await c.call('GET', '/configuration/mappings');
      expect(reply.status).toBe(401);
      // a new session works
      const d = await h.client().open(h.emulator.apiKey);
      expect((await d.call('GET', '/configuration/mappings')).status).toBe(200);
    } finally {
      await h.close();
    }
  });

  it('every call refreshes the idle timer (the timeout counts from the last call)', async () => {
    const h = await startHarness({ sessionIdleTimeoutMs: 2000 });
    try {
      const c = await h.client().open(h.emulator.apiKey);
      // six calls 400 ms apart: 2.4 s in total, longer than the timeout, never idle for 2 s
      for (let i = 0; i < 6; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 400));
        expect((await c.call('GET', '/configuration/mappings')).status).toBe(200);
      }
    } finally {
      await h.close();
    }
  });

  it('the default idle timeout keeps a session alive between calls', async () => {
    const h = await startHarness();
    try {
      const c = await h.client().open(h.emulator.apiKey);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await c.call('GET', '/configuration/mappings')).status).toBe(200);
    } finally {
      await h.close();
    }
  });
});

describe('the read-only key', () => {
  let h: Harness;
  let ids: { vhost: string; mapping: string; group: string; config: string };
  beforeAll(async () => {
    h = await startHarness();
    const admin = await h.client().open(h.emulator.apiKey);
    const vhost = await admin.create('virtual-host', VALID.virtualHost('ro-vhost'));
    const group = await admin.create('back-end-group', VALID.backEndGroup('ro-group'));
    const mapping = await admin.create('mapping', VALID.mapping('ro-mapping'));
    await admin.relationship('PATCH', 'virtual-host', vhost, 'mappings', 'mapping', [mapping]);
    await admin.relationship('PATCH', 'mapping', mapping, 'back-end-groups', 'back-end-group', [group]);
    const saved = await admin.call('POST', '/configuration/configurations/save', { json: { comment: 'for ro' } });
    const activated = await admin.activate('read-only fixture');
    if (activated.status !== 200) throw new Error(`fixture activation answered ${activated.status}: ${activated.text}`);
    ids = { vhost, mapping, group, config: one(saved).id };
  });
  afterAll(async () => {
    await h.close();
  });

  const readOnly = async () => {
    const c = h.client();
    const created = await c.createSession(h.emulator.readOnlyApiKey);
    expect(created.status).toBe(200);
    expect((await c.call('POST', '/configuration/configurations/load-active')).status).toBe(204);
    return c;
  };

  it('creates a session, loads (active, by id, empty) and reads (GETs are allowed)', async () => {
    const c = await readOnly();
    expect((await c.call('GET', '/system/status/node')).status).toBe(200);
    expect((await c.call('GET', '/configuration/configurations')).status).toBe(200);
    const vhosts = await c.list('virtual-host');
    expect(vhosts.map((v) => v.id)).toContain(ids.vhost);
    expect((await c.call('GET', `/configuration/mappings/${ids.mapping}`)).status).toBe(200);
    expect((await c.call('GET', '/configuration/validator-messages')).status).toBe(200);
    expect((await c.call('GET', '/configuration/templates/mappings')).status).toBe(200);
    expect((await c.call('POST', `/configuration/configurations/${ids.config}/load`)).status).toBe(204);
    expect((await c.call('POST', '/configuration/configurations/load-empty-config')).status).toBe(204);
    expect((await c.terminate()).status).toBe(200);
  });

  const modifying: [string, 'POST' | 'PATCH' | 'DELETE', (i: typeof ids) => string, ((i: typeof ids) => unknown) | undefined][] = [
    ['create', 'POST', () => '/configuration/back-end-groups', () => ({ data: { type: 'back-end-group', attributes: { name: 'x' } } })],
    ['update', 'PATCH', (i) => `/configuration/virtual-hosts/${i.vhost}`, (i) => ({ data: { type: 'virtual-host', id: i.vhost, attributes: { keepAliveTimeout: 3 } } })],
    ['delete', 'DELETE', (i) => `/configuration/back-end-groups/${i.group}`, undefined],
    ['link', 'PATCH', (i) => `/configuration/virtual-hosts/${i.vhost}/relationships/mappings`, (i) => ({ data: [{ type: 'mapping', id: i.mapping }] })],
    ['unlink', 'DELETE', (i) => `/configuration/mappings/${i.mapping}/relationships/back-end-groups`, (i) => ({ data: [{ type: 'back-end-group', id: i.group }] })],
    ['maintenance on', 'POST', (i) => `/configuration/virtual-hosts/${i.vhost}/maintenance`, undefined],
    ['maintenance off', 'DELETE', (i) => `/configuration/virtual-hosts/${i.vhost}/maintenance`, undefined],
    ['activate', 'POST', () => '/configuration/configurations/activate', () => ({ comment: 'ro' })],
    ['save', 'POST', () => '/configuration/configurations/save', () => ({ comment: 'ro' })],
    ['configuration delete', 'DELETE', (i) => `/configuration/configurations/${i.config}`, undefined],
    ['source mapping', 'PATCH', (i) => `/configuration/mappings/${i.mapping}/relationships/template`, (i) => ({ data: { type: 'mapping', id: i.mapping } })],
  ];

  it.each(modifying)('answers 403 to a modifying call: %s', async (_label, method, path, body) => {
    const before = JSON.stringify(h.emulator.activeSnapshot());
    const c = await readOnly();
    const payload = body?.(ids);
    const reply = await c.call(method, path(ids), payload === undefined ? {} : { json: payload });
    expect(reply.status).toBe(403);
    expect(reply.doc?.errors?.length).toBeGreaterThan(0);
    expect(JSON.stringify(h.emulator.activeSnapshot())).toBe(before);
    // the working copy did not change either
    const vhost = await c.read('virtual-host', ids.vhost);
    expect(vhost.attributes.showMaintenancePage).toBe(false);
    expect((await c.list('back-end-group')).map((g) => g.id)).toEqual([ids.group]);
  });

  it('the administrator key still may modify the same objects', async () => {
    const admin = await h.client().open(h.emulator.apiKey);
    expect((await admin.call('POST', `/configuration/virtual-hosts/${ids.vhost}/maintenance`)).status).toBe(204);
  });
});
