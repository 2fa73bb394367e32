/**
 * Nodes and the anomaly shield's applications, rules, triggers and traffic matchers end to
 * end against the emulator (docs/gateway-api.md "Nodes", "Anomaly shield"), per kind: a
 * gateway built through the raw API exports by name (a node by its host name, every link on
 * its declaring side) and the export plans no change; a misspelt attribute is a local error
 * at file:line with a did-you-mean; objects added in Git are applied and plan empty; a change
 * by hand to each kind is drift that apply heals; `drift --adopt` writes each change into the
 * document that declares it. On the earliest and middle variants, a project of every kind
 * with its links applies and then plans no change.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../src/emulator/index.js';
import type { ApiResource, GatewaySession } from '../../src/gateway/index.js';
import { createdId, useHarness, writeManifests } from './harness.js';

const ids: Record<string, string> = {};
const id = (key: string): string => ids[key] ?? '';
const ref = (type: string, key: string): { type: string; id: string } => ({ type, id: id(key) });
const doc = (kind: string, name: string, body: string): string => `apiVersion: gwops/v1\nkind: ${kind}\nname: ${name}\n${body}`;

/** The ids an object of `collection` links through `relationship`. */
async function linked(s: GatewaySession, collection: string, key: string, relationship: string): Promise<string[]> {
  const object = (await s.list(collection, [])).find((o: ApiResource) => o.id === id(key));
  const data = object?.relationships[relationship]?.data;
  return data === undefined || data === null ? [] : (Array.isArray(data) ? data : [data]).map((d) => d.id);
}

describe('nodes and the anomaly shield through every command', () => {
  const t = useHarness();
  const dir = (): string => join(t.h.dir, 'export');
  const config = (): string[] => ['--config', join(dir(), 'gwops.yaml'), ...t.h.connection];
  const read = (file: string): Promise<string> => readFile(join(dir(), file), 'utf8');
  const plansNoChange = async (): Promise<void> => {
    const plan = await t.h.cli(['plan', ...config(), '--detailed-exitcode']);
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
  };

  beforeAll(async () => {
    const { cert } = await selfSignedCertificate('mgmt.cluster.internal');
    await t.h.raw(async (s) => {
      const create = (collection: string, type: string, attributes: Record<string, unknown>): Promise<string> => createdId(s, collection, type, attributes);
      ids.cert = await create('ssl-certificates', 'ssl-certificate', { certificate: cert });
      ids.node = await create('nodes', 'node', { hostName: 'gw-a.cluster.internal' });
      ids.list = await create('ip-address-lists', 'ip-address-list', { name: 'as-scanners', ips: ['203.0.113.0/24'] });
      ids.matcher = await create('anomaly-shield-traffic-matchers', 'anomaly-shield-traffic-matcher', { name: 'as-scanners' });
      ids.trigger = await create('anomaly-shield-triggers', 'anomaly-shield-trigger', { name: 'as-burst' });
      ids.rule = await create('anomaly-shield-rules', 'anomaly-shield-rule', { name: 'as-block-burst' });
      ids.app = await create('anomaly-shield-applications', 'anomaly-shield-application', { name: 'as-shop' });
      ids.backend = await create('back-end-groups', 'back-end-group', { name: 'as-backend', backendHosts: [{ protocol: 'HTTP', hostName: 'as.internal', port: 80 }] });
      ids.mapping = await create('mappings', 'mapping', { name: 'as-mapping', entryPath: { value: '/as/' } });
      await s.link('nodes', id('node'), 'ssl-certificate', ref('ssl-certificate', 'cert'));
      await s.link('anomaly-shield-traffic-matchers', id('matcher'), 'ip-address-lists', [ref('ip-address-list', 'list')]);
      await s.link('anomaly-shield-rules', id('rule'), 'anomaly-shield-triggers', [ref('anomaly-shield-trigger', 'trigger')]);
      await s.link('anomaly-shield-applications', id('app'), 'anomaly-shield-rules', [ref('anomaly-shield-rule', 'rule')]);
      for (const exclusion of ['training-data-collection-exclusions', 'anomaly-detection-exclusions', 'response-rule-exceptions']) {
        await s.link('anomaly-shield-applications', id('app'), exclusion, [ref('anomaly-shield-traffic-matcher', 'matcher')]);
      }
      await s.link('mappings', id('mapping'), 'back-end-groups', [ref('back-end-group', 'backend')]);
      await s.link('mappings', id('mapping'), 'anomaly-shield-application', ref('anomaly-shield-application', 'app'));
    }, 'nodes and the anomaly shield');
  });

  it('shows each link on both sides: the certificate lists its nodes, the ip-address-list its matchers', async () => {
    const sides = await t.h.raw(async (s) => ({
      nodes: await linked(s, 'ssl-certificates', 'cert', 'nodes'),
      matchers: await linked(s, 'ip-address-lists', 'list', 'anomaly-shield-traffic-matchers'),
      mappings: await linked(s, 'anomaly-shield-applications', 'app', 'mappings'),
      applications: await linked(s, 'anomaly-shield-rules', 'rule', 'anomaly-shield-applications'),
    }));
    expect(sides).toEqual({ nodes: [id('node')], matchers: [id('matcher')], mappings: [id('mapping')], applications: [id('app')] });
  });

  it('exports every kind with its links by name on the declaring side, and the export plans no change', async () => {
    const r = await t.h.cli(['export', ...t.h.connection, '--out', dir()]);
    expect(r.stderr).not.toMatch(/^Error/m);
    expect(r.code).toBe(0);
    const nodes = await readdir(join(dir(), 'node'));
    expect(nodes).toEqual([expect.stringMatching(/^gw-a\.cluster\.internal-[0-9a-f]+\.yaml$/)]);
    const node = await read(join('node', nodes[0] ?? ''));
    expect(node).toMatch(/hostName: gw-a\.cluster\.internal\n/);
    expect(node).toMatch(/ssl-certificate: [\w.-]+-[0-9a-f]{12}\n/);
    expect(await read('anomaly-shield-traffic-matcher/as-scanners.yaml')).toMatch(/ip-address-lists:\n\s+- as-scanners\n/);
    expect(await read('anomaly-shield-rule/as-block-burst.yaml')).toMatch(/anomaly-shield-triggers:\n\s+- as-burst\n/);
    expect(await read('anomaly-shield-trigger/as-burst.yaml')).toMatch(/^kind: anomaly-shield-trigger$/m);
    const app = await read('anomaly-shield-application/as-shop.yaml');
    for (const rel of ['anomaly-shield-rules:\n\\s+- as-block-burst', 'training-data-collection-exclusions:\n\\s+- as-scanners', 'anomaly-detection-exclusions:\n\\s+- as-scanners', 'response-rule-exceptions:\n\\s+- as-scanners']) {
      expect(app).toMatch(new RegExp(rel));
    }
    expect(await read('mapping/as-mapping.yaml')).toMatch(/anomaly-shield-application: as-shop\n/);
    await plansNoChange();
  });

  it('validate refuses a misspelt attribute of each kind at file:line with a did-you-mean', async () => {
    const bad = [
      doc('node', 'bad-node', 'attributes:\n  hostNmae: bad.cluster.internal\n'),
      doc('anomaly-shield-application', 'bad-app', 'attributes:\n  nme: x\n'),
      doc('anomaly-shield-rule', 'bad-rule', 'attributes:\n  nme: x\n'),
      doc('anomaly-shield-trigger', 'bad-trigger', 'attributes:\n  nme: x\n'),
      doc('anomaly-shield-traffic-matcher', 'bad-matcher', 'attributes:\n  nme: x\n'),
    ];
    const project = join(t.h.dir, 'typos');
    await mkdir(project, { recursive: true });
    await writeFile(join(project, 'gwops.yaml'), 'manifests: [bad.yaml]\n');
    await writeFile(join(project, 'bad.yaml'), bad.join('---\n'));
    const r = await t.h.cli(['validate', '--config', join(project, 'gwops.yaml')]);
    expect(r.code).not.toBe(0);
    const lines = bad.map((_, i) => bad.slice(0, i).reduce((n, text) => n + text.split('\n').length, 0) + 5);
    for (const [i, kind] of ['node', 'anomaly-shield-application', 'anomaly-shield-rule', 'anomaly-shield-trigger', 'anomaly-shield-traffic-matcher'].entries()) {
      const wanted = kind === 'node' ? 'hostName' : 'name';
      const typo = wanted === 'hostName' ? 'hostNmae' : 'nme';
      expect(r.stdout, kind).toMatch(new RegExp(`bad\\.yaml:${String(lines[i])}:\\d+: error: unknown attribute '${typo}' in ${kind} 'bad-[a-z]+': did you mean '${wanted}'\\?`));
    }
  });

  it('applies objects of each kind added in Git, and then plans no change', async () => {
    await writeFile(
      join(dir(), 'node', 'git.yaml'),
      [
        doc('node', 'gw-b', `attributes:\n  hostName: gw-b.cluster.internal\nrelationships:\n  ssl-certificate: ${/ssl-certificate: (\S+)/.exec(await read(join('node', (await readdir(join(dir(), 'node')))[0] ?? '')))?.[1] ?? ''}\n`),
        doc('anomaly-shield-trigger', 'as-slow', ''),
        doc('anomaly-shield-traffic-matcher', 'as-monitoring', 'relationships:\n  ip-address-lists: [as-scanners]\n'),
        doc('anomaly-shield-rule', 'as-block-slow', 'relationships:\n  anomaly-shield-triggers: [as-slow, as-burst]\n'),
        doc('anomaly-shield-application', 'as-admin', 'relationships:\n  anomaly-shield-rules: [as-block-slow]\n  anomaly-detection-exclusions: [as-monitoring]\n'),
      ].join('---\n'),
    );
    const apply = await t.h.cli(['apply', ...config(), '--yes', '--comment', 'anomaly shield for the admin pages']);
    expect(apply.stderr).not.toMatch(/^Error/m);
    expect(apply.code).toBe(0);
    const live = await t.h.raw(async (s) => ({
      node: (await s.list('nodes', [])).find((n) => n.attributes.hostName === 'gw-b.cluster.internal')?.relationships['ssl-certificate']?.data,
      rule: (await s.list('anomaly-shield-rules', [])).find((r) => r.attributes.name === 'as-block-slow')?.relationships['anomaly-shield-triggers']?.data,
    }));
    expect(live.node).toEqual(ref('ssl-certificate', 'cert'));
    expect(Array.isArray(live.rule) ? live.rule.length : 0).toBe(2);
    await plansNoChange();
  });

  it('reports a change by hand to each kind as drift, and apply heals it', async () => {
    await t.h.raw(async (s) => {
      await s.unlink('nodes', id('node'), 'ssl-certificate', ref('ssl-certificate', 'cert'));
      await s.unlink('anomaly-shield-traffic-matchers', id('matcher'), 'ip-address-lists', [ref('ip-address-list', 'list')]);
      await s.unlink('anomaly-shield-rules', id('rule'), 'anomaly-shield-triggers', [ref('anomaly-shield-trigger', 'trigger')]);
      await s.unlink('anomaly-shield-applications', id('app'), 'response-rule-exceptions', [ref('anomaly-shield-traffic-matcher', 'matcher')]);
      await s.unlink('mappings', id('mapping'), 'anomaly-shield-application', ref('anomaly-shield-application', 'app'));
      await s.remove('anomaly-shield-triggers', (await s.list('anomaly-shield-triggers', [])).find((o) => o.attributes.name === 'as-slow')?.id ?? '');
    }, 'changes by hand');
    const drift = await t.h.cli(['drift', ...config()]);
    expect(drift.code).toBe(2);
    for (const expected of ['gw-a.cluster.internal', 'as-scanners', 'as-block-burst', 'as-shop', 'response-rule-exceptions', 'as-mapping', 'as-slow']) expect(drift.stdout).toContain(expected);
    const apply = await t.h.cli(['apply', ...config(), '--yes', '--comment', 'heal']);
    expect(apply.stderr).not.toMatch(/^Error/m);
    expect(apply.code).toBe(0);
    const clean = await t.h.cli(['drift', ...config()]);
    expect(clean.stdout).not.toMatch(/as-slow|response-rule-exceptions/);
    expect(clean.code).toBe(0);
    const healed = await t.h.raw(async (s) => ({
      node: await linked(s, 'nodes', 'node', 'ssl-certificate'),
      mapping: await linked(s, 'mappings', 'mapping', 'anomaly-shield-application'),
      triggers: (await s.list('anomaly-shield-triggers', [])).map((o) => o.attributes.name).sort(),
    }));
    expect(healed).toEqual({ node: [id('cert')], mapping: [id('app')], triggers: ['as-burst', 'as-slow'] });
  });

  it('drift --adopt writes each change by hand into the document that declares it, and the plan is empty after', async () => {
    // The documents the changes by hand are adopted into, read whole.
    const documents = async () => ({
      node: await read(join('node', (await readdir(join(dir(), 'node'))).find((f) => f !== 'git.yaml') ?? '')),
      matcher: await read('anomaly-shield-traffic-matcher/as-scanners.yaml'),
      rule: await read('anomaly-shield-rule/as-block-burst.yaml'),
      app: await read('anomaly-shield-application/as-shop.yaml'),
      mapping: await read('mapping/as-mapping.yaml'),
      git: await read('node/git.yaml'),
    });
    const before = await documents();
    await t.h.raw(async (s) => {
      await s.unlink('nodes', id('node'), 'ssl-certificate', ref('ssl-certificate', 'cert'));
      await s.unlink('anomaly-shield-traffic-matchers', id('matcher'), 'ip-address-lists', [ref('ip-address-list', 'list')]);
      await s.unlink('anomaly-shield-applications', id('app'), 'anomaly-detection-exclusions', [ref('anomaly-shield-traffic-matcher', 'matcher')]);
      await s.unlink('mappings', id('mapping'), 'anomaly-shield-application', ref('anomaly-shield-application', 'app'));
      // From the trigger's side: the link is the rule's, so the rule's document changes.
      await s.unlink('anomaly-shield-triggers', id('trigger'), 'anomaly-shield-rules', [ref('anomaly-shield-rule', 'rule')]);
    }, 'changes by hand to adopt');
    const adopt = await t.h.cli(['drift', ...config(), '--adopt']);
    expect(adopt.stderr).not.toMatch(/^Error/m);
    // Exit code 2: drift was found (and adopted).
    expect(adopt.code).toBe(2);
    const after = await documents();
    expect(after.node).not.toMatch(/ssl-certificate: \S/);
    expect(after.matcher).not.toMatch(/- as-scanners/);
    expect(after.rule).not.toMatch(/- as-burst/);
    expect(after.app).not.toMatch(/anomaly-detection-exclusions:\n\s+- as-scanners/);
    expect(after.app).toMatch(/response-rule-exceptions:\n\s+- as-scanners/);
    expect(after.mapping).not.toMatch(/anomaly-shield-application: as-shop/);
    // Nothing else changed: the objects added in Git keep their document as it was.
    expect(after.git).toBe(before.git);
    for (const key of ['node', 'matcher', 'rule', 'app', 'mapping'] as const) expect(after[key], key).not.toBe(before[key]);
    expect((await t.h.cli(['validate', '--config', join(dir(), 'gwops.yaml')])).code).toBe(0);
    await plansNoChange();
  });
});

describe.each(['earliest', 'middle'] as const)('nodes and the anomaly shield on the %s variant', (variant) => {
  const t = useHarness({ variant });

  it('applies every kind with its links, and then plans no change', async () => {
    const { cert } = await selfSignedCertificate(`${variant}.cluster.internal`);
    const folder = await writeManifests(t.h, 'project', {
      'gwops.yaml': 'manifests: [all.yaml]\n',
      'all.yaml': [
        doc('ssl-certificate', 'mgmt', `attributes:\n  certificate: |\n${cert.trim().split('\n').map((line) => `    ${line}`).join('\n')}\n`),
        doc('node', 'gw', `attributes:\n  hostName: gw.${variant}.internal\nrelationships:\n  ssl-certificate: mgmt\n`),
        doc('ip-address-list', 'scanners', 'attributes:\n  ips: [203.0.113.0/24]\n'),
        doc('anomaly-shield-traffic-matcher', 'scanners', 'relationships:\n  ip-address-lists: [scanners]\n'),
        doc('anomaly-shield-trigger', 'burst', ''),
        doc('anomaly-shield-rule', 'block-burst', 'relationships:\n  anomaly-shield-triggers: [burst]\n'),
        doc('anomaly-shield-application', 'shop', 'relationships:\n  anomaly-shield-rules: [block-burst]\n  response-rule-exceptions: [scanners]\n'),
      ].join('---\n'),
    });
    const config = ['--config', join(folder, 'gwops.yaml'), ...t.h.connection];
    const apply = await t.h.cli(['apply', ...config, '--yes', '--comment', `anomaly shield on ${variant}`]);
    expect(apply.stderr).not.toMatch(/^Error/m);
    expect(apply.code).toBe(0);
    const plan = await t.h.cli(['plan', ...config, '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
    const node = await t.h.raw(async (s) => (await s.list('nodes', [])).find((n) => n.attributes.hostName === `gw.${variant}.internal`));
    expect(node?.relationships['ssl-certificate']?.data).toMatchObject({ type: 'ssl-certificate' });
  });
});
