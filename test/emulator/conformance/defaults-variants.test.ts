/**
 * Server defaults (docs/gateway-api.md "Attributes and server defaults" and
 * server-defaults/*.yaml), write-only attributes, and variants (docs/gateway-api.md "Variants").
 */
import { variantOfVersion } from '../../../src/engine/variant.js';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretAttributes, wireSchema, writeOnlyAttributes } from '../../../src/schema/index.js';
import type { JsonSchema } from '../../../src/schema/index.js';
import { at, COLLECTION, errorCode, one, PEM, startHarness, uniqueName, VALID, useAdminSession } from './client.js';
import type { Client, Harness } from './client.js';

type Variant = 'earliest' | 'middle' | 'latest';
const VARIANTS: Variant[] = ['earliest', 'middle', 'latest'];

/** The recorded server defaults of a kind (the shared reference data). */
function serverDefaults(kind: 'mapping' | 'virtual-host' | 'back-end-group'): Record<string, unknown> {
  return parse(readFileSync(new URL(`../../../server-defaults/${kind}.yaml`, import.meta.url), 'utf8')) as Record<string, unknown>;
}

/** `value` without the object members that the variant's attribute schema does not have. */
function forVariant(value: unknown, schema: JsonSchema | undefined): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || schema?.properties === undefined) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const childSchema = schema.properties[key];
    if (childSchema !== undefined) out[key] = forVariant(child, childSchema);
  }
  return out;
}

function expectedDefaults(kind: 'mapping' | 'virtual-host' | 'back-end-group', variant: Variant): Record<string, unknown> {
  return forVariant(serverDefaults(kind), wireSchema(kind, variant, { keepRanges: false })) as Record<string, unknown>;
}

describe.each(VARIANTS)('server defaults on the %s variant', (variant) => {
  let c: Client;
  useAdminSession((_harness, client) => {
    c = client;
  }, { variant });

  it('a mapping created with only a name returns the full default tree of server-defaults/mapping.yaml', async () => {
    const name = uniqueName('bare');
    const reply = await c.call('POST', '/configuration/mappings', { json: { data: { type: 'mapping', attributes: { name } } } });
    expect(reply.status).toBe(201);
    const expected = { ...expectedDefaults('mapping', variant), name };
    expect(one(reply).attributes).toMatchObject(expected);
    expect((await c.read('mapping', one(reply).id)).attributes).toMatchObject(expected);
  });

  it('a virtual host created with only a name returns the default tree of server-defaults/virtual-host.yaml', async () => {
    const name = uniqueName('bare');
    const id = await c.create('virtual-host', { name });
    expect((await c.read('virtual-host', id)).attributes).toMatchObject({ ...expectedDefaults('virtual-host', variant), name });
  });

  it('a back-end group created with only protocol/hostName/port hosts gets mode, spare and weight filled', async () => {
    const id = await c.create('back-end-group', {
      name: uniqueName('hosts'),
      backendHosts: [
        { protocol: 'HTTP', hostName: 'app1.internal', port: 8080 },
        { protocol: 'HTTPS', hostName: 'app2.internal', port: 8443 },
      ],
    });
    const read = await c.read('back-end-group', id);
    expect(read.attributes.backendHosts).toEqual([
      { protocol: 'HTTP', hostName: 'app1.internal', port: 8080, mode: 'ENABLED', spare: false, weight: 100 },
      { protocol: 'HTTPS', hostName: 'app2.internal', port: 8443, mode: 'ENABLED', spare: false, weight: 100 },
    ]);
    const { backendHosts: _hosts, ...rest } = expectedDefaults('back-end-group', variant);
    expect(read.attributes).toMatchObject(rest);
  });

  it('given attributes override the defaults, nested siblings keep their defaults', async () => {
    const id = await c.create('mapping', { name: uniqueName('given'), entryPath: { value: '/given/', priority: 5 } });
    const read = await c.read('mapping', id);
    expect(read.attributes.entryPath).toEqual({ ...(at(expectedDefaults('mapping', variant), 'entryPath') as object), value: '/given/', priority: 5 });
  });

  it('the TLS attributes of the variant are all returned (full attribute tree)', async () => {
    const expected: Record<Variant, string[]> = {
      earliest: ['lowStrengthCiphersAllowed', 'letsEncryptEnabled'],
      middle: ['letsEncryptEnabled', 'protocol', 'protocolMode', 'cipherSuite', 'cipherSuiteMode'],
      latest: ['protocol', 'protocolMode', 'cipherSuite', 'cipherSuiteMode', 'certificateMode', 'acmeChallengeType', 'signatureAlgorithms', 'signatureAlgorithmsMode'],
    };
    const vhost = await c.read('virtual-host', await c.create('virtual-host', { name: uniqueName('tls') }));
    expect(Object.keys(at(vhost.attributes, 'tls') as object)).toEqual(expect.arrayContaining(expected[variant]));
  });

  it('attributes of other variants are never returned', async () => {
    const vhost = await c.read('virtual-host', await c.create('virtual-host', { name: uniqueName('v') }));
    const tls = Object.keys(at(vhost.attributes, 'tls') as object);
    const allowed = Object.keys(wireSchema('virtual-host', variant, { keepRanges: false }).properties?.tls?.properties ?? {});
    for (const key of tls) expect(allowed).toContain(key);
    if (variant === 'latest') expect(tls).not.toContain('letsEncryptEnabled');
    if (variant === 'earliest') expect(tls).not.toContain('cipherSuite');
  });
});

describe('sensible defaults for the kinds without recorded server defaults', () => {
  let c: Client;
  useAdminSession((_harness, client) => {
    c = client;
  });

  /** Every readable property of the schema, with a value of the schema's type (objects recursively). */
  function expectFullTree(value: unknown, schema: JsonSchema, path: string, writeOnly: ReadonlySet<string>): void {
    for (const [key, child] of Object.entries(schema.properties ?? {})) {
      const where = path === '' ? key : `${path}.${key}`;
      if (writeOnly.has(where) || child.type === undefined) continue;
      const v = (value as Record<string, unknown>)[key];
      expect(v, where).toBeDefined();
      const type = child.type;
      if (type === 'array') expect(Array.isArray(v), where).toBe(true);
      else if (type === 'integer') expect(Number.isInteger(v), where).toBe(true);
      else if (type === 'object') expectFullTree(v, child, where, writeOnly);
      else expect(typeof v, where).toBe(type);
    }
  }

  it.each([
    ['ssl-certificate', { certificate: PEM }],
    ['acme-service', { name: 'acme-defaults' }],
  ] as const)('a %s created with one attribute returns every readable attribute', async (type, attributes) => {
    const read = await c.read(type, await c.create(type, attributes));
    const writeOnly = new Set(writeOnlyAttributes(type).map((p) => p.path));
    expect(writeOnly.size).toBeGreaterThan(0);
    // A readable secret that was never given has no value to return (a certificate uploaded without its key).
    const unset = new Set(secretAttributes(type).map((p) => p.path).filter((p) => at(attributes, p) === undefined));
    expectFullTree(read.attributes, wireSchema(type, 'latest', { keepRanges: false }), '', new Set([...writeOnly, ...unset]));
    for (const path of writeOnly) expect(at(read.attributes, path), path).toBeUndefined();
  });
});

describe('write-only attributes are never returned', () => {
  let h: Harness;
  let c: Client;
  useAdminSession((harness, client) => {
    h = harness;
    c = client;
  });

  const SECRET_KEY = '-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWtleS1tYXRlcmlhbA==\n-----END PRIVATE KEY-----\n';
  const ENCRYPTED_KEY = '-----BEGIN ENCRYPTED PRIVATE KEY-----\nZW5jcnlwdGVkLWtleS1tYXRlcmlhbA==\n-----END ENCRYPTED PRIVATE KEY-----\n';
  const SECRET_PASS = 'correct horse battery staple';

  it('privateKey is returned as uploaded by the create answer, GET and list; passphrase never', async () => {
    const reply = await c.call('POST', '/configuration/ssl-certificates', {
      json: { data: { type: 'ssl-certificate', attributes: { certType: 'SERVER_CERT', certificate: PEM, privateKey: ENCRYPTED_KEY, passphrase: SECRET_PASS } } },
    });
    expect(reply.status).toBe(201);
    const id = one(reply).id;
    expect(one(reply).attributes.certificate).toBe(PEM);
    expect(one(reply).attributes.privateKey).toBe(ENCRYPTED_KEY);
    expect(one(reply).attributes).not.toHaveProperty('passphrase');
    expect(reply.text).not.toContain(SECRET_PASS);

    const read = await c.call('GET', `/configuration/ssl-certificates/${id}`);
    expect(one(read).attributes.privateKey).toBe(ENCRYPTED_KEY);
    expect(one(read).attributes).not.toHaveProperty('passphrase');
    expect(read.text).not.toContain(SECRET_PASS);
    const list = await c.call('GET', '/configuration/ssl-certificates');
    expect(list.text).not.toContain(SECRET_PASS);
    expect(list.text).toContain(JSON.stringify(ENCRYPTED_KEY).slice(1, -1));
  });

  it('a privateKey and passphrase set by PATCH: the key is returned as sent, the passphrase never', async () => {
    const id = await c.create('ssl-certificate', { certType: 'SERVER_CERT', certificate: PEM });
    expect((await c.read('ssl-certificate', id)).attributes).not.toHaveProperty('privateKey');
    const reply = await c.patch('ssl-certificate', id, { privateKey: SECRET_KEY, passphrase: SECRET_PASS });
    expect([200, 204]).toContain(reply.status);
    expect(reply.text).not.toContain(SECRET_PASS);
    const read = await c.read('ssl-certificate', id);
    expect(read.attributes).not.toHaveProperty('passphrase');
    expect(read.attributes.privateKey).toBe(SECRET_KEY);
    expect(read.attributes.certificate).toBe(PEM);
  });

  it('the ACME external account HMAC key is write-only too', async () => {
    const hmac = 'aG1hYy1zZWNyZXQtdmFsdWU';
    const id = await c.create('acme-service', { name: uniqueName('acme'), externalAccountBinding: { enabled: true, keyId: 'kid-1', hmacKey: hmac } });
    const reply = await c.call('GET', `/configuration/acme-services/${id}`);
    expect(at(one(reply).attributes, 'externalAccountBinding.keyId')).toBe('kid-1');
    expect(reply.text).not.toContain(hmac);
  });

  it('write-only values survive activation and reload without ever being returned; the key is read back as stored', async () => {
    const id = await c.create('ssl-certificate', { certType: 'SERVER_CERT', certificate: PEM, privateKey: SECRET_KEY, passphrase: SECRET_PASS });
    expect((await c.activate('with a key')).status).toBe(200);
    const d = await h.client().open(h.emulator.apiKey);
    const reply = await d.call('GET', `/configuration/ssl-certificates/${id}`);
    expect(reply.status).toBe(200);
    expect(one(reply).attributes.privateKey).toBe(SECRET_KEY);
    expect(reply.text).not.toContain(SECRET_PASS);
    expect(JSON.stringify(h.emulator.requestLog)).not.toContain(SECRET_PASS);
  });
});

describe('variants', () => {
  it.each([
    ['earliest', '7.8'],
    ['middle', '8.2'],
    ['latest', '8.6'],
  ] as const)('GET /system/status/node on %s reports version %s', async (variant, version) => {
    const h = await startHarness({ variant });
    try {
      expect(h.emulator.variant).toBe(variant);
      const c = h.client();
      await c.createSession(h.emulator.apiKey);
      const reply = await c.call('GET', '/system/status/node');
      expect(reply.status).toBe(200);
      expect(one(reply).attributes.version).toBe(version);
      // major.minor, as clients that convert it to a number (float) and the vendor's library expect, and read back as this variant.
      expect(String(Number(one(reply).attributes.version))).toBe(version);
      expect(variantOfVersion(version)).toBe(variant);
    } finally {
      await h.close();
    }
  });

  const TLS_CASES = [
    // [attribute, patch, variants that accept it]
    ['tls.certificateMode', { tls: { certificateMode: 'CERTIFICATE' } }, ['latest']],
    ['tls.acmeChallengeType', { tls: { acmeChallengeType: 'DNS_01' } }, ['latest']],
    ['tls.signatureAlgorithmsMode', { tls: { signatureAlgorithmsMode: 'DEFAULT' } }, ['latest']],
    ['tls.lowStrengthCiphersAllowed', { tls: { lowStrengthCiphersAllowed: false } }, ['earliest']],
    ['tls.letsEncryptEnabled', { tls: { letsEncryptEnabled: false } }, ['earliest', 'middle']],
    ['tls.protocolMode', { tls: { protocolMode: 'DEFAULT' } }, ['middle', 'latest']],
    ['tls.cipherSuite', { tls: { cipherSuite: 'HIGH' } }, ['middle', 'latest']],
  ] as const;

  describe.each(VARIANTS)('virtual host TLS attributes on %s', (variant) => {
    let h: Harness;
    let c: Client;
    beforeAll(async () => {
      h = await startHarness({ variant });
      c = await h.client().open(h.emulator.apiKey);
    });
    afterAll(async () => {
      await h.close();
    });

    it.each(TLS_CASES)('%s: accepted only where the variant has it, else 400 INVALID_VALUE', async (_label, attributes, accepted) => {
      const id = await c.create('virtual-host', VALID.virtualHost(uniqueName('var')));
      const reply = await c.patch('virtual-host', id, attributes);
      if ((accepted as readonly string[]).includes(variant)) {
        expect(reply.status).toBe(200);
        expect(one(reply).attributes.tls).toMatchObject(attributes.tls);
      } else {
        expect(reply.status).toBe(400);
        expect(errorCode(reply)).toBe('INVALID_VALUE');
        expect(at((await c.read('virtual-host', id)).attributes, 'tls')).not.toMatchObject(attributes.tls);
      }
    });
  });

  it.each([
    ['earliest', 400, 200],
    ['middle', 200, 400],
    ['latest', 200, 400],
  ] as const)('mapping apiSecurity: nested (graphql) vs flat (logOnly) on %s', async (variant, nested, flat) => {
    const h = await startHarness({ variant });
    try {
      const c = await h.client().open(h.emulator.apiKey);
      const id = await c.create('mapping', VALID.mapping(uniqueName('api')));
      const a = await c.patch('mapping', id, { apiSecurity: { graphql: { enabled: true } } });
      expect(a.status).toBe(nested);
      const b = await c.patch('mapping', id, { apiSecurity: { logOnly: true } });
      expect(b.status).toBe(flat);
      if (nested === 400) expect(errorCode(a)).toBe('INVALID_VALUE');
      if (flat === 400) expect(errorCode(b)).toBe('INVALID_VALUE');
    } finally {
      await h.close();
    }
  });

  it('an attribute of another variant is rejected on create as well', async () => {
    const h = await startHarness({ variant: 'earliest' });
    try {
      const c = await h.client().open(h.emulator.apiKey);
      const name = uniqueName('var');
      const reply = await c.call('POST', `/configuration/${COLLECTION['virtual-host']}`, {
        json: { data: { type: 'virtual-host', attributes: { name, tls: { certificateMode: 'CERTIFICATE' } } } },
      });
      expect(reply.status).toBe(400);
      expect(errorCode(reply)).toBe('INVALID_VALUE');
      expect(await c.list('virtual-host', `filter=name==${name}`)).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
