import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAttributes, isJsonObject, mergeAttributes, readableAttributes } from '../../../src/emulator/attributes.js';
import { newObjectAttributes } from '../../../src/emulator/defaults.js';
import type { Json, JsonObject } from '../../../src/emulator/model.js';
import { KINDS, VARIANTS } from '../../../src/kinds/index.js';

describe('checkAttributes', () => {
  it('accepts valid attributes and returns them unchanged when nothing needs coercion', () => {
    const attrs = { name: 'shop', keepAliveTimeout: 5, networkInterface: { http: { port: 8080 } } };
    const result = checkAttributes('virtual-host', 'latest', attrs);
    expect(result).toEqual({ ok: true, value: attrs });
    if (result.ok) expect(result.value).toBe(attrs);
  });

  it('coerces "true"/"false" strings where the schema says boolean, without touching the input', () => {
    const attrs = { enableMaintenancePage: 'true', entryPath: { regexFormatEnforced: 'false', value: 'true' } };
    const result = checkAttributes('mapping', 'middle', attrs);
    expect(result).toEqual({
      ok: true,
      value: { enableMaintenancePage: true, entryPath: { regexFormatEnforced: false, value: 'true' } },
    });
    expect(attrs.enableMaintenancePage).toBe('true');
  });

  it('coerces string booleans inside list items', () => {
    const result = checkAttributes('back-end-group', 'latest', {
      backendHosts: [{ hostName: 'a', spare: 'true' }, { hostName: 'b', spare: false }],
    });
    expect(result.ok && result.value.backendHosts).toEqual([
      { hostName: 'a', spare: true },
      { hostName: 'b', spare: false },
    ]);
  });

  it('does not coerce other strings where a boolean is expected', () => {
    expect(checkAttributes('mapping', 'latest', { enableMaintenancePage: 'yes' })).toEqual({
      ok: false,
      detail: "'enableMaintenancePage' must be a boolean",
    });
  });

  it('names an unknown nested attribute by its dotted path', () => {
    expect(checkAttributes('virtual-host', 'latest', { tls: { fooBar: 1 } })).toEqual({
      ok: false,
      detail: "unknown attribute 'tls.fooBar'",
    });
  });

  it('reports wrong types, with the article of the type', () => {
    expect(checkAttributes('virtual-host', 'latest', { keepAliveTimeout: 'ten' })).toEqual({
      ok: false,
      detail: "'keepAliveTimeout' must be an integer",
    });
    expect(checkAttributes('virtual-host', 'latest', { keepAliveTimeout: 1.5 })).toEqual({
      ok: false,
      detail: "'keepAliveTimeout' must be an integer",
    });
    expect(checkAttributes('mapping', 'latest', { labels: 'a' })).toEqual({ ok: false, detail: "'labels' must be an array" });
  });

  it('lists the allowed values of an enum', () => {
    expect(checkAttributes('mapping', 'latest', { threatHandling: 'DROP' })).toEqual({
      ok: false,
      detail: "'threatHandling' must be one of BLOCK, TERMINATE_SESSION, NOTIFY",
    });
  });

  it('names array elements by index', () => {
    const result = checkAttributes('back-end-group', 'latest', { backendHosts: [{ hostName: 'a' }, { port: 'x' }] });
    expect(result).toEqual({ ok: false, detail: "'backendHosts[1].port' must be an integer" });
  });

  it('puts unknown attributes first when there are several problems', () => {
    const result = checkAttributes('virtual-host', 'latest', { keepAliveTimeout: 'x', bogus: true });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.detail).toBe("unknown attribute 'bogus'; 'keepAliveTimeout' must be an integer");
  });

  it('rejects attributes that are not an object', () => {
    for (const bad of [null, [], 'x', 3]) {
      expect(checkAttributes('mapping', 'latest', bad)).toEqual({ ok: false, detail: 'attributes must be an object' });
    }
  });

  it('accepts numbers outside the reference ranges (the validator reports them)', () => {
    expect(checkAttributes('mapping', 'latest', { entryPath: { priority: 5000 } }).ok).toBe(true);
    expect(checkAttributes('mapping', 'latest', { limits: { general: { maxRequestBodySize: -1 } } }).ok).toBe(true);
  });

  it('rejects an attribute of another variant like an unknown one', () => {
    expect(checkAttributes('virtual-host', 'latest', { tls: { letsEncryptEnabled: true } })).toEqual({
      ok: false,
      detail: "unknown attribute 'tls.letsEncryptEnabled'",
    });
    expect(checkAttributes('virtual-host', 'earliest', { tls: { certificateMode: 'CERTIFICATE' } })).toEqual({
      ok: false,
      detail: "unknown attribute 'tls.certificateMode'",
    });
    expect(checkAttributes('virtual-host', 'middle', { tls: { lowStrengthCiphersAllowed: false } }).ok).toBe(false);
    expect(checkAttributes('virtual-host', 'earliest', { tls: { lowStrengthCiphersAllowed: false } }).ok).toBe(true);
    expect(checkAttributes('mapping', 'earliest', { apiSecurity: { graphql: { enabled: true } } })).toEqual({
      ok: false,
      detail: "unknown attribute 'apiSecurity.graphql'",
    });
    expect(checkAttributes('mapping', 'latest', { apiSecurity: { openApiEnforced: true } }).ok).toBe(false);
    expect(checkAttributes('mapping', 'earliest', { apiSecurity: { openApiEnforced: true } }).ok).toBe(true);
  });

  it('accepts write-only secrets as plain strings, never as file sources', () => {
    expect(checkAttributes('ssl-certificate', 'latest', { privateKey: 'PEM', passphrase: 'pw' }).ok).toBe(true);
    expect(checkAttributes('ssl-certificate', 'latest', { privateKey: { fromFile: 'key.pem' } }).ok).toBe(false);
  });
});

describe('mergeAttributes', () => {
  it('merges nested objects deeply and keeps siblings (PATCH rule 4)', () => {
    const base: JsonObject = {
      name: 'm',
      ipRules: { ipAddressBlacklists: { logOnly: false, vendorThreatCategories: 'X' }, ipAddressWhitelists: { logOnly: false } },
    };
    const merged = mergeAttributes(base, { ipRules: { ipAddressBlacklists: { logOnly: true } } });
    expect(merged).toEqual({
      name: 'm',
      ipRules: { ipAddressBlacklists: { logOnly: true, vendorThreatCategories: 'X' }, ipAddressWhitelists: { logOnly: false } },
    });
  });

  it('replaces arrays whole (PATCH rule 3) and scalars', () => {
    const base: JsonObject = { labels: ['a', 'b'], backendPath: '/x', entryPath: { value: '/' } };
    expect(mergeAttributes(base, { labels: ['c'], backendPath: '/y', entryPath: 'oops' })).toEqual({
      labels: ['c'],
      backendPath: '/y',
      entryPath: 'oops',
    });
  });

  it('shares untouched subtrees of base and does not modify its arguments', () => {
    const base: JsonObject = { a: { deep: { x: 1 } }, b: { y: 2 } };
    const patch: JsonObject = { b: { z: 3 } };
    const frozenBase = structuredClone(base);
    const merged = mergeAttributes(base, patch);
    expect(merged.a).toBe(base.a);
    expect(merged.b).not.toBe(base.b);
    expect(merged).not.toBe(base);
    expect(base).toEqual(frozenBase);
    expect(patch).toEqual({ b: { z: 3 } });
  });

  it('keeps a __proto__ member of a parsed body as plain data', () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}}') as JsonObject;
    const merged = mergeAttributes({ a: 1 }, patch);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.hasOwn(merged, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('works on frozen trees', () => {
    const base = Object.freeze({ a: Object.freeze({ x: 1 }) }) as Readonly<JsonObject>;
    expect(mergeAttributes(base, { a: { y: 2 } })).toEqual({ a: { x: 1, y: 2 } });
  });
});

describe('readableAttributes', () => {
  it('removes the write-only passphrase of an ssl-certificate and keeps its private key as stored', () => {
    const stored: JsonObject = { certificate: 'C', privateKey: 'K', passphrase: 'P', certificateChain: [] };
    expect(readableAttributes('ssl-certificate', stored)).toEqual({ certificate: 'C', privateKey: 'K', certificateChain: [] });
    expect(stored.passphrase).toBe('P');
  });

  it('removes a nested write-only attribute and keeps its siblings', () => {
    const stored: JsonObject = { name: 'acme', externalAccountBinding: { enabled: true, keyId: 'k', hmacKey: 'secret' } };
    expect(readableAttributes('acme-service', stored)).toEqual({
      name: 'acme',
      externalAccountBinding: { enabled: true, keyId: 'k' },
    });
  });

  it('returns the stored object itself when there is nothing to hide', () => {
    const stored: JsonObject = { name: 'm', labels: ['a'] };
    expect(readableAttributes('mapping', stored)).toBe(stored);
    const cert: JsonObject = { certificate: 'C' };
    expect(readableAttributes('ssl-certificate', cert)).toBe(cert);
  });
});

describe('properties', () => {
  const json = fc.jsonValue() as fc.Arbitrary<Json>;
  const object = fc.dictionary(fc.string({ maxLength: 4 }), json, { maxKeys: 6 });

  it('mergeAttributes: patch members win, objects merge, untouched members are shared, inputs unchanged', () => {
    fc.assert(
      fc.property(object, object, (base, patch) => {
        const baseBefore = structuredClone(base);
        const patchBefore = structuredClone(patch);
        const merged = mergeAttributes(base, patch);
        for (const [key, value] of Object.entries(patch)) {
          const old = Object.hasOwn(base, key) ? base[key] : undefined;
          if (isJsonObject(old) && isJsonObject(value)) expect(merged[key]).toEqual(mergeAttributes(old, value));
          else expect(merged[key]).toBe(value);
        }
        for (const key of Object.keys(base)) if (!Object.hasOwn(patch, key)) expect(merged[key]).toBe(base[key]);
        expect(Object.keys(merged).sort()).toEqual([...new Set([...Object.keys(base), ...Object.keys(patch)])].sort());
        expect(base).toEqual(baseBefore);
        expect(patch).toEqual(patchBefore);
      }),
    );
  });

  it('checkAttributes: a valid tree with its booleans sent as strings comes back as the tree', () => {
    const stringify = (value: Json): Json => {
      if (typeof value === 'boolean') return String(value);
      if (Array.isArray(value)) return value.map(stringify);
      if (isJsonObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stringify(v)]));
      return value;
    };
    for (const variant of VARIANTS) {
      for (const { type } of KINDS) {
        const tree = newObjectAttributes(type, variant, {});
        expect(checkAttributes(type, variant, stringify(tree))).toEqual({ ok: true, value: tree });
      }
    }
  });

  it('readableAttributes never returns a write-only attribute and keeps every other one', () => {
    fc.assert(
      fc.property(object, fc.string(), fc.string(), (rest, key, pass) => {
        const stored: JsonObject = { ...rest, privateKey: key, passphrase: pass };
        const readable = readableAttributes('ssl-certificate', stored);
        expect(readable).not.toHaveProperty('passphrase');
        expect(readable.privateKey).toBe(key);
        for (const k of Object.keys(rest)) if (k !== 'privateKey' && k !== 'passphrase') expect(readable[k]).toBe(rest[k]);
      }),
    );
  });
});
