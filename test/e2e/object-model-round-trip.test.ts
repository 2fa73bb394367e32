/**
 * Every kind a mapping or back-end group links to, together, end to end against the
 * emulator: a gateway set up through the raw API (IP address lists, OpenAPI and GraphQL
 * documents with their content, an API policy service, local and remote key sets, Kerberos
 * and ICAP environments, a custom deny rule in a custom group) is exported; the export plans
 * no change; the exported files are changed as a team would in Git (a CIDR added, one line
 * of the specification changed, a blacklist unlinked) and applied; the gateway is changed
 * by hand and drift reports each change; apply restores it and drift is clean again.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createdId, useHarness } from './harness.js';

const SPEC = ['openapi: 3.0.3', 'info:', '  title: Orders', '  version: 1.0.0', 'paths:', '  /orders:', '    get:', '      summary: list the orders', ''].join('\n');
const SCHEMA = 'type Query {\n  orders: [String]\n}\n';
const OPENAPI = 'api-security/openapi-documents';
const ids: Record<string, string> = {};
const id = (key: string): string => ids[key] ?? '';

describe('the whole object model: export, change in Git, drift, restore', () => {
  const t = useHarness();
  const dir = (): string => join(t.h.dir, 'export');
  let config: string[] = [];
  let env: Record<string, string> = {};

  beforeAll(async () => {
    await t.h.raw(async (s) => {
      const create = (collection: string, type: string, attributes: Record<string, unknown>): Promise<string> => createdId(s, collection, type, attributes);
      ids.backend = await create('back-end-groups', 'back-end-group', { name: 'om-backend', backendHosts: [{ protocol: 'HTTP', hostName: 'om.internal', port: 80 }] });
      ids.office = await create('ip-address-lists', 'ip-address-list', { name: 'om-office', ips: ['192.0.2.0/24'] });
      ids.blocked = await create('ip-address-lists', 'ip-address-list', { name: 'om-blocked', ips: ['198.51.100.0/24'] });
      ids.orders = await create(OPENAPI, 'openapi-document', { name: 'om-orders' });
      await s.writeContent(OPENAPI, id('orders'), Buffer.from(SPEC));
      ids.graph = await create('api-security/graphql-documents', 'graphql-document', { name: 'om-graph' });
      await s.writeContent('api-security/graphql-documents', id('graph'), Buffer.from(SCHEMA));
      ids.policy = await create('api-policy-services', 'api-policy-service', { name: 'om-policy', endpoint: '/policy/resolve', sharedSecret: 'om-policy-secret-1' });
      ids.local = await create('json-web-key-sets/locals', 'local-json-web-key-set', { name: 'om-local', issuer: 'https://om.example.com' });
      ids.remote = await create('json-web-key-sets/remotes', 'remote-json-web-key-set', { name: 'om-login', issuer: 'https://login.example.com', url: 'https://login.example.com/jwks' });
      ids.kerberos = await create('kerberos-environments', 'kerberos-environment', { name: 'om-kerberos' });
      ids.icap = await create('icap-environments', 'icap-environment', { name: 'om-icap', failOpen: true });
      ids.rule = await create('custom-deny-rules', 'custom-deny-rule', {
        name: 'om-admin-path',
        logOnly: false,
        restrictions: { pathPattern: { enabled: true, name: 'om-admin', pattern: '^/admin/', caseIgnored: false, inverted: false, multipleSingleLineRegex: false } },
      });
      ids.group = await create('custom-deny-rule-groups', 'custom-deny-rule-group', { name: 'om-rules' });
      ids.app = await create('mappings', 'mapping', {
        name: 'om-app',
        entryPath: { value: '/om/' },
        ipRules: { ipAddressWhitelists: { pathWhitelists: [{ enabled: true, pathPattern: { pattern: '^/om/admin/', caseIgnored: false, inverted: false }, ipAddressListIds: [Number(id('office'))] }] } },
        apiSecurity: { openApi: { policies: [{ openApiDocumentId: Number(id('orders')) }] } },
      });
      const app = [{ type: 'mapping', id: id('app') }];
      await s.link('mappings', id('app'), 'back-end-groups', [{ type: 'back-end-group', id: id('backend') }]);
      await s.link('ip-address-lists', id('blocked'), 'mappings-blacklist', app);
      await s.link('mappings', id('app'), 'openapi-document', { type: 'openapi-document', id: id('orders') });
      await s.link('mappings', id('app'), 'graphql-document', { type: 'graphql-document', id: id('graph') });
      await s.link('mappings', id('app'), 'api-policy-service', { type: 'api-policy-service', id: id('policy') });
      await s.link('mappings', id('app'), 'local-json-web-key-sets', [{ type: 'local-json-web-key-set', id: id('local') }]);
      await s.link('mappings', id('app'), 'remote-json-web-key-sets', [{ type: 'remote-json-web-key-set', id: id('remote') }]);
      await s.link('kerberos-environments', id('kerberos'), 'back-end-groups', [{ type: 'back-end-group', id: id('backend') }]);
      await s.link('custom-deny-rule-groups', id('group'), 'custom-deny-rules', [{ type: 'custom-deny-rule', id: id('rule') }]);
    }, 'every kind a mapping links to');
  });

  it('exports every kind by name, content beside its manifest, and the export plans no change', async () => {
    const r = await t.h.cli(['export', ...t.h.connection, '--out', dir(), '--format', 'json']);
    expect(r.stderr).not.toMatch(/^Error/m);
    expect(r.code).toBe(0);
    const mapping = await readFile(join(dir(), 'mapping', 'om-app.yaml'), 'utf8');
    expect(mapping).toMatch(/ipAddressListIds:\n\s+- om-office\n/);
    expect(mapping).toMatch(/openApiDocumentId: om-orders\n/);
    for (const link of ['ip-address-blacklists:\n\\s+- om-blocked', 'openapi-document: om-orders', 'graphql-document: om-graph', 'api-policy-service: om-policy', 'local-json-web-key-sets:\n\\s+- om-local', 'remote-json-web-key-sets:\n\\s+- om-login']) {
      expect(mapping).toMatch(new RegExp(link));
    }
    expect(await readFile(join(dir(), 'back-end-group', 'om-backend.yaml'), 'utf8')).toMatch(/kerberos-environment: om-kerberos/);
    expect(await readFile(join(dir(), 'custom-deny-rule-group', 'om-rules.yaml'), 'utf8')).toMatch(/custom-deny-rules:\n\s+- om-admin-path/);
    expect(await readFile(join(dir(), 'icap-environment', 'om-icap.yaml'), 'utf8')).toMatch(/failOpen: true/);
    expect(await readFile(join(dir(), 'openapi-document', 'om-orders.content.yaml'), 'utf8')).toBe(SPEC);
    expect(await readFile(join(dir(), 'graphql-document', 'om-graph.content.graphql'), 'utf8')).toBe(SCHEMA);
    const secrets = (JSON.parse(r.stdout) as { secrets: { variable: string }[] }).secrets;
    env = Object.fromEntries(secrets.map((s) => [s.variable, 'om-policy-secret-1']));
    config = ['--config', join(dir(), 'gwops.yaml'), ...t.h.connection];
    const plan = await t.h.cli(['plan', ...config, '--detailed-exitcode'], { env });
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
    expect(r.stdout + plan.stdout).not.toContain('om-policy-secret-1');
  });

  it('applies a CIDR added, one line of the specification changed and a blacklist unlinked in Git', async () => {
    const edit = async (file: string, from: string | RegExp, to: string): Promise<void> => {
      const path = join(dir(), file);
      const text = await readFile(path, 'utf8');
      const next = text.replace(from, to);
      expect(next, `${file} changed`).not.toBe(text);
      await writeFile(path, next);
    };
    await edit('ip-address-list/om-office.yaml', '- 192.0.2.0/24\n', '- 192.0.2.0/24\n    - 10.20.0.0/16\n');
    await edit('openapi-document/om-orders.content.yaml', 'summary: list the orders', 'summary: list every order');
    // A relationship left out of a manifest is not managed; an empty list unlinks.
    await edit('mapping/om-app.yaml', /ip-address-blacklists:\n {4}- om-blocked/, 'ip-address-blacklists: []');
    const plan = await t.h.cli(['plan', ...config], { env });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('10.20.0.0/16');
    expect(plan.stdout).toMatch(/^ *- +summary: list the orders$/m);
    expect(plan.stdout).toMatch(/^ *\+ +summary: list every order$/m);
    expect(plan.stdout).toMatch(/unlink.*om-blocked|om-blocked.*unlink/i);
    const apply = await t.h.cli(['apply', ...config, '--yes', '--comment', 'a team changes its gateway in Git'], { env });
    expect(apply.stderr).not.toMatch(/^Error/m);
    expect(apply.code).toBe(0);
    const live = await t.h.raw(async (s) => ({
      office: (await s.list('ip-address-lists', [])).find((l) => l.id === id('office'))?.attributes.ips,
      blacklisted: (await s.list('ip-address-lists', [])).find((l) => l.id === id('blocked'))?.relationships['ip-address-blacklists']?.data,
      spec: (await s.readContent(OPENAPI, id('orders'))).toString('utf8'),
    }));
    expect(live).toEqual({ office: ['192.0.2.0/24', '10.20.0.0/16'], blacklisted: [], spec: SPEC.replace('list the orders', 'list every order') });
    expect((await t.h.cli(['plan', ...config, '--detailed-exitcode'], { env })).code).toBe(0);
  });

  it('reports changes by hand to every kind as drift, and apply restores them', async () => {
    await t.h.raw(async (s) => {
      await s.update('ip-address-lists', id('office'), { type: 'ip-address-list', attributes: { ips: ['192.0.2.0/24'] } });
      await s.writeContent(OPENAPI, id('orders'), Buffer.from(SPEC.replace('list the orders', 'changed by hand')));
      await s.update('icap-environments', id('icap'), { type: 'icap-environment', attributes: { failOpen: false } });
      // A declared attribute (export leaves out those equal to the server defaults, which are then not managed).
      await s.update('custom-deny-rules', id('rule'), {
        type: 'custom-deny-rule',
        attributes: { restrictions: { pathPattern: { enabled: true, name: 'om-admin', pattern: '^/root/', caseIgnored: false, inverted: false, multipleSingleLineRegex: false } } },
      });
      await s.update('json-web-key-sets/remotes', id('remote'), { type: 'remote-json-web-key-set', attributes: { url: 'https://evil.example.com/jwks' } });
    }, 'changes by hand');
    const drift = await t.h.cli(['drift', ...config], { env });
    expect(drift.code).toBe(2);
    for (const expected of ['om-office', 'om-orders', 'om-icap', 'om-admin-path', 'om-login', 'evil.example.com', '^/root/']) expect(drift.stdout).toContain(expected);
    const apply = await t.h.cli(['apply', ...config, '--yes', '--comment', 'restore'], { env });
    expect(apply.code).toBe(0);
    const clean = await t.h.cli(['drift', ...config], { env });
    expect(clean.stdout).not.toContain('evil.example.com');
    expect(clean.code).toBe(0);
    expect((await t.h.raw(async (s) => s.readContent(OPENAPI, id('orders')))).toString('utf8')).toBe(SPEC.replace('list the orders', 'list every order'));
  });
});
