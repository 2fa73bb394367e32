/**
 * Tolerance of real clients: docs/gateway-api.md "What real clients send" (one test per
 * item of what clients send) and "Base path and transport".
 */
import { Readable } from 'node:stream';
import {describe, expect, it } from 'vitest';
import { errorCode, linkedIds, one, startHarness, uniqueName, VALID, useAdminSession } from './client.js';
import type { CallOptions, Client, Harness } from './client.js';

/** The four forms of a body-less POST that real clients send. */
const BODYLESS: [string, CallOptions][] = [
  ['no body', {}],
  ['an empty body', { raw: '', headers: { 'content-type': 'application/json' } }],
  ['the JSON literal null', { raw: 'null', headers: { 'content-type': 'application/json' } }],
  ['an empty object', { json: {} }],
];

describe('tolerance of real clients', () => {
  let h: Harness;
  let c: Client;
  useAdminSession((harness, client) => {
    h = harness;
    c = client;
  });

  describe('double slashes in paths', () => {
    it('GET /airlock/rest//configuration/virtual-hosts is served like the single-slash path', async () => {
      const id = await c.create('virtual-host', VALID.virtualHost(uniqueName('dbl')));
      const reply = await c.call('GET', '//configuration/virtual-hosts');
      expect(reply.status).toBe(200);
      expect(Array.isArray(reply.doc?.data)).toBe(true);
      const single = await c.call('GET', '//configuration//virtual-hosts/' + id);
      expect(single.status).toBe(200);
      expect(one(single).id).toBe(id);
    });

    it('POST //session/create works', async () => {
      const d = h.client();
      const reply = await d.call('POST', '//session/create', { headers: { authorization: `Bearer ${h.emulator.apiKey}` } });
      expect(reply.status).toBe(200);
    });
  });

  describe.each(BODYLESS)('body-less POST sent as %s', (_label, options) => {
    it('session/create answers 200', async () => {
      const d = h.client();
      const reply = await d.call('POST', '/session/create', {
        ...options,
        headers: { ...options.headers, authorization: `Bearer ${h.emulator.apiKey}` },
      });
      expect(reply.status).toBe(200);
    });

    it('load-active answers 204', async () => {
      const d = h.client();
      await d.createSession(h.emulator.apiKey);
      const reply = await d.call('POST', '/configuration/configurations/load-active', options);
      expect(reply.status).toBe(204);
      expect((await d.call('GET', '/configuration/mappings')).status).toBe(200);
    });

    it('maintenance on answers 204', async () => {
      const vhost = await c.create('virtual-host', VALID.virtualHost(uniqueName('bl')));
      const reply = await c.call('POST', `/configuration/virtual-hosts/${vhost}/maintenance`, options);
      expect(reply.status).toBe(204);
      expect((await c.read('virtual-host', vhost)).attributes.showMaintenancePage).toBe(true);
    });

    it('load-empty-config answers 204', async () => {
      const d = h.client();
      await d.createSession(h.emulator.apiKey);
      const reply = await d.call('POST', '/configuration/configurations/load-empty-config', options);
      expect(reply.status).toBe(204);
      expect(await d.list('mapping')).toEqual([]);
    });

    it('save answers 200 with the new id', async () => {
      const d = await h.client().open(h.emulator.apiKey);
      const reply = await d.call('POST', '/configuration/configurations/save', options);
      expect(reply.status).toBe(200);
      expect(one(reply).id).toMatch(/^-?\d+$/);
    });

    it('activate answers 200', async () => {
      const d = await h.client().open(h.emulator.apiKey);
      const reply = await d.call('POST', '/configuration/configurations/activate', options);
      expect(reply.status).toBe(200);
    });

    it('session/terminate answers 200', async () => {
      const d = h.client();
      await d.createSession(h.emulator.apiKey);
      const reply = await d.call('POST', '/session/terminate', options);
      expect(reply.status).toBe(200);
      expect((await d.call('GET', '/configuration/configurations')).status).toBe(401);
    });
  });

  it('DELETE with a JSON body is accepted on an object delete', async () => {
    const id = await c.create('back-end-group', VALID.backEndGroup(uniqueName('delbody')));
    const reply = await c.call('DELETE', `/configuration/back-end-groups/${id}`, { json: { data: { type: 'back-end-group', id } } });
    expect(reply.status).toBe(204);
    expect((await c.call('GET', `/configuration/back-end-groups/${id}`)).status).toBe(404);
  });

  it('DELETE of a relationship carries its JSON body', async () => {
    const mapping = await c.create('mapping', VALID.mapping(uniqueName('delrel')));
    const g1 = await c.create('back-end-group', VALID.backEndGroup(uniqueName('g')));
    const g2 = await c.create('back-end-group', VALID.backEndGroup(uniqueName('g')));
    await c.relationship('PATCH', 'mapping', mapping, 'back-end-groups', 'back-end-group', [g1, g2]);
    const reply = await c.call('DELETE', `/configuration/mappings/${mapping}/relationships/back-end-groups`, {
      json: { data: [{ type: 'back-end-group', id: g1 }] },
    });
    expect(reply.status).toBe(204);
    expect(linkedIds(await c.read('mapping', mapping), 'back-end-groups')).toEqual([g2]);
  });

  it('a chunked request body (no Content-Length) is read whole', async () => {
    const name = uniqueName('chunked');
    const json = JSON.stringify({ data: { type: 'back-end-group', attributes: VALID.backEndGroup(name) } });
    const half = Math.floor(json.length / 2);
    const reply = await c.call('POST', '/configuration/back-end-groups', {
      raw: Readable.from([Buffer.from(json.slice(0, half)), Buffer.from(json.slice(half))]),
      headers: { 'content-type': 'application/json' },
    });
    expect(reply.status).toBe(201);
    expect(one(reply).attributes.name).toBe(name);
  });

  it('string booleans "true"/"false" are coerced to booleans', async () => {
    const id = await c.create('mapping', VALID.mapping(uniqueName('strbool')));
    const on = await c.patch('mapping', id, { enableMaintenancePage: 'true' });
    expect(on.status).toBe(200);
    expect(one(on).attributes.enableMaintenancePage).toBe(true);
    expect((await c.read('mapping', id)).attributes.enableMaintenancePage).toBe(true);
    await c.patch('mapping', id, { enableMaintenancePage: 'false' });
    expect((await c.read('mapping', id)).attributes.enableMaintenancePage).toBe(false);
  });

  it('nested string booleans are coerced on create', async () => {
    const id = await c.create('virtual-host', {
      ...VALID.virtualHost(uniqueName('strbool')),
      networkInterface: { http: { enabled: 'true' }, https: { enabled: 'false', http2Allowed: 'false' } },
    });
    const read = await c.read('virtual-host', id);
    expect(read.attributes.networkInterface).toMatchObject({ http: { enabled: true }, https: { enabled: false, http2Allowed: false } });
  });

  it('string booleans inside list items are coerced too', async () => {
    const id = await c.create('mapping', {
      ...VALID.mapping(uniqueName('strbool')),
      allowRules: [{ name: 'r1', enabled: 'false', logOnly: 'true' }],
    });
    const rules = (await c.read('mapping', id)).attributes.allowRules;
    expect(rules).toEqual([expect.objectContaining({ name: 'r1', enabled: false, logOnly: true })]);
  });

  it('a string that is not a boolean is still rejected where a boolean is expected', async () => {
    const id = await c.create('mapping', VALID.mapping(uniqueName('strbool')));
    const reply = await c.patch('mapping', id, { enableMaintenancePage: 'yes' });
    expect(reply.status).toBe(400);
    expect(errorCode(reply)).toBe('INVALID_VALUE');
  });

  it('numeric ids in relationship bodies are accepted and answered as strings', async () => {
    const vhost = await c.create('virtual-host', VALID.virtualHost(uniqueName('numid')));
    const mapping = await c.create('mapping', VALID.mapping(uniqueName('numid')));
    const reply = await c.call('PATCH', `/configuration/virtual-hosts/${vhost}/relationships/mappings`, {
      json: { data: [{ type: 'mapping', id: Number(mapping) }] },
    });
    expect(reply.status).toBe(204);
    expect((await c.read('virtual-host', vhost)).relationships?.mappings?.data).toEqual([{ type: 'mapping', id: mapping }]);
    expect((await c.read('mapping', mapping)).relationships?.['virtual-hosts']?.data).toEqual([{ type: 'virtual-host', id: vhost }]);
    const removed = await c.call('DELETE', `/configuration/virtual-hosts/${vhost}/relationships/mappings`, {
      json: { data: [{ type: 'mapping', id: Number(mapping) }] },
    });
    expect(removed.status).toBe(204);
    expect(linkedIds(await c.read('virtual-host', vhost), 'mappings')).toEqual([]);
  });

  it('a numeric id in a to-one relationship body is accepted too', async () => {
    const vhost = await c.create('virtual-host', VALID.virtualHost(uniqueName('numid')));
    const cert = await c.create('ssl-certificate', { certType: 'SERVER_CERT', certificate: 'x' });
    const reply = await c.call('PATCH', `/configuration/virtual-hosts/${vhost}/relationships/ssl-certificate`, {
      json: { data: { type: 'ssl-certificate', id: Number(cert) } },
    });
    expect(reply.status).toBe(204);
    expect((await c.read('virtual-host', vhost)).relationships?.['ssl-certificate']?.data).toEqual({ type: 'ssl-certificate', id: cert });
  });

  it('a Bearer header beside the cookie is tolerated', async () => {
    const reply = await c.call('GET', '/configuration/virtual-hosts', { headers: { authorization: `Bearer ${h.emulator.apiKey}` } });
    expect(reply.status).toBe(200);
  });

  it('the cookie decides the session, whatever Bearer header sits beside it', async () => {
    const d = await h.client().open(h.emulator.apiKey);
    const name = uniqueName('own-copy');
    await d.create('back-end-group', VALID.backEndGroup(name));
    // d's cookie with some other (even wrong) bearer still reaches d's working copy
    const reply = await d.call('GET', `/configuration/back-end-groups?filter=name==${name}`, {
      headers: { authorization: 'Bearer not-the-key' },
    });
    expect(reply.status).toBe(200);
    expect(Array.isArray(reply.doc?.data) ? reply.doc.data.length : -1).toBe(1);
  });

  it('the whole echoed Set-Cookie value in Cookie is parsed', async () => {
    const d = h.client();
    await d.createSession(h.emulator.apiKey);
    expect(d.setCookie).toMatch(/;/);
    d.cookie = d.setCookie;
    expect((await d.call('POST', '/configuration/configurations/load-active')).status).toBe(204);
    expect((await d.call('GET', '/configuration/mappings')).status).toBe(200);
  });

  it('a quoted cookie value and RFC 2965 attributes (older Java cookie handlers) are tolerated', async () => {
    const d = h.client();
    await d.createSession(h.emulator.apiKey);
    const value = d.cookie?.split('=')[1] ?? '';
    d.cookie = `$Version=1; JSESSIONID="${value}"; $Path=/`;
    expect((await d.call('POST', '/configuration/configurations/load-active')).status).toBe(204);
  });

  it('JSESSIONID among other cookies is found', async () => {
    const d = h.client();
    await d.createSession(h.emulator.apiKey);
    d.cookie = `theme=dark; ${d.cookie ?? ''}; other=1`;
    expect((await d.call('POST', '/configuration/configurations/load-active')).status).toBe(204);
  });

  it('Content-Type application/json on a GET without body is accepted', async () => {
    const reply = await c.call('GET', '/configuration/mappings', { headers: { 'content-type': 'application/json' } });
    expect(reply.status).toBe(200);
    const node = await c.call('GET', '/system/status/node', { headers: { 'content-type': 'application/json' } });
    expect(node.status).toBe(200);
  });

  it('requests without Accept, or with Accept */*, are answered with JSON', async () => {
    const none = await c.call('GET', '/configuration/mappings', { headers: { accept: null } });
    expect(none.status).toBe(200);
    expect(Array.isArray(none.doc?.data)).toBe(true);
    const any = await c.call('GET', '/configuration/mappings', { headers: { accept: '*/*' } });
    expect(any.status).toBe(200);
    expect(Array.isArray(any.doc?.data)).toBe(true);
  });

  it('raw and URL-encoded filters give the same answer', async () => {
    const name = uniqueName('enc');
    await c.create('mapping', VALID.mapping(name));
    const raw = await c.list('mapping', `filter=name==${name}`);
    const encoded = await c.list('mapping', `filter=name%3D%3D${encodeURIComponent(name)}`);
    expect(raw).toHaveLength(1);
    expect(encoded).toEqual(raw);
  });

  it('a filter value with a space arrives as + or %20 (form-encoded query, as Python requests sends it)', async () => {
    const name = `${uniqueName('with')} space`;
    const id = await c.create('mapping', VALID.mapping(name, '/with-space/'));
    const plus = await c.list('mapping', `filter=${encodeURIComponent(`name==${name}`).replace(/%20/g, '+')}`);
    expect(plus.map((m) => m.id)).toEqual([id]);
    const pct = await c.list('mapping', `filter=${encodeURIComponent(`name==${name}`)}`);
    expect(pct.map((m) => m.id)).toEqual([id]);
  });

  it('a URL-encoded non-ASCII filter value matches', async () => {
    const name = uniqueName('café-ünïcode');
    const id = await c.create('mapping', VALID.mapping(name, '/unicode/'));
    expect((await c.list('mapping', `filter=${encodeURIComponent(`name==${name}`)}`)).map((m) => m.id)).toEqual([id]);
  });

  it('boolean and number attributes filter by their string form', async () => {
    const id = await c.create('mapping', { ...VALID.mapping(uniqueName('boolf')), enableMaintenancePage: true, labels: ['boolf'] });
    await c.create('mapping', { ...VALID.mapping(uniqueName('boolf')), labels: ['boolf'] });
    expect((await c.list('mapping', 'filter=label==boolf&filter=enableMaintenancePage==true')).map((m) => m.id)).toEqual([id]);
  });

  it('a relationship PATCH with an empty list is a no-op (204)', async () => {
    const vhost = await c.create('virtual-host', VALID.virtualHost(uniqueName('empty')));
    const mapping = await c.create('mapping', VALID.mapping(uniqueName('empty')));
    await c.relationship('PATCH', 'virtual-host', vhost, 'mappings', 'mapping', [mapping]);
    const reply = await c.call('PATCH', `/configuration/virtual-hosts/${vhost}/relationships/mappings`, { json: { data: [] } });
    expect(reply.status).toBe(204);
    expect(linkedIds(await c.read('virtual-host', vhost), 'mappings')).toEqual([mapping]);
  });

  it('the label== filter finds mappings by one of their labels', async () => {
    const label = uniqueName('lbl');
    const id = await c.create('mapping', { ...VALID.mapping(uniqueName('lbl')), labels: ['x', label] });
    await c.create('mapping', { ...VALID.mapping(uniqueName('lbl')), labels: ['x'] });
    expect((await c.list('mapping', `filter=label==${label}`)).map((m) => m.id)).toEqual([id]);
  });

  it('validator messages filtered by a URL-encoded meta.severity', async () => {
    const reply = await c.call('GET', '/configuration/validator-messages?filter=meta.severity%3D%3DERROR');
    expect(reply.status).toBe(200);
    const data = reply.doc?.data;
    const messages = Array.isArray(data) ? data : [];
    // the unlinked mappings created above are ERRORs (no back-end group)
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) expect(m.meta?.severity).toBe('ERROR');
  });
});

describe('headers on body-less calls', () => {
  it('DELETE with Content-Type application/json and no body is accepted', async () => {
    const h = await startHarness();
    try {
      const c = await h.client().open(h.emulator.apiKey);
      const id = await c.create('back-end-group', VALID.backEndGroup(uniqueName('ct')));
      const reply = await c.call('DELETE', `/configuration/back-end-groups/${id}`, { headers: { 'content-type': 'application/json' } });
      expect(reply.status).toBe(204);
      const vhost = await c.create('virtual-host', VALID.virtualHost(uniqueName('ct')));
      const off = await c.call('DELETE', `/configuration/virtual-hosts/${vhost}/maintenance`, { headers: { 'content-type': 'application/json' } });
      expect(off.status).toBe(204);
    } finally {
      await h.close();
    }
  });
});

describe('where clients differ', () => {
  let c: Client;
  useAdminSession((_harness, client) => {
    c = client;
  });

  it('a configuration import sent as a multipart form under an application/zip header is imported', async () => {
    const name = uniqueName('multipart');
    await c.create('back-end-group', VALID.backEndGroup(name));
    const exported = await c.call('GET', '/configuration/configurations/export');
    expect(exported.status).toBe(200);
    const boundary = '----client-boundary-4711';
    const form = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="config.zip"\r\nContent-Type: application/zip\r\n\r\n`),
      exported.raw,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    await c.call('POST', '/configuration/configurations/load-empty-config');
    expect((await c.list('back-end-group')).map((g) => g.attributes.name)).not.toContain(name);
    const imported = await c.call('PUT', '/configuration/configurations/import', { raw: form, headers: { 'content-type': 'application/zip' } });
    expect(imported.status).toBe(200);
    expect((await c.list('back-end-group')).map((g) => g.attributes.name)).toContain(name);
  });

  it('activation accepts and ignores option names it does not know', async () => {
    const reply = await c.call('POST', '/configuration/configurations/activate', {
      json: { comment: 'options', options: { failoverAction: true, failoverActivation: false, somethingNew: 1 } },
    });
    expect([reply.status, errorCode(reply)]).toEqual([200, undefined]);
  });

  it('PATCH of a resource answers 200 with the resource document', async () => {
    const id = await c.create('back-end-group', VALID.backEndGroup(uniqueName('patch200')));
    const reply = await c.call('PATCH', `/configuration/back-end-groups/${id}`, { json: { data: { type: 'back-end-group', id, attributes: { name: `${id}-renamed` } } } });
    expect(reply.status).toBe(200);
    expect(one(reply)).toMatchObject({ type: 'back-end-group', id });
  });
});
