/**
 * Whole call sequences the way independent real clients send them (docs/gateway-api.md "What
 * real clients send"): the typical sequence ("Configurations and activation"), a certificate tool, a
 * script that deploys a mapping from the template, and a maintenance-toggling shell script.
 * Each one mixes the habits real clients have (Bearer on every call, echoed Set-Cookie,
 * Content-Type on GETs, double slashes, numeric ids).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCode, many, one, PEM, PEM2, startHarness } from './client.js';
import type { Client, Harness } from './client.js';

describe('real-client workflows', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    // a gateway that already serves something
    const admin = await h.client().open(h.emulator.apiKey);
    const vhost = await admin.create('virtual-host', {
      name: 'shop',
      hostName: 'shop.example.com',
      networkInterface: { https: { enabled: false, http2Allowed: false } },
    });
    const group = await admin.create('back-end-group', { name: 'shop-backend', backendHosts: [{ protocol: 'HTTP', hostName: 'shop.internal', port: 8080 }] });
    const mapping = await admin.create('mapping', { name: 'shop-root', entryPath: { value: '/' }, labels: ['team-shop'] });
    await admin.relationship('PATCH', 'virtual-host', vhost, 'mappings', 'mapping', [mapping]);
    await admin.relationship('PATCH', 'mapping', mapping, 'back-end-groups', 'back-end-group', [group]);
    const activated = await admin.activate('initial shop');
    if (activated.status !== 200) throw new Error(`fixture: ${activated.text}`);
    await admin.terminate();
  });
  afterAll(async () => {
    await h.close();
  });

  /** A client that sends Accept, Content-Type and the Bearer key on every call, like several scripts do. */
  const chatty = (c: Client) => ({
    call: (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, json?: unknown) =>
      c.call(method, path, {
        ...(json === undefined ? {} : { json }),
        headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${h.emulator.apiKey}` },
      }),
  });

  it('the typical sequence: create, status, load, change, validate, activate, terminate', async () => {
    const c = h.client();
    expect((await c.createSession(h.emulator.apiKey)).status).toBe(200);
    expect(one(await c.call('GET', '/system/status/node')).attributes.version).toBe('8.6');
    expect((await c.call('POST', '/configuration/configurations/load-active')).status).toBe(204);
    const [mapping] = await c.list('mapping', 'filter=name==shop-root');
    expect(mapping).toBeDefined();
    const patched = await c.call('PATCH', `/configuration/mappings/${mapping?.id ?? ''}`, {
      json: { data: { type: 'mapping', id: mapping?.id, attributes: { ipRules: { ipAddressBlacklists: { logOnly: true } } } } },
    });
    expect(patched.status).toBe(200);
    expect(await c.messages('filter=meta.severity==ERROR')).toEqual([]);
    expect((await c.activate('log-only blacklist')).status).toBe(200);
    expect((await c.terminate()).status).toBe(200);

    const check = await h.client().open(h.emulator.apiKey);
    const [after] = await check.list('mapping', 'filter=name==shop-root');
    expect(after?.attributes.ipRules).toMatchObject({ ipAddressBlacklists: { logOnly: true }, ipAddressWhitelists: { logOnly: false } });
    expect(after?.relationships?.['virtual-hosts']?.data).toHaveLength(1);
  });

  it('a certificate tool: upload a certificate with its key, attach it, enable HTTPS, activate', async () => {
    const c = h.client();
    await c.createSession(h.emulator.apiKey);
    c.cookie = c.setCookie; // echoes the whole Set-Cookie value
    const x = chatty(c);
    expect((await x.call('POST', '/configuration/configurations/load-active')).status).toBe(204);
    const vhosts = many(await x.call('GET', '//configuration/virtual-hosts?filter=name%3D%3Dshop'));
    expect(vhosts).toHaveLength(1);
    const vhost = vhosts[0]?.id ?? '';

    const created = await x.call('POST', '/configuration/ssl-certificates', {
      data: { type: 'ssl-certificate', attributes: { certType: 'SERVER_CERT', certificate: PEM, certificateChain: [PEM2], privateKey: 'KEY-MATERIAL', passphrase: 'PASS-PHRASE' } },
    });
    expect([200, 201]).toContain(created.status);
    const cert = one(created).id;
    expect(one(created).attributes.privateKey).toBe('KEY-MATERIAL');
    expect(created.text).not.toContain('PASS-PHRASE');

    const linked = await x.call('PATCH', `/configuration/virtual-hosts/${vhost}/relationships/ssl-certificate`, {
      data: { type: 'ssl-certificate', id: Number(cert) },
    });
    expect(linked.status).toBe(204);
    const https = await x.call('PATCH', `/configuration/virtual-hosts/${vhost}`, {
      data: { type: 'virtual-host', id: vhost, attributes: { networkInterface: { https: { enabled: 'true', http2Allowed: 'true' } }, tls: { certificateMode: 'CERTIFICATE' } } },
    });
    expect(https.status).toBe(200);
    expect(one(https).relationships?.['ssl-certificate']?.data).toEqual({ type: 'ssl-certificate', id: cert });

    const errors = many(await x.call('GET', '/configuration/validator-messages?filter=meta.severity==ERROR'));
    expect(errors).toEqual([]);
    expect((await x.call('POST', '/configuration/configurations/activate', { comment: 'renew certificate' })).status).toBe(200);
    expect((await x.call('POST', '/session/terminate')).status).toBe(200);

    const check = await h.client().open(h.emulator.apiKey);
    const read = await check.read('virtual-host', vhost);
    expect(read.attributes.networkInterface).toMatchObject({ https: { enabled: true, http2Allowed: true } });
    expect((await check.read('ssl-certificate', cert)).relationships?.['virtual-hosts']?.data).toEqual([{ type: 'virtual-host', id: vhost }]);
  });

  it('a deploy script: mapping from the New_Mapping template, labelled, linked from both sides, activated', async () => {
    const c = h.client();
    await c.createSession(h.emulator.apiKey);
    const x = chatty(c);
    await x.call('POST', '/configuration/configurations/load-active', {});
    const templates = many(await x.call('GET', '/configuration/templates/mappings'));
    const template = templates.find((t) => t.attributes.name === 'New_Mapping');
    expect(template).toBeDefined();
    const created = await x.call('POST', '/configuration/mappings/create-from-template', {
      data: { type: 'create-mapping-from-template', attributes: { id: template?.id } },
    });
    expect(created.status).toBe(201);
    const id = one(created).id;
    // PATCH without data.id, as some scripts do
    const patched = await x.call('PATCH', `/configuration/mappings/${id}`, {
      data: { type: 'mapping', attributes: { name: 'shop-api', labels: ['team-shop', 'api'], entryPath: { value: '/api/' }, backendPath: '/api/' } },
    });
    expect(patched.status).toBe(200);
    const [vhost] = many(await x.call('GET', '/configuration/virtual-hosts?filter=name==shop'));
    const [group] = many(await x.call('GET', '/configuration/back-end-groups?filter=name==shop-backend'));
    expect((await x.call('PATCH', `/configuration/back-end-groups/${group?.id ?? ''}/relationships/mappings`, { data: [{ type: 'mapping', id }] })).status).toBe(204);
    expect((await x.call('PATCH', `/configuration/mappings/${id}/relationships/virtual-hosts`, { data: [{ type: 'virtual-host', id: vhost?.id }] })).status).toBe(204);
    expect(many(await x.call('GET', '/configuration/validator-messages?filter=meta.severity%3D%3DERROR'))).toEqual([]);
    expect((await x.call('POST', '/configuration/configurations/activate', { comment: 'deploy shop-api' })).status).toBe(200);

    const check = await h.client().open(h.emulator.apiKey);
    expect((await check.list('mapping', 'filter=label==team-shop')).map((m) => m.attributes.name).sort()).toEqual(['shop-api', 'shop-root']);
  });

  it('a shell script toggling maintenance with body-less calls and a stale second session', async () => {
    const a = await h.client().open(h.emulator.apiKey);
    const b = await h.client().open(h.emulator.apiKey);
    const [vhost] = await a.list('virtual-host', 'filter=name==shop');
    const id = vhost?.id ?? '';
    expect((await a.call('POST', `/configuration/virtual-hosts/${id}/maintenance`, { raw: '', headers: { 'content-type': 'application/json' } })).status).toBe(204);
    expect((await a.activate('maintenance on')).status).toBe(200);
    // b loaded before a's activation: its activation is refused
    expect((await b.call('DELETE', `/configuration/virtual-hosts/${id}/maintenance`)).status).toBe(204);
    const refused = await b.activate('maintenance off (stale)');
    expect(refused.status).toBe(409);
    expect(errorCode(refused)).toBe('OUTDATED_CONFIGURATION');
    // b reloads and repeats
    expect((await b.call('POST', '/configuration/configurations/load-active', { raw: 'null', headers: { 'content-type': 'application/json' } })).status).toBe(204);
    expect((await b.read('virtual-host', id)).attributes.showMaintenancePage).toBe(true);
    expect((await b.call('DELETE', `/configuration/virtual-hosts/${id}/maintenance`)).status).toBe(204);
    expect((await b.activate('maintenance off')).status).toBe(200);
    const check = await h.client().open(h.emulator.apiKey);
    expect((await check.read('virtual-host', id)).attributes.showMaintenancePage).toBe(false);
  });
});
