import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { checkAttributes } from '../../../src/emulator/attributes.js';
import { defaultAttributes, fillItemDefaults, newObjectAttributes } from '../../../src/emulator/defaults.js';
import type { JsonObject } from '../../../src/emulator/model.js';
import { KINDS, VARIANTS } from '../../../src/kinds/index.js';
import type { ResourceType } from '../../../src/kinds/index.js';

const TYPES: readonly ResourceType[] = KINDS.map((k) => k.type);

/** The kinds whose emulator hooks name a file of recorded server defaults, with that file. */
const RECORDED = KINDS.flatMap((k) => (k.emulator.defaults.recorded === undefined ? [] : [[k.type, k.emulator.defaults.recorded] as const]));

const recorded = (file: string): JsonObject =>
  parse(readFileSync(new URL(`../../../server-defaults/${file}`, import.meta.url), 'utf8')) as JsonObject;

const at = (value: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value);

describe('newObjectAttributes', () => {
  it.each(TYPES.flatMap((t) => VARIANTS.map((v) => [t, v] as const)))(
    'the default tree of a %s in the %s variant is valid for that variant (a GET result can be PATCHed back)',
    (type, variant) => {
      const attrs = newObjectAttributes(type, variant, {});
      const check = checkAttributes(type, variant, attrs);
      expect(check.ok ? 'ok' : check.detail).toBe('ok');
    },
  );

  it('fills the recorded server defaults of a mapping', () => {
    const attrs = newObjectAttributes('mapping', 'latest', { name: 'shop' });
    expect(attrs.name).toBe('shop');
    expect(attrs.threatHandling).toBe('BLOCK');
    expect(at(attrs, 'timeouts.backend')).toBe(120);
    expect(at(attrs, 'limits.general.maxRequestBodySize')).toBe(104857600);
    expect(at(attrs, 'apiSecurity.apiPolicy.keyExtractionCookie.cookieName')).toBe('ApiKey');
    expect(attrs.labels).toEqual([]);
  });

  it('defaults name to the empty string', () => {
    expect(newObjectAttributes('mapping', 'latest', {}).name).toBe('');
    expect(newObjectAttributes('virtual-host', 'latest', {}).name).toBe('');
    expect(newObjectAttributes('back-end-group', 'latest', {}).name).toBe('');
    expect(newObjectAttributes('acme-service', 'latest', {}).name).toBe('');
    expect('name' in newObjectAttributes('ssl-certificate', 'latest', {})).toBe(false);
  });

  it('keeps only the virtual-host TLS attributes of the variant, adding defaults the recording lacks', () => {
    const tls = (v: 'earliest' | 'middle' | 'latest'): unknown => newObjectAttributes('virtual-host', v, {}).tls;
    expect(tls('earliest')).toMatchObject({ lowStrengthCiphersAllowed: false, letsEncryptEnabled: false });
    expect(tls('earliest')).not.toHaveProperty('protocol');
    expect(tls('earliest')).not.toHaveProperty('certificateMode');
    expect(tls('middle')).toMatchObject({ letsEncryptEnabled: false, protocolMode: 'DEFAULT', cipherSuiteMode: 'DEFAULT' });
    expect(tls('middle')).not.toHaveProperty('lowStrengthCiphersAllowed');
    expect(tls('middle')).not.toHaveProperty('signatureAlgorithmsMode');
    expect(tls('latest')).toMatchObject({
      certificateMode: 'CERTIFICATE',
      acmeChallengeType: 'TLS_ALPN_01',
      signatureAlgorithms: '',
      signatureAlgorithmsMode: 'DEFAULT',
      protocol: 'all -TLSv1 -TLSv1.1',
    });
    expect(tls('latest')).not.toHaveProperty('letsEncryptEnabled');
  });

  it('gives the earliest mapping the flat apiSecurity fields and the later ones the nested form', () => {
    const earliest = newObjectAttributes('mapping', 'earliest', {}).apiSecurity;
    expect(earliest).toMatchObject({ apiPolicyServiceEnabled: false, openApiEnforced: false, logOnly: false });
    expect(earliest).toHaveProperty('jsonParser.enabled');
    expect(earliest).not.toHaveProperty('apiPolicy');
    expect(earliest).not.toHaveProperty('graphql');
    const latest = newObjectAttributes('mapping', 'latest', {}).apiSecurity;
    expect(latest).toHaveProperty('graphql.enabled', false);
    expect(latest).not.toHaveProperty('apiPolicyServiceEnabled');
  });

  it('keeps every recorded default that exists in the middle variant', () => {
    expect(RECORDED.length).toBeGreaterThan(0);
    for (const [type, file] of RECORDED) {
      expect(newObjectAttributes(type, 'middle', {})).toMatchObject(recorded(file));
    }
  });

  it('gives an ssl-certificate and an acme-service sensible defaults', () => {
    expect(newObjectAttributes('ssl-certificate', 'latest', { certificate: 'PEM' })).toEqual({
      certType: 'SERVER_CERT',
      certificate: 'PEM',
      certificateChain: [],
      rootCaCertificate: '',
    });
    expect(newObjectAttributes('acme-service', 'latest', {})).toMatchObject({
      termsOfServiceAccepted: false,
      externalAccountBinding: { enabled: false, keyId: '' },
    });
  });

  it('merges given attributes deeply over the defaults', () => {
    const attrs = newObjectAttributes('virtual-host', 'latest', { networkInterface: { https: { enabled: false } } });
    expect(at(attrs, 'networkInterface.https')).toEqual({ enabled: false, http2Allowed: true, port: 443 });
    expect(at(attrs, 'networkInterface.http.port')).toBe(80);
  });

  it('shares default subtrees between objects (structural sharing keeps 20,000 mappings small)', () => {
    const a = newObjectAttributes('mapping', 'latest', { name: 'a', entryPath: { value: '/a' } });
    const b = newObjectAttributes('mapping', 'latest', { name: 'b', entryPath: { value: '/b' } });
    expect(a.access).toBe(b.access);
    expect(a.locking).toBe(b.locking);
    expect(a.application).toBe(b.application);
    expect(a.entryPath).not.toBe(b.entryPath);
    expect(at(a, 'entryPath.value')).toBe('/a');
    expect(at(b, 'entryPath.value')).toBe('/b');
    expect(at(a, 'entryPath.priority')).toBe(0);
  });

  it('freezes the shared defaults so no object can change another through them', () => {
    const a = newObjectAttributes('mapping', 'latest', {});
    expect(Object.isFrozen(a.access)).toBe(true);
    expect(Object.isFrozen(defaultAttributes('mapping', 'latest'))).toBe(true);
    expect(() => {
      (a.access as JsonObject).tokensEnabled = true;
    }).toThrow(TypeError);
    expect(at(newObjectAttributes('mapping', 'latest', {}), 'access.tokensEnabled')).toBe(false);
  });

  it('gives back-end hosts their item defaults and keeps what was sent', () => {
    const attrs = newObjectAttributes('back-end-group', 'latest', {
      backendHosts: [{ hostName: 'app1', port: 8080, protocol: 'HTTPS' }, { hostName: 'app2', weight: 5 }],
    });
    expect(attrs.backendHosts).toEqual([
      { hostName: 'app1', port: 8080, protocol: 'HTTPS', mode: 'ENABLED', spare: false, weight: 100 },
      { hostName: 'app2', port: 80, protocol: 'HTTP', mode: 'ENABLED', spare: false, weight: 5 },
    ]);
  });

  it('keeps the recorded default back-end host when none is given', () => {
    expect(newObjectAttributes('back-end-group', 'latest', {}).backendHosts).toEqual([
      { hostName: '', mode: 'ENABLED', protocol: 'HTTP', port: 80, spare: false, weight: 100 },
    ]);
  });
});

describe('fillItemDefaults', () => {
  it('fills items of a replaced list', () => {
    const attrs: JsonObject = { name: 'g', backendHosts: [{ hostName: 'x' }] };
    expect(fillItemDefaults('back-end-group', attrs)).toEqual({
      name: 'g',
      backendHosts: [{ hostName: 'x', mode: 'ENABLED', spare: false, weight: 100, protocol: 'HTTP', port: 80 }],
    });
    expect(attrs.backendHosts).toEqual([{ hostName: 'x' }]);
  });

  it('fills nested objects of items and the items of lists inside items (a replaced allow rule)', () => {
    const filled = fillItemDefaults('mapping', { allowRules: [{ name: 'r', httpMethodPattern: { pattern: 'GET' }, allowRuleParameters: [{ mandatory: true }] }] });
    expect(filled.allowRules).toEqual([
      {
        name: 'r',
        enabled: true,
        logOnly: false,
        pathPattern: { pattern: '', caseIgnored: false, inverted: false },
        httpMethodPattern: { pattern: 'GET', caseIgnored: false, inverted: false },
        contentTypePattern: { pattern: '', caseIgnored: false, inverted: false },
        allowRuleParameters: [
          { mandatory: true, parameterNamePattern: { pattern: '', caseIgnored: false, inverted: false }, parameterValuePattern: { pattern: '', caseIgnored: false, inverted: false } },
        ],
      },
    ]);
  });

  it('returns the same object when every item is complete or the type has no item defaults', () => {
    const complete: JsonObject = {
      backendHosts: [{ hostName: 'x', mode: 'DISABLED', spare: true, weight: 1, protocol: 'HTTPS', port: 1 }],
    };
    expect(fillItemDefaults('back-end-group', complete)).toBe(complete);
    const mapping: JsonObject = { name: 'm' };
    expect(fillItemDefaults('mapping', mapping)).toBe(mapping);
    const noList: JsonObject = { name: 'g' };
    expect(fillItemDefaults('back-end-group', noList)).toBe(noList);
  });
});
