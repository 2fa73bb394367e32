/**
 * Validator messages: the emulator's rules in docs/gateway-api.md "Validator messages" (one test
 * per rule, each with a control that clears it), both shapes of message, filters, and activation
 * refused while an ERROR exists (docs/gateway-api.md "Configurations and activation").
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorCode, many, PEM, startHarness, uniqueName, VALID } from './client.js';
import type { Client, Harness, ResourceObject, Type } from './client.js';

interface Message {
  severity: string;
  code: unknown;
  detail: unknown;
  model: { type: unknown; id: unknown };
}

/** Checks both shapes of one message and returns its essentials. */
function shapes(m: ResourceObject): Message {
  expect(m.type).toBe('validator-message');
  expect(typeof m.id).toBe('string');
  const severity = m.meta?.severity;
  expect(['ERROR', 'WARNING', 'INFO']).toContain(severity);
  const attrs = m.attributes;
  expect(typeof attrs.detail).toBe('string');
  expect(String(attrs.detail).length).toBeGreaterThan(0);
  expect(typeof attrs.code).toBe('string');
  expect(typeof attrs.title).toBe('string');
  const meta = attrs.meta as { severity?: unknown; model?: { type?: unknown; id?: unknown } } | undefined;
  expect(meta?.severity).toBe(severity);
  expect(typeof meta?.model?.type).toBe('string');
  expect(typeof meta?.model?.id).toBe('string');
  // docs/gateway-api.md "Validator messages": the resource's `meta` carries the severity and
  // the type of the object concerned.
  expect(m.meta?.type).toBe(meta?.model?.type);
  return { severity: String(severity), code: attrs.code, detail: attrs.detail, model: { type: meta?.model?.type, id: meta?.model?.id } };
}

/**
 * The messages about one object, both shapes checked; also checks that the ERRORs among them
 * are exactly what `filter=meta.severity==ERROR` answers about the object.
 */
async function about(c: Client, type: Type, id: string): Promise<Message[]> {
  const mine = (m: Message) => m.model.type === type && m.model.id === id;
  const all = (await c.messages()).map(shapes).filter(mine);
  const filtered = (await c.messages('filter=meta.severity==ERROR')).map(shapes).filter(mine);
  expect(filtered).toEqual(all.filter((m) => m.severity === 'ERROR'));
  return all;
}

async function severities(c: Client, type: Type, id: string): Promise<string[]> {
  return (await about(c, type, id)).map((m) => m.severity).sort();
}

/** A virtual host, a back-end group and a mapping linked to both: no message at all. */
async function validSetup(c: Client): Promise<{ vhost: string; group: string; mapping: string }> {
  const vhost = await c.create('virtual-host', VALID.virtualHost(uniqueName('vh')));
  const group = await c.create('back-end-group', VALID.backEndGroup(uniqueName('beg')));
  const mapping = await c.create('mapping', VALID.mapping(uniqueName('map')));
  expect((await c.relationship('PATCH', 'virtual-host', vhost, 'mappings', 'mapping', [mapping])).status).toBe(204);
  expect((await c.relationship('PATCH', 'mapping', mapping, 'back-end-groups', 'back-end-group', [group])).status).toBe(204);
  return { vhost, group, mapping };
}

async function linkedMapping(c: Client, vhost: string, group: string, attributes: Record<string, unknown>): Promise<string> {
  const id = await c.create('mapping', { ...VALID.mapping(uniqueName('map')), ...attributes });
  await c.relationship('PATCH', 'virtual-host', vhost, 'mappings', 'mapping', [id]);
  await c.relationship('PATCH', 'mapping', id, 'back-end-groups', 'back-end-group', [group]);
  return id;
}

describe('validator rules (latest variant)', () => {
  let h: Harness;
  let c: Client;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    // a fresh session: a fresh working copy of the (empty) active configuration
    c = await h.client().open(h.emulator.apiKey);
  });

  it('a consistent configuration has no messages', async () => {
    await validSetup(c);
    const reply = await c.call('GET', '/configuration/validator-messages');
    expect(reply.status).toBe(200);
    expect(many(reply)).toEqual([]);
  });

  it('two regex mappings with the same entryPath.priority: ERROR; different priorities or non-regex: none', async () => {
    const { vhost, group } = await validSetup(c);
    const a = await linkedMapping(c, vhost, group, { entryPath: { value: '^/a/', regexFormatEnforced: true, priority: 7 } });
    const b = await linkedMapping(c, vhost, group, { entryPath: { value: '^/b/', regexFormatEnforced: true, priority: 7 } });
    const both = [...(await about(c, 'mapping', a)), ...(await about(c, 'mapping', b))];
    expect(both.length).toBeGreaterThan(0);
    expect(both.every((m) => m.severity === 'ERROR')).toBe(true);

    await c.patch('mapping', b, { entryPath: { priority: 8 } });
    expect([...(await about(c, 'mapping', a)), ...(await about(c, 'mapping', b))]).toEqual([]);

    // non-regex mappings may share a priority
    const x = await linkedMapping(c, vhost, group, { entryPath: { value: '/x/', priority: 3 } });
    const y = await linkedMapping(c, vhost, group, { entryPath: { value: '/y/', priority: 3 } });
    expect([...(await about(c, 'mapping', x)), ...(await about(c, 'mapping', y))]).toEqual([]);
  });

  it('http2Allowed without HTTPS: ERROR on the virtual host', async () => {
    const { vhost } = await validSetup(c);
    await c.patch('virtual-host', vhost, { networkInterface: { https: { enabled: false, http2Allowed: true } } });
    expect(await severities(c, 'virtual-host', vhost)).toEqual(['ERROR']);
    await c.patch('virtual-host', vhost, { networkInterface: { https: { http2Allowed: false } } });
    expect(await severities(c, 'virtual-host', vhost)).toEqual([]);
  });

  it('tls.certificateMode CERTIFICATE without an ssl-certificate link: ERROR, cleared by linking one', async () => {
    const { vhost } = await validSetup(c);
    const acme = await c.create('acme-service', { name: uniqueName('acme'), serverUrl: 'https://acme.example/directory' });
    await c.relationship('PATCH', 'virtual-host', vhost, 'acme-service', 'acme-service', acme);
    await c.patch('virtual-host', vhost, { networkInterface: { https: { enabled: true } }, tls: { certificateMode: 'CERTIFICATE' } });
    const found = await about(c, 'virtual-host', vhost);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((m) => m.severity === 'ERROR')).toBe(true);

    const cert = await c.create('ssl-certificate', { certType: 'SERVER_CERT', certificate: PEM });
    await c.relationship('PATCH', 'virtual-host', vhost, 'ssl-certificate', 'ssl-certificate', cert);
    expect(await severities(c, 'virtual-host', vhost)).toEqual([]);
  });

  it('tls.certificateMode ACME_SERVICE without an acme-service link: ERROR, cleared by linking one', async () => {
    const { vhost } = await validSetup(c);
    const cert = await c.create('ssl-certificate', { certType: 'SERVER_CERT', certificate: PEM });
    await c.relationship('PATCH', 'virtual-host', vhost, 'ssl-certificate', 'ssl-certificate', cert);
    await c.patch('virtual-host', vhost, { networkInterface: { https: { enabled: true } }, tls: { certificateMode: 'ACME_SERVICE' } });
    const found = await about(c, 'virtual-host', vhost);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((m) => m.severity === 'ERROR')).toBe(true);

    const acme = await c.create('acme-service', { name: uniqueName('acme'), serverUrl: 'https://acme.example/directory' });
    await c.relationship('PATCH', 'virtual-host', vhost, 'acme-service', 'acme-service', acme);
    expect(await severities(c, 'virtual-host', vhost)).toEqual([]);
  });

  it('an HTTPS-enabled virtual host with neither certificate nor ACME service: ERROR', async () => {
    const { vhost } = await validSetup(c);
    await c.patch('virtual-host', vhost, { networkInterface: { https: { enabled: true } }, tls: { certificateMode: 'CERTIFICATE' } });
    const found = await about(c, 'virtual-host', vhost);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((m) => m.severity === 'ERROR')).toBe(true);
    await c.patch('virtual-host', vhost, { networkInterface: { https: { enabled: false } } });
    expect(await severities(c, 'virtual-host', vhost)).toEqual([]);
  });

  it('a mapping without back-end group: ERROR', async () => {
    const { vhost, mapping, group } = await validSetup(c);
    await c.relationship('DELETE', 'mapping', mapping, 'back-end-groups', 'back-end-group', [group]);
    expect(await severities(c, 'mapping', mapping)).toEqual(['ERROR']);
    // also when the group is deleted
    const other = await linkedMapping(c, vhost, group, {});
    expect(await severities(c, 'mapping', other)).toEqual([]);
    await c.call('DELETE', `/configuration/back-end-groups/${group}`);
    expect(await severities(c, 'mapping', other)).toEqual(['ERROR']);
  });

  it('a mapping without virtual host: WARNING', async () => {
    const { vhost, mapping } = await validSetup(c);
    await c.relationship('DELETE', 'virtual-host', vhost, 'mappings', 'mapping', [mapping]);
    expect(await severities(c, 'mapping', mapping)).toEqual(['WARNING']);
  });

  it.each([
    [1000, 'ERROR'],
    [-1000, 'ERROR'],
    [999, undefined],
    [-999, undefined],
  ] as const)('entryPath.priority %d: %s', async (priority, severity) => {
    const { mapping } = await validSetup(c);
    const reply = await c.patch('mapping', mapping, { entryPath: { priority } });
    expect(reply.status).toBe(200);
    expect(await severities(c, 'mapping', mapping)).toEqual(severity === undefined ? [] : [severity]);
  });

  it.each([
    [2147483648, 'ERROR'],
    [-1, 'ERROR'],
    [2147483647, undefined],
    [0, undefined],
  ] as const)('limits.general.maxRequestBodySize %d: %s', async (size, severity) => {
    const { mapping } = await validSetup(c);
    const reply = await c.patch('mapping', mapping, { limits: { general: { maxRequestBodySize: size } } });
    expect(reply.status).toBe(200);
    expect(await severities(c, 'mapping', mapping)).toEqual(severity === undefined ? [] : [severity]);
  });

  it('a back-end group without hosts: ERROR', async () => {
    const { group } = await validSetup(c);
    await c.patch('back-end-group', group, { backendHosts: [] });
    expect(await severities(c, 'back-end-group', group)).toEqual(['ERROR']);
    await c.patch('back-end-group', group, { backendHosts: [{ protocol: 'HTTP', hostName: 'back', port: 80 }] });
    expect(await severities(c, 'back-end-group', group)).toEqual([]);
  });

  it('messages name the object in detail', async () => {
    const { group } = await validSetup(c);
    const name = uniqueName('named-group');
    await c.patch('back-end-group', group, { name, backendHosts: [] });
    const [message] = await about(c, 'back-end-group', group);
    expect(String(message?.detail)).toContain(name);
  });

  describe('filters', () => {
    it('meta.severity==ERROR returns the ERRORs only, meta.severity==WARNING the WARNINGs', async () => {
      const { vhost, group } = await validSetup(c);
      const orphan = await c.create('mapping', VALID.mapping(uniqueName('orphan'))); // ERROR + WARNING
      const noHost = await linkedMapping(c, vhost, group, {});
      await c.relationship('DELETE', 'virtual-host', vhost, 'mappings', 'mapping', [noHost]); // WARNING only

      const errors = (await c.messages('filter=meta.severity==ERROR')).map(shapes);
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.every((m) => m.severity === 'ERROR')).toBe(true);
      expect(errors.some((m) => m.model.id === orphan)).toBe(true);
      expect(errors.some((m) => m.model.id === noHost)).toBe(false);

      const warnings = (await c.messages('filter=meta.severity==WARNING')).map(shapes);
      expect(warnings.every((m) => m.severity === 'WARNING')).toBe(true);
      expect(warnings.map((m) => m.model.id).sort()).toEqual([orphan, noHost].sort());

      const all = (await c.messages()).map(shapes);
      expect(all.length).toBe(errors.length + warnings.length);
    });

    it('the URL-encoded form of the filter answers the same', async () => {
      await c.create('back-end-group', { name: uniqueName('empty'), backendHosts: [] });
      const raw = await c.messages('filter=meta.severity==ERROR');
      const encoded = await c.messages('filter=meta.severity%3D%3DERROR');
      expect(raw.length).toBeGreaterThan(0);
      expect(encoded).toEqual(raw);
    });

    it('filters on the model the message is about', async () => {
      const group = await c.create('back-end-group', { name: uniqueName('empty'), backendHosts: [] });
      await c.create('mapping', VALID.mapping(uniqueName('orphan')));
      const byType = (await c.messages('filter=meta.model.type==back-end-group')).map(shapes);
      expect(byType.map((m) => m.model)).toEqual([{ type: 'back-end-group', id: group }]);
    });
  });

  it('filter on type selects the messages about objects of that type (reference: "filterable by meta.severity and type")', async () => {
    const group = await c.create('back-end-group', { name: uniqueName('empty'), backendHosts: [] });
    await c.create('mapping', VALID.mapping(uniqueName('orphan')));
    const byType = (await c.messages('filter=type==back-end-group')).map(shapes);
    expect(byType.map((m) => m.model)).toEqual([{ type: 'back-end-group', id: group }]);
  });

  it('messages are recomputed from the working copy of each session', async () => {
    await c.create('back-end-group', { name: uniqueName('empty'), backendHosts: [] });
    expect((await c.messages()).length).toBeGreaterThan(0);
    const other = await h.client().open(h.emulator.apiKey);
    expect(await other.messages()).toEqual([]);
  });
});

describe('the HTTPS rule without certificateMode (middle variant)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ variant: 'middle' });
  });
  afterAll(async () => {
    await h.close();
  });

  it('HTTPS enabled with no certificate: ERROR, cleared by linking a certificate', async () => {
    const c = await h.client().open(h.emulator.apiKey);
    const { vhost } = await validSetup(c);
    await c.patch('virtual-host', vhost, { networkInterface: { https: { enabled: true, http2Allowed: true } } });
    expect(await severities(c, 'virtual-host', vhost)).toEqual(['ERROR']);
    const cert = await c.create('ssl-certificate', { certType: 'SERVER_CERT', certificate: PEM });
    await c.relationship('PATCH', 'virtual-host', vhost, 'ssl-certificate', 'ssl-certificate', cert);
    expect(await severities(c, 'virtual-host', vhost)).toEqual([]);
  });
});

describe('activation and validator messages', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('activation is refused with 400 VALIDATION_FAILED while an ERROR exists, and the active configuration is unchanged', async () => {
    const c = await h.client().open(h.emulator.apiKey);
    const before = JSON.stringify(h.emulator.activeSnapshot());
    const { group } = await validSetup(c);
    await c.patch('back-end-group', group, { backendHosts: [] });
    const reply = await c.activate('must not land');
    expect(reply.status).toBe(400);
    expect(errorCode(reply)).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(h.emulator.activeSnapshot())).toBe(before);
    expect(JSON.stringify(h.emulator.activeSnapshot())).not.toContain('must not land');

    // fixing the error makes activation possible
    await c.patch('back-end-group', group, { backendHosts: [{ protocol: 'HTTP', hostName: 'fixed', port: 80 }] });
    expect((await c.activate('fixed')).status).toBe(200);
    const d = await h.client().open(h.emulator.apiKey);
    expect(await d.list('back-end-group')).toHaveLength(1);
  });

  it('WARNINGs alone do not prevent activation', async () => {
    const c = await h.client().open(h.emulator.apiKey);
    const { vhost, mapping } = await validSetup(c);
    await c.relationship('DELETE', 'virtual-host', vhost, 'mappings', 'mapping', [mapping]);
    expect(await severities(c, 'mapping', mapping)).toEqual(['WARNING']);
    expect((await c.activate('with a warning')).status).toBe(200);
  });
});
