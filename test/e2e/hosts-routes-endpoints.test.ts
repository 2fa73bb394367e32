/**
 * Hosts, allowed network endpoints and the four route collections end to end against the
 * emulator (docs/gateway-api.md "Hosts, routes and allowed network endpoints"), every kind
 * in one loop over one emulator: a misspelt attribute is a local error at its file, line and
 * column with a did-you-mean; apply, then an empty plan (on every variant); a change by hand
 * is drift and apply heals it; `drift --adopt` edits the kind's own document; a gateway
 * holding objects of every kind made through the raw API exports to manifests that plan no
 * change.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Variant } from '../../src/kinds/index.js';
import { createdId, startHarness, useHarness, writeManifests } from './harness.js';
import type { Harness } from './harness.js';

/** One kind under test: its collection, the attributes a manifest declares, a misspelling and a change by hand. */
interface Case {
  readonly kind: string;
  readonly collection: string;
  readonly attributes: Readonly<Record<string, string | number>>;
  /** A misspelt attribute name and the name it should be. */
  readonly typo: readonly [string, string];
  /** One attribute changed through the raw API, and again for adopt. */
  readonly byHand: readonly [string, string | number, string | number];
}

const CASES: readonly Case[] = [
  { kind: 'host', collection: 'hosts', attributes: { hostName: 'k1-app.internal', ipAddress: '192.0.2.10' }, typo: ['ipAdress', 'ipAddress'], byHand: ['ipAddress', '192.0.2.99', '192.0.2.98'] },
  { kind: 'allowed-network-endpoint', collection: 'allowed-network-endpoints', attributes: { address: '198.51.100.0/24', port: 443 }, typo: ['prt', 'port'], byHand: ['port', 8443, 9443] },
  { kind: 'route-ipv4-source', collection: 'routes/ipv4/source', attributes: { source: '203.0.113.0/24', gateway: '192.0.2.1' }, typo: ['gatway', 'gateway'], byHand: ['gateway', '192.0.2.2', '192.0.2.3'] },
  { kind: 'route-ipv4-destination', collection: 'routes/ipv4/destination', attributes: { destination: '198.18.0.0/15', gateway: '192.0.2.1' }, typo: ['destinaton', 'destination'], byHand: ['gateway', '192.0.2.4', '192.0.2.5'] },
  { kind: 'route-ipv6-source', collection: 'routes/ipv6/source', attributes: { source: '2001:db8:1::/48', gateway: '2001:db8::1' }, typo: ['sorce', 'source'], byHand: ['gateway', '2001:db8::2', '2001:db8::3'] },
  { kind: 'route-ipv6-destination', collection: 'routes/ipv6/destination', attributes: { destination: '2001:db8:2::/48', gateway: '2001:db8::1' }, typo: ['gateay', 'gateway'], byHand: ['gateway', '2001:db8::4', '2001:db8::5'] },
];

const nameOf = (c: Case): string => `k1-${c.kind}`;
const fileOf = (c: Case): string => `${c.kind}.yaml`;

/** The line of the attribute `key` in {@link documentOf}'s document (the attributes are one per line from line 5 on). */
const lineOf = (c: Case, key: string): number => 5 + Object.keys(c.attributes).indexOf(key);

/** The document of one case (with `typo`, the attribute `typo[1]` misspelt as `typo[0]`). */
function documentOf(c: Case, typo = false): string {
  const lines = Object.entries(c.attributes).map(([key, value]) => `  ${typo && key === c.typo[1] ? c.typo[0] : key}: ${JSON.stringify(value)}`);
  return ['apiVersion: gwops/v1', `kind: ${c.kind}`, `name: ${nameOf(c)}`, 'attributes:', ...lines, ''].join('\n');
}

/** The project: one file per kind; with `typo`, each kind's first attribute name misspelt. */
function project(options: { typo?: boolean } = {}): Record<string, string> {
  const files: Record<string, string> = { 'gwops.yaml': `manifests: [${CASES.map(fileOf).join(', ')}]\n` };
  for (const c of CASES) files[fileOf(c)] = documentOf(c, options.typo === true);
  return files;
}

/** The live attributes of the object named `name` in `collection`. */
async function liveAttributes(h: Harness, collection: string, name: string): Promise<Record<string, unknown> | undefined> {
  return h.raw(async (s) => (await s.list(collection, [])).find((o) => o.attributes.name === name)?.attributes);
}

/** Sets one attribute of every case's object through the raw API, as someone would by hand. */
async function changeByHand(h: Harness, value: (c: Case) => string | number, comment: string): Promise<void> {
  await h.raw(async (s) => {
    for (const c of CASES) {
      const listed = (await s.list(c.collection, [])).find((o) => o.attributes.name === nameOf(c));
      await s.update(c.collection, listed?.id ?? 'missing', { type: c.kind, attributes: { [c.byHand[0]]: value(c) } });
    }
  }, comment);
}

describe('hosts, routes and allowed network endpoints through every command', () => {
  const t = useHarness();
  let folder = '';
  let config: string[] = [];

  beforeAll(async () => {
    folder = await writeManifests(t.h, 'project', project());
    config = ['--config', join(folder, 'gwops.yaml'), ...t.h.connection];
  });

  it('validate: a misspelt attribute of each kind is an error at its file, line and column with a did-you-mean, and nothing is sent', async () => {
    const typos = await writeManifests(t.h, 'typos', project({ typo: true }));
    t.h.emulator.requestLog.length = 0;
    const r = await t.h.cli(['validate', '--config', join(typos, 'gwops.yaml')]);
    expect(r.code).toBe(1);
    const out = r.stdout + r.stderr;
    for (const c of CASES) {
      expect(out).toMatch(new RegExp(`/${fileOf(c)}:${lineOf(c, c.typo[1])}:3: error`));
      expect(out).toContain(`unknown attribute '${c.typo[0]}' in ${c.kind} '${nameOf(c)}': did you mean '${c.typo[1]}'?`);
    }
    const applied = await t.h.cli(['apply', '--config', join(typos, 'gwops.yaml'), ...t.h.connection, '--yes', '--comment', 'typos']);
    expect(applied.code).toBe(1);
    expect(t.h.emulator.requestLog.filter((e) => e.method !== 'GET' && !/session|load-active/.test(e.path))).toEqual([]);
  });

  it('apply creates one object of each kind with the declared attributes, and the plan after it is empty', async () => {
    const apply = await t.h.cli(['apply', ...config, '--yes', '--comment', 'hosts and routes']);
    expect(apply.stderr).not.toMatch(/^Error/m);
    expect(apply.code).toBe(0);
    for (const c of CASES) expect(await liveAttributes(t.h, c.collection, nameOf(c))).toMatchObject({ name: nameOf(c), ...c.attributes });
    const plan = await t.h.cli(['plan', ...config, '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
  });

  it('a change by hand to each kind is drift, and apply heals it', async () => {
    await changeByHand(t.h, (c) => c.byHand[1], 'changed by hand');
    const drift = await t.h.cli(['drift', ...config]);
    expect(drift.code).not.toBe(0);
    for (const c of CASES) {
      expect(drift.stdout).toContain(nameOf(c));
      expect(drift.stdout).toContain(String(c.byHand[1]));
    }
    const apply = await t.h.cli(['apply', ...config, '--yes', '--comment', 'heal']);
    expect(apply.code).toBe(0);
    for (const c of CASES) expect((await liveAttributes(t.h, c.collection, nameOf(c)))?.[c.byHand[0]]).toBe(c.attributes[c.byHand[0]]);
    expect((await t.h.cli(['drift', ...config])).code).toBe(0);
  });

  it('drift --adopt writes each change by hand into its own kind\'s document, which then plans no change', async () => {
    await changeByHand(t.h, (c) => c.byHand[2], 'changed by hand again');
    const adopted = await t.h.cli(['drift', '--adopt', ...config]);
    expect(adopted.code).toBe(2);
    expect(adopted.stderr).not.toContain('Not adopted');
    for (const c of CASES) {
      expect(adopted.stderr).toMatch(new RegExp(`^ {2}edited {3}\\S*/${fileOf(c)}$`, 'm'));
      const before = documentOf(c).split('\n');
      const after = (await readFile(join(folder, fileOf(c)), 'utf8')).split('\n');
      const line = lineOf(c, c.byHand[0]) - 1;
      // Only the changed attribute's line differs, and it now holds the live value.
      expect(after.filter((l, i) => l !== before[i])).toHaveLength(1);
      expect(after[line]).toMatch(new RegExp(`^  ${c.byHand[0]}: ["']?${String(c.byHand[2]).replace(/[.]/g, '\\.')}["']?$`));
    }
    const plan = await t.h.cli(['plan', ...config, '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
  });

  it('a gateway holding objects of every kind made through the raw API exports to manifests that plan no change', async () => {
    await t.h.raw(async (s) => {
      for (const c of CASES) await createdId(s, c.collection, c.kind, { name: `built-${c.kind}`, ...c.attributes });
    }, 'built by hand');
    const dir = join(t.h.dir, 'export');
    const r = await t.h.cli(['export', ...t.h.connection, '--out', dir]);
    expect(r.stderr).not.toMatch(/^Error/m);
    expect(r.code).toBe(0);
    for (const c of CASES) {
      const text = await readFile(join(dir, c.kind, `built-${c.kind}.yaml`), 'utf8');
      expect(text).toMatch(new RegExp(`^kind: ${c.kind}$`, 'm'));
      for (const key of Object.keys(c.attributes)) expect(text).toMatch(new RegExp(`^  ${key}: `, 'm'));
    }
    const plan = await t.h.cli(['plan', '--config', join(dir, 'gwops.yaml'), ...t.h.connection, '--detailed-exitcode']);
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
  });
});

describe.each<Variant>(['earliest', 'middle'])('hosts, routes and allowed network endpoints on the %s variant', (variant) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ variant });
  });
  afterAll(async () => {
    await h.close();
  });

  it('apply creates them and the plan after it is empty', async () => {
    const folder = await writeManifests(h, 'project', project());
    const config = ['--config', join(folder, 'gwops.yaml'), ...h.connection];
    const apply = await h.cli(['apply', ...config, '--yes', '--comment', `on ${variant}`]);
    expect(apply.stderr).not.toMatch(/^Error/m);
    expect(apply.code).toBe(0);
    for (const c of CASES) expect(await liveAttributes(h, c.collection, nameOf(c))).toMatchObject(c.attributes);
    const plan = await h.cli(['plan', ...config, '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
  });
});
