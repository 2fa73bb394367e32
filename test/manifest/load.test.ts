/**
 * loadManifests on valid input: what the reconciler receives (templates merged, overlays
 * applied, variables and secrets resolved, name set, relationships as lists, positions).
 */
import { Readable } from 'node:stream';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { hasErrors, loadManifests } from '../../src/manifest/index.js';
import type { ManifestDocument } from '../../src/manifest/index.js';
import { project } from './fixture.js';
import { pemPrivateKey, yamlQuoted } from '../support/private-keys.js';
import { EXAMPLE_SHOP_TLS_KEY, EXAMPLE_WILDCARD_TLS_KEY } from '../../src/demo/example-keys.js';

/** The key of `shop-tls`, encrypted with SHOP_PASSPHRASE. */
const SHOP_KEY = pemPrivateKey('pass-from-env').trimEnd();
/** An unencrypted key. */
const PLAIN_KEY = pemPrivateKey().trimEnd();

const find = (docs: readonly ManifestDocument[], kind: string, name: string): ManifestDocument | undefined =>
  docs.find((d) => d.kind === kind && d.name === name);

const BASE = {
  'manifests/templates.yaml': `# yaml-language-server: $schema=../schemas/manifest.schema.json
apiVersion: gwops/v1
kind: mapping-template
name: strict
extends: baseline
attributes:
  threatHandling: TERMINATE_SESSION
  labels: [strict]
---
apiVersion: gwops/v1
kind: mapping-template
name: baseline
attributes:
  operationalMode: PRODUCTION
  threatHandling: BLOCK
  labels: [baseline, shared]
  access: { authenticationFlow: REDIRECT, tokensEnabled: false }
`,
  'manifests/mappings.yaml': `apiVersion: gwops/v1
kind: mapping
name: shop-api
extends: strict
attributes:
  entryPath: { value: /shop/api/, priority: 10 }
  backendPath: \${BACKEND_PATH:-/api/}
  tenant: \${TENANT}
  labels: [shop]
  access: { tokensEnabled: true }
  application: { response: { errorPage: { rewrites: [] } } }
relationships:
  back-end-groups: [shop-backend]
---
apiVersion: gwops/v1
kind: mapping
name: shop-web
attributes:
  entryPath: { value: /shop/, priority: 10 }
  labels: [shop]
  expertSettings: { apache: { settings: "cost: $\${PRICE}" } }
`,
  'manifests/infra.yaml': `apiVersion: gwops/v1
kind: virtual-host
name: shop
attributes:
  hostName: shop.example.com
  tls: { certificateMode: CERTIFICATE }
relationships:
  mappings: [shop-api, shop-web]
---
apiVersion: gwops/v1
kind: ssl-certificate
name: shop-tls
attributes:
  certType: SERVER_CERT
  privateKey: { fromFile: ../keys/shop.key }
  passphrase: { fromEnv: SHOP_PASSPHRASE }
relationships:
  virtual-hosts: [shop]
---
apiVersion: gwops/v1
kind: back-end-group
name: shop-backend
attributes:
  backendHosts: [{ protocol: HTTP, hostName: shop.internal, port: 8080 }]
`,
  'keys/shop.key': `${SHOP_KEY}\n`,
  'gwops.yaml': `manifests: [manifests]
targets:
  production: { url: https://gw.example.com/airlock/rest, apiKeyEnv: GWOPS_API_KEY }
  staging:
    url: https://gw-staging.example.com/airlock/rest
    variant: middle
    overlays: [manifests/overlays/staging]
ownership:
  mapping: ['labels==shop']
  virtual-host: 'name=@shop'
massDeleteShare: 0.25
`,
  'manifests/overlays/staging/mappings.yaml': `apiVersion: gwops/v1
kind: mapping
name: shop-api
attributes:
  operationalMode: INTEGRATION
  tenant: null
relationships:
  virtual-hosts: [shop]
`,
  'manifests/overlays/staging/vh.patch.yaml': `kind: virtual-host
name: shop
patch:
  - { op: replace, path: /attributes/hostName, value: shop-staging.example.com }
  - { op: remove, path: /attributes/tls }
`,
};

const ENV = { TENANT: 'retail', SHOP_PASSPHRASE: 'pass-from-env' };

describe('loadManifests', () => {
  it('resolves templates, variables, secrets, names and relationships', async () => {
    const dir = project(BASE);
    const result = await loadManifests({ paths: [], cwd: dir, env: ENV });
    expect(result.diagnostics).toEqual([]);
    expect(result.variant).toBe('latest');
    // Files in name order (infra, mappings, templates); templates are merged away.
    expect(result.documents.map((d) => `${d.kind}/${d.name}`)).toEqual([
      'virtual-host/shop',
      'ssl-certificate/shop-tls',
      'back-end-group/shop-backend',
      'mapping/shop-api',
      'mapping/shop-web',
    ]);
    const api = find(result.documents, 'mapping', 'shop-api');
    expect(api?.attributes).toEqual({
      operationalMode: 'PRODUCTION',
      threatHandling: 'TERMINATE_SESSION',
      labels: ['shop'],
      access: { authenticationFlow: 'REDIRECT', tokensEnabled: true },
      entryPath: { value: '/shop/api/', priority: 10 },
      backendPath: '/api/',
      tenant: 'retail',
      application: { response: { errorPage: { rewrites: [] } } },
      name: 'shop-api',
    });
    expect(api?.relationships).toEqual({ 'back-end-groups': ['shop-backend'] });
    expect(find(result.documents, 'mapping', 'shop-web')?.attributes.expertSettings).toEqual({ apache: { settings: 'cost: ${PRICE}' } });
    const vh = find(result.documents, 'virtual-host', 'shop');
    expect(vh?.relationships).toEqual({ mappings: ['shop-api', 'shop-web'] });
    const cert = find(result.documents, 'ssl-certificate', 'shop-tls');
    expect(cert?.attributes).toEqual({
      certType: 'SERVER_CERT',
      privateKey: SHOP_KEY,
      passphrase: 'pass-from-env',
    });
    expect(cert?.attributes).not.toHaveProperty('name');
    expect(result.locate('back-end-group', 'shop-backend')).toEqual({ file: path.join('manifests', 'infra.yaml'), line: 20, column: 1 });
    expect(result.locate('mapping', 'nope')).toBeUndefined();
    expect(api?.source).toEqual({ file: path.join('manifests', 'mappings.yaml'), line: 1, column: 1 });
  });

  it('reads the project file: targets with absolute paths, ownership lists, defaults', async () => {
    const dir = project(BASE);
    const { project: p } = await loadManifests({ paths: [], cwd: dir, env: ENV });
    expect(p.file).toBe(path.join(dir, 'gwops.yaml'));
    expect(p.manifests).toEqual([path.join(dir, 'manifests')]);
    expect(p.targets.staging).toEqual({
      url: 'https://gw-staging.example.com/airlock/rest',
      variant: 'middle',
      overlays: [path.join(dir, 'manifests/overlays/staging')],
    });
    expect(p.ownership).toEqual({ mapping: ['labels==shop'], 'virtual-host': ['name=@shop'] });
    expect(p.allowExternalLinks).toBe(false);
    expect(p.massDeleteShare).toBe(0.25);
  });

  it("applies a target's overlays (merge patch and JSON Patch) and its variant", async () => {
    const dir = project(BASE);
    const result = await loadManifests({ paths: [], cwd: dir, env: ENV, target: 'staging' });
    expect(result.diagnostics).toEqual([]);
    expect(result.variant).toBe('middle');
    const api = find(result.documents, 'mapping', 'shop-api');
    expect(api?.attributes.operationalMode).toBe('INTEGRATION');
    expect(api?.attributes).not.toHaveProperty('tenant');
    expect(api?.relationships).toEqual({ 'back-end-groups': ['shop-backend'], 'virtual-hosts': ['shop'] });
    const vh = find(result.documents, 'virtual-host', 'shop');
    expect(vh?.attributes).toEqual({ hostName: 'shop-staging.example.com', name: 'shop' });
  });

  it('keeps the documents an object was read from only when asked (keepOrigins, default true)', async () => {
    const dir = project(BASE);
    const kept = await loadManifests({ paths: [], cwd: dir, env: ENV, target: 'staging' });
    expect(kept.origins('mapping', 'shop-api')?.base.form).toBe('document');
    expect(kept.origins('mapping', 'shop-api')?.overlays.length).toBeGreaterThan(0);
    const freed = await loadManifests({ paths: [], cwd: dir, env: ENV, target: 'staging', keepOrigins: false });
    expect(freed.origins('mapping', 'shop-api')).toBeUndefined();
    // Where each object is declared is still known.
    expect(freed.locate('mapping', 'shop-api')).toEqual(kept.locate('mapping', 'shop-api'));
    expect(freed.locate('mapping', 'shop-api')?.line).toBeGreaterThan(0);
  });

  it('lets --variant override the target and reports attributes of other variants', async () => {
    const dir = project(BASE);
    const result = await loadManifests({ paths: [], cwd: dir, env: ENV, variant: 'earliest' });
    expect(result.variant).toBe('earliest');
    expect(result.diagnostics.map((d) => [d.code, d.pointer])).toEqual([['variant-attribute', '/attributes/tls/certificateMode']]);
  });

  it('accepts regex-free shared priorities, links declared from the certificate side, and external links when allowed', async () => {
    const dir = project({
      'gwops.yaml': 'manifests: [m.yaml]\nallowExternalLinks: true\n',
      'm.yaml': `apiVersion: gwops/v1
kind: mapping
name: a
attributes: { entryPath: { value: /a/, priority: 5 } }
relationships: { virtual-hosts: [outside-vh] }
---
apiVersion: gwops/v1
kind: mapping
name: b
attributes: { entryPath: { value: /b/, priority: 5, regexFormatEnforced: false } }
---
apiVersion: gwops/v1
kind: mapping
name: c
attributes:
  entryPath: { value: '^/c/(?i)(?P<id>[0-9]++)(?#comment)(?P=id)\\Z', priority: 5, regexFormatEnforced: true }
  access: { tokenVerification: { jwsAlgorithm: RS_256, jwsKey: "-----BEGIN PUBLIC KEY-----" } }
---
apiVersion: gwops/v1
kind: virtual-host
name: shop
attributes: { tls: { certificateMode: CERTIFICATE }, networkInterface: { https: { http2Allowed: true } } }
---
apiVersion: gwops/v1
kind: ssl-certificate
name: tls
relationships: { virtual-hosts: [shop] }
`,
    });
    const result = await loadManifests({ paths: [], cwd: dir, env: {} });
    // The external link is allowed, and said where it is written.
    expect(result.diagnostics.map((d) => [d.severity, d.code, d.line, d.column])).toEqual([['warning', 'unresolved-link', 5, 34]]);
  });

  it('keeps a relationship named __proto__ as a member (the schema reports it) instead of setting the prototype', async () => {
    const dir = project({
      'm.yaml': 'apiVersion: gwops/v1\nkind: mapping\nname: m\nrelationships:\n  __proto__: [shop]\n  virtual-hosts: [shop]\n',
    });
    const result = await loadManifests({ paths: ['m.yaml'], cwd: dir, env: {} });
    const relationships = result.documents[0]?.relationships ?? {};
    expect(Object.getPrototypeOf(relationships)).toBe(Object.prototype);
    expect(Object.entries(relationships)).toEqual([
      ['__proto__', ['shop']],
      ['virtual-hosts', ['shop']],
    ]);
    expect(result.diagnostics.some((d) => d.severity === 'error' && d.message.includes('__proto__'))).toBe(true);
  });

  it('warns about a literal secret without failing', async () => {
    const dir = project({
      'c.yaml': `apiVersion: gwops/v1\nkind: ssl-certificate\nname: tls\nattributes:\n  privateKey: ${yamlQuoted(PLAIN_KEY)}\n`,
    });
    const result = await loadManifests({ paths: ['c.yaml'], cwd: dir, env: {} });
    expect(hasErrors(result.diagnostics)).toBe(false);
    expect(result.diagnostics.map((d) => [d.severity, d.code, d.line])).toEqual([['warning', 'literal-secret', 5]]);
    expect(JSON.stringify(result.diagnostics)).not.toContain('PRIVATE KEY');
    expect(result.documents[0]?.attributes.privateKey).toBe(PLAIN_KEY);
  });

  it('does not warn for a secret taken from a ${VAR} reference', async () => {
    const dir = project({ 'c.yaml': 'apiVersion: gwops/v1\nkind: ssl-certificate\nname: tls\nattributes:\n  privateKey: ${KEY}\n' });
    const result = await loadManifests({ paths: ['.'], cwd: dir, env: { KEY: PLAIN_KEY } });
    expect(result.diagnostics).toEqual([]);
    expect(result.documents[0]?.attributes.privateKey).toBe(PLAIN_KEY);
  });

  it("reads '-' from stdin and files given as paths, each once", async () => {
    const dir = project({ 'bg.yaml': 'apiVersion: gwops/v1\nkind: back-end-group\nname: a\n' });
    const stdin = Readable.from(['apiVersion: gwops/v1\nkind: back-end-group\nname: b\nattributes: { tenantt: x }\n']);
    const result = await loadManifests({ paths: ['bg.yaml', '-', '.'], cwd: dir, env: {}, stdin });
    expect(result.documents.map((d) => d.name)).toEqual(['a', 'b']);
    expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)).toEqual(['-:4:15 unknown-attribute']);
  });

  it('reports diagnostics of several files sorted by file, line and column', async () => {
    const dir = project({
      'b.yaml': 'apiVersion: gwops/v1\nkind: back-end-group\nname: x\nattributes: { tenant: 1 }\n',
      'a.yaml': 'apiVersion: gwops/v1\nkind: mapping\nname: y\nattributes:\n  threatHandling: X\n  backendPath: 2\n',
    });
    const result = await loadManifests({ paths: ['.'], cwd: dir, env: {} });
    expect(result.diagnostics.map((d) => `${d.file}:${d.line}`)).toEqual(['a.yaml:5', 'a.yaml:6', 'b.yaml:4']);
  });

  it('skips project files and their overlay directories inside scanned directories', async () => {
    const dir = project(BASE);
    const result = await loadManifests({ paths: ['.'], cwd: path.join(dir, 'manifests'), env: ENV, configFile: '../gwops.yaml' });
    expect(result.diagnostics).toEqual([]);
    // A project directory given as a path, from outside it: gwops.yaml and the overlays are not manifests.
    const parent = project({});
    const copy = project(BASE);
    const scanned = await loadManifests({ paths: [copy], cwd: parent, env: ENV });
    expect(scanned.diagnostics).toEqual([]);
    expect(scanned.documents.map((d) => d.kind).sort()).toEqual(['back-end-group', 'mapping', 'mapping', 'ssl-certificate', 'virtual-host']);
  });

  it('throws InputError for a missing path, an unknown target, an invalid project file, or no paths at all', async () => {
    const dir = project({ 'gwops.yaml': 'manifests: [m]\ntargets:\n  prod: { url: https://x }\n', 'bad/gwops.yaml': 'manifest: [m]\n' });
    await expect(loadManifests({ paths: ['nope.yaml'], cwd: dir, env: {} })).rejects.toBeInstanceOf(InputError);
    await expect(loadManifests({ paths: [], cwd: dir, env: {}, target: 'prd' })).rejects.toThrow(/unknown target 'prd': did you mean 'prod'\?/);
    await expect(loadManifests({ paths: [], cwd: dir, env: {}, configFile: 'bad/gwops.yaml' })).rejects.toThrow(
      /bad\/gwops.yaml:1:1: unknown key 'manifest' in project file .*did you mean 'manifests'\?/,
    );
    const empty = project({});
    await expect(loadManifests({ paths: [], cwd: empty, env: {} })).rejects.toBeInstanceOf(InputError);
  });

  it('validates the examples for both targets', async () => {
    const examples = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../examples');
    // Any variable the examples read is set (values are irrelevant to validity, but for the certificates' keys).
    const keys: Record<string, string> = { GWOPS_EXAMPLE_SHOP_TLS_KEY: EXAMPLE_SHOP_TLS_KEY, GWOPS_EXAMPLE_WILDCARD_TLS_KEY: EXAMPLE_WILDCARD_TLS_KEY };
    const env = new Proxy<Record<string, string>>({}, { get: (_t, key) => (typeof key === 'string' ? (keys[key] ?? `value-of-${key}`) : undefined) });
    for (const target of [undefined, 'staging']) {
      const result = await loadManifests({ paths: [], cwd: examples, env, ...(target ? { target } : {}) });
      expect(result.diagnostics.filter((d) => d.severity === 'error'), target ?? 'base').toEqual([]);
      expect(result.documents.filter((d) => d.kind === 'mapping').length).toBeGreaterThanOrEqual(25);
    }
  });
});
