/**
 * Checks `examples/`: every YAML document parses, every
 * manifest document is valid against its kind's schema (and the editor schema), the
 * example is as large as promised, every relationship names a defined object, and the
 * rules the gateway's validator enforces hold in the latest variant, also after the
 * staging overlay is applied.
 *
 * Finally the resolved documents (templates merged, overlays applied) are created on the
 * emulator through the raw REST API: its validator must report nothing, activation must
 * succeed, every declared attribute must read back unchanged, and the project's ownership
 * filters must select exactly the declared objects.
 *
 * Independent of `src/manifest`, `src/engine` and `src/operations` on purpose: it reads the examples with
 * nothing but `yaml`, ajv, the schemas and plain HTTP, so a bug in the loader or the
 * reconciler cannot hide a broken example.
 */
import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import { SCHEMA_KINDS } from '../../src/schema/index.js';
import type { Json, JsonObject } from './support.js';
import { ROOT, EXAMPLES, SCHEMAS, EDITOR_SCHEMA, SCHEMA_LINE, text, isObject, walkFiles, rel, parseFile, yamlFiles, manifestFiles, overlayFiles, manifestDocs, overlayDocs, str, where, attrs, ofKind, validateDocument, applyOverlays, links, linked, gatewayErrors, applyToEmulator, project, matchesFilter } from './support.js';

describe('examples', () => {
  it('every YAML file in examples/ parses without errors or duplicate keys', () => {
    expect(yamlFiles.length).toBeGreaterThan(10);
    for (const file of yamlFiles) expect(() => parseFile(file), rel(file)).not.toThrow();
  });

  it('every manifest and overlay file starts with the editor schema line pointing at schemas/', () => {
    for (const file of [...manifestFiles, ...overlayFiles]) {
      const first = readFileSync(file, 'utf8').split('\n', 1)[0] ?? '';
      const m = SCHEMA_LINE.exec(first);
      expect(m, `${rel(file)}: first line`).not.toBeNull();
      expect(resolve(dirname(file), m?.[1] ?? ''), rel(file)).toBe(EDITOR_SCHEMA);
    }
  });

  it('every manifest document is valid against its kind schema', () => {
    for (const doc of manifestDocs) {
      expect(validateDocument(doc, text(doc.value.kind)), where(doc)).toEqual([]);
    }
  });

  it('every manifest and overlay document is valid against the editor schema', () => {
    for (const doc of [...manifestDocs, ...overlayDocs]) expect(validateDocument(doc, 'manifest'), where(doc)).toEqual([]);
  });

  it('has the promised size', () => {
    expect(ofKind('virtual-host').length).toBeGreaterThanOrEqual(3);
    expect(ofKind('mapping').length).toBeGreaterThanOrEqual(25);
    expect(ofKind('mapping-template').length).toBe(2);
    expect(ofKind('back-end-group').length).toBeGreaterThanOrEqual(5);
    expect(ofKind('ssl-certificate').length).toBeGreaterThanOrEqual(2);
    const kinds = new Set(SCHEMA_KINDS);
    for (const doc of manifestDocs) expect(kinds.has(text(doc.value.kind)), where(doc)).toBe(true);
  });

  it('names are unique per kind', () => {
    const seen = new Set<string>();
    for (const doc of manifestDocs) {
      const key = `${text(doc.value.kind)}/${str(doc, 'name')}`;
      expect(seen.has(key), `duplicate ${key}`).toBe(false);
      seen.add(key);
    }
  });

  it('every relationship names a defined object of the right kind', () => {
    const defined = new Set(manifestDocs.map((d) => `${text(d.value.kind)}/${str(d, 'name')}`));
    const all = links(manifestDocs);
    expect(all.length).toBeGreaterThan(50);
    for (const l of all) expect(defined.has(`${l.toKind}/${l.to}`), `${l.declaredIn}: ${l.relationship} -> ${l.to}`).toBe(true);
  });

  it('every mapping extends a template, carries managed-by-gwops, one back-end group and a virtual host', () => {
    const templates = new Set(ofKind('mapping-template').map((d) => str(d, 'name')));
    const all = links(manifestDocs);
    const fromVirtualHost = all.filter((l) => l.fromKind === 'virtual-host' && l.toKind === 'mapping');
    const fromMapping = all.filter((l) => l.fromKind === 'mapping' && l.toKind === 'virtual-host');
    expect(fromVirtualHost.length, 'some links declared from the virtual host side').toBeGreaterThan(0);
    expect(fromMapping.length, 'some links declared from the mapping side').toBeGreaterThan(0);
    for (const m of ofKind('mapping')) {
      expect(templates.has(text(m.value.extends)), where(m)).toBe(true);
      const labels = attrs(m).labels;
      expect(Array.isArray(labels) && labels.includes('managed-by-gwops'), where(m)).toBe(true);
      expect(linked(all, 'mapping', str(m, 'name'), 'back-end-group').size, where(m)).toBe(1);
      expect(linked(all, 'mapping', str(m, 'name'), 'virtual-host').size, where(m)).toBeGreaterThan(0);
    }
    for (const t of templates) {
      expect(ofKind('mapping').some((m) => m.value.extends === t), `template ${t} is used`).toBe(true);
    }
  });

  it('every virtual host is HTTPS with a linked certificate', () => {
    const all = links(manifestDocs);
    expect(ofKind('virtual-host').length).toBeGreaterThan(0);
    for (const vh of ofKind('virtual-host')) {
      const a = attrs(vh);
      expect(a.networkInterface, where(vh)).toMatchObject({ https: { enabled: true } });
      expect(a.tls, where(vh)).toMatchObject({ certificateMode: 'CERTIFICATE' });
      expect(typeof a.hostName === 'string' && a.hostName.endsWith('.example.com'), where(vh)).toBe(true);
      expect(linked(all, 'virtual-host', str(vh, 'name'), 'ssl-certificate').size, where(vh)).toBe(1);
    }
  });

  it('certificates are real PEM certificates whose private keys come from GWOPS_EXAMPLE_* variables', () => {
    expect(ofKind('ssl-certificate').length).toBeGreaterThan(0);
    for (const c of ofKind('ssl-certificate')) {
      const a = attrs(c);
      expect(() => new X509Certificate(text(a.certificate)), where(c)).not.toThrow();
      expect(a.privateKey, where(c)).toEqual({ fromEnv: expect.stringMatching(/^GWOPS_EXAMPLE_\w+_TLS_KEY$/) as unknown });
    }
    expect(walkFiles(EXAMPLES).length).toBeGreaterThan(0);
    for (const file of walkFiles(EXAMPLES)) {
      expect(readFileSync(file, 'utf8'), `${rel(file)} must not contain a private key`).not.toMatch(/-----BEGIN [A-Z ]*PRIVATE KEY-----/);
    }
  });

  it('regex mappings have distinct priorities in -999..999', () => {
    const prios = ofKind('mapping')
      .map((m) => attrs(m).entryPath)
      .filter((e): e is JsonObject => isObject(e) && e.regexFormatEnforced === true)
      .map((e) => e.priority);
    expect(prios.length).toBeGreaterThanOrEqual(3);
    for (const p of prios) expect(typeof p === 'number' && p >= -999 && p <= 999).toBe(true);
    expect(new Set(prios).size).toBe(prios.length);
  });

  it('the base configuration breaks none of the gateway validator rules, in the latest variant', () => {
    expect(gatewayErrors(manifestDocs)).toEqual([]);
  });

  it('gwops.yaml names existing paths, both targets and an ownership scope that covers every object', () => {
    const p = project(join(EXAMPLES, 'gwops.yaml'));
    expect(p.manifests).toEqual(['manifests']);
    expect(p.allowExternalLinks).toBe(false);
    const targets = p.targets;
    if (!isObject(targets)) throw new Error('targets is not a mapping');
    expect(Object.keys(targets).sort()).toEqual(['production', 'staging']);
    expect(targets.production).toMatchObject({ url: 'https://gateway.example.com/airlock/rest', apiKeyEnv: 'GWOPS_API_KEY', variant: 'latest' });
    expect(targets.staging).toMatchObject({
      url: 'https://gateway-staging.example.com/airlock/rest',
      apiKeyEnv: 'GWOPS_API_KEY',
      variant: 'latest',
      overlays: ['overlays/staging'],
    });
    for (const dir of ['manifests', 'overlays/staging']) expect(existsSync(join(EXAMPLES, dir)), dir).toBe(true);
    const ownership = p.ownership;
    if (!isObject(ownership)) throw new Error('ownership is not a mapping');
    for (const [kind, filters] of Object.entries(ownership)) {
      expect(KINDS.some((k) => k.type === kind), kind).toBe(true);
      if (!Array.isArray(filters)) throw new Error(`ownership.${kind} is not a list`);
      for (const doc of ofKind(kind)) {
        // Every filter must match (several GET filters combine with AND).
        for (const f of filters) expect(matchesFilter(text(f), doc), `${where(doc)} is outside ${text(f)}`).toBe(true);
      }
    }
    for (const kind of ['mapping', 'virtual-host', 'back-end-group']) expect(Object.keys(ownership)).toContain(kind);
  });

  it('both project files are valid against schemas/project.schema.json and carry its editor line', () => {
    for (const file of [join(EXAMPLES, 'gwops.yaml'), join(EXAMPLES, 'demo', 'gwops.yaml')]) {
      expect(validateDocument({ value: project(file) }, 'project'), rel(file)).toEqual([]);
      const m = SCHEMA_LINE.exec(readFileSync(file, 'utf8').split('\n', 1)[0] ?? '');
      expect(resolve(dirname(file), m?.[1] ?? ''), rel(file)).toBe(join(SCHEMAS, 'project.schema.json'));
    }
  });

  it('demo/gwops.yaml is the same project with one demo target and no overlays', () => {
    const base = project(join(EXAMPLES, 'gwops.yaml'));
    const demo = project(join(EXAMPLES, 'demo', 'gwops.yaml'));
    expect(demo.manifests).toEqual(['../manifests']);
    expect(existsSync(join(EXAMPLES, 'demo', '../manifests'))).toBe(true);
    expect(demo.targets).toEqual({
      demo: {
        url: 'https://127.0.0.1:8443/airlock/rest',
        apiKeyFile: '../../.gwops/emulator-api-key',
        caFile: '../../.gwops/emulator-cert.pem',
        variant: 'latest',
      },
    });
    // The emulator's default certificate file, so the demo target verifies TLS.
    expect(resolve(EXAMPLES, 'demo', '../../.gwops/emulator-cert.pem')).toBe(join(ROOT, '.gwops', 'emulator-cert.pem'));
    expect(resolve(EXAMPLES, 'demo', '../../.gwops/emulator-api-key')).toBe(join(ROOT, '.gwops', 'emulator-api-key'));
    expect(demo.ownership).toEqual(base.ownership);
    expect(demo.allowExternalLinks).toBe(false);
  });

  it('staging overlays patch existing objects and leave a configuration without validator errors', () => {
    expect(overlayDocs.length).toBeGreaterThanOrEqual(4);
    expect(overlayDocs.some((o) => Array.isArray(o.value.patch)), 'one overlay uses RFC 6902 ops').toBe(true);
    for (const o of overlayDocs) {
      expect(manifestDocs.some((d) => d.value.kind === o.value.kind && d.value.name === o.value.name), where(o)).toBe(true);
      // Merge-patch overlays are partial documents of their kind; JSON Patch ones are ops lists.
      if (!Array.isArray(o.value.patch)) expect(validateDocument(o, text(o.value.kind)), where(o)).toEqual([]);
    }
    const staged = applyOverlays(manifestDocs, overlayDocs);
    expect(gatewayErrors(staged)).toEqual([]);
    for (const vh of staged.filter((d) => d.value.kind === 'virtual-host')) {
      expect(text(attrs(vh).hostName), where(vh)).toMatch(/-staging\.example\.com$/);
    }
    const hosts = staged
      .filter((d) => d.value.kind === 'back-end-group')
      .flatMap((d) => (Array.isArray(attrs(d).backendHosts) ? (attrs(d).backendHosts as Json[]) : []))
      .map((h) => (isObject(h) ? text(h.hostName) : ''));
    expect(hosts.every((h) => h.includes('.stg.')), `staging back-end hosts: ${hosts.join(', ')}`).toBe(true);
  });

  it('the CI recipes run the documented commands with the secrets in the right variables', () => {
    const ci = (name: string): string => readFileSync(join(EXAMPLES, 'ci', name), 'utf8');
    const plan = ci('plan-on-pull-request.yml');
    // The recipes run gwops through the action (action.yml); test/ci/workflows.test.ts checks them in depth.
    expect(plan).toMatch(/command: plan\n\s+args: --target production\n/);
    expect(plan).toContain('<!-- gwops-plan target=production -->');
    expect(ci('apply-on-merge.yml')).toMatch(/command: apply\n\s+args: --target production --yes\n/);
    expect(ci('nightly-drift.yml')).toMatch(/command: drift\n\s+args: --target production --fail-on gateway\n/);
    for (const name of ['plan-on-pull-request.yml', 'apply-on-merge.yml', 'apply-to-targets.yml', 'nightly-drift.yml']) {
      const recipe = ci(name);
      expect(recipe, name).toMatch(/GWOPS_API_KEY: \$\{\{ secrets\.\w+ \}\}/);
      for (const c of ofKind('ssl-certificate')) {
        const env = (attrs(c).privateKey as JsonObject).fromEnv;
        expect(recipe, `${name} sets ${text(env)}`).toMatch(new RegExp(`${text(env)}: \\$\\{\\{ secrets\\.\\w+ \\}\\}`));
      }
    }
  });

  it('applied to the emulator (latest variant), the base configuration activates with no validator message at all', async () => {
    const ownership = project(join(EXAMPLES, 'gwops.yaml')).ownership;
    const { messages, activated, owned, mismatches } = await applyToEmulator(manifestDocs, isObject(ownership) ? ownership : {});
    expect(messages).toEqual([]);
    expect(activated).toBe(200);
    expect(mismatches).toEqual([]);
    // The ownership filters, as the gateway evaluates them, select exactly the declared objects.
    for (const kind of ['mapping', 'virtual-host', 'back-end-group']) {
      expect(owned[kind], kind).toEqual(ofKind(kind).map((d) => str(d, 'name')).sort());
    }
  });

  it('applied to the emulator, the staging configuration activates with no validator message at all', async () => {
    const { messages, activated, mismatches } = await applyToEmulator(applyOverlays(manifestDocs, overlayDocs));
    expect(messages).toEqual([]);
    expect(mismatches).toEqual([]);
    expect(activated).toBe(200);
  });
});
