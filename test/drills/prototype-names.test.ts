/**
 * Drill "prototype names": names are data everywhere. For each name of a list of
 * property names that plain JavaScript objects treat specially (`__proto__`,
 * `constructor`, `prototype`, `toString`, `hasOwnProperty`, `valueOf`), one object of every
 * kind of the latest variant carries it (from its kind's example,
 * test/support/kind-examples.ts, with the companions it requires), and a mapping uses the
 * custom deny rule group and the custom deny rule of that name as sub-resources (keys of
 * `customDenyRuleGroups` and `customDenyRules`). Through the real CLI against the emulator:
 * apply creates all of it, a hand change on the gateway (every updatable kind's example
 * update, each sub-resource switched to log-only) is reported by drift for every object
 * and sub-resource, apply reverts it, and the plan afterwards has no changes. A seeded
 * sample of the names runs in `npm test`, all of them under `GWOPS_DRILLS=full`.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { KindDefinition } from '../../src/kinds/index.js';
import { KINDS, kindExistsIn, kindOf, relationshipNamed } from '../../src/kinds/index.js';
import type { Harness } from '../e2e/harness.js';
import { startHarness } from '../e2e/harness.js';
import type { ExampleFixtures } from '../support/kind-examples.js';
import { hasUpdatableAttributes, KIND_EXAMPLES } from '../support/kind-examples.js';
import { drillMode, drillSeed, recordDrill } from './record.js';
import { prng, sample } from './support.js';

/** Property names with a meaning of their own on plain objects. */
const NAMES: readonly string[] = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

/** The kinds of the latest variant whose identity is the name (a certificate's is its fingerprint). */
const KINDS_WALKED = KINDS.filter((k) => kindExistsIn(k, 'latest') && k.identity.byName);

/** The sub-resource attributes of mappings used here, with the kind each key names. */
const SUB_RESOURCES = [
  { attribute: 'customDenyRuleGroups', target: 'custom-deny-rule-group', segment: 'custom-deny-rule-groups', type: 'mapping-custom-deny-rule-group' },
  { attribute: 'customDenyRules', target: 'custom-deny-rule', segment: 'custom-deny-rules', type: 'mapping-custom-deny-rule' },
] as const;

/** The kinds walked here need no certificate: an example that asks for one is a mistake. */
const fixtures: ExampleFixtures = {
  certificate() {
    return Promise.reject(new Error('no certificate fixture in this drill'));
  },
};

interface Declared {
  readonly kind: KindDefinition;
  readonly name: string;
  readonly attributes: Record<string, unknown>;
  readonly update: Record<string, unknown>;
}

/** The manifests of one name: every kind's example named `name`, its companions, and the mapping's sub-resources. */
async function project(name: string): Promise<Declared[]> {
  const out: Declared[] = [];
  for (const kind of KINDS_WALKED) {
    const example = await KIND_EXAMPLES[kind.type](name, fixtures);
    const relationships: Record<string, string | string[]> = {};
    for (const { relationship } of example.requires ?? []) {
      const rel = relationshipNamed(kind, relationship);
      if (!rel) throw new Error(`no relationship ${relationship} of ${kind.type}`);
      const companion = `${name}-needs-${rel.name}`;
      const target = kindOf(rel.target);
      const theirs = await KIND_EXAMPLES[target.type](companion, fixtures);
      out.push({ kind: target, name: companion, attributes: theirs.attributes, update: {} });
      relationships[rel.name] = rel.cardinality === 'one' ? companion : [companion];
    }
    const attributes: Record<string, unknown> = { ...(example.attributes as Record<string, unknown>) };
    if (kind.type === 'mapping') {
      for (const sub of SUB_RESOURCES) attributes[sub.attribute] = Object.defineProperty({}, name, { value: { logOnly: false }, enumerable: true });
    }
    out.push({ kind, name, attributes: { ...attributes, ...(Object.keys(relationships).length > 0 ? { '@relationships': relationships } : {}) }, update: hasUpdatableAttributes(kind.type) ? (example.update) : {} });
  }
  return out;
}

/** One manifest document (`@relationships` holds the document's relationships). */
function manifest(d: Declared): string {
  const { '@relationships': relationships, ...attributes } = d.attributes;
  return stringify({ apiVersion: 'gwops/v1', kind: d.kind.type, name: d.name, attributes, ...(relationships !== undefined ? { relationships } : {}) });
}

interface Row {
  name: string;
  objects: number;
  handChanges: number;
  /** Hand changes drift did not report. */
  unreported: number;
  /** CLI runs that failed (apply, drift, plan). */
  failed: number;
  /** Changes the plan still shows after the reverting apply. */
  remaining: number;
  /** 1 when the export of the gateway did not validate or lost the mapping's sub-resource key. */
  exportFailed: number;
  /** Members Object.prototype gained during the round trip (CLI and emulator run in this process). */
  polluted: number;
}

async function roundTrip(h: Harness, name: string): Promise<Row> {
  const before = new Set(Object.getOwnPropertyNames(Object.prototype));
  const dir = join(h.dir, `names-${NAMES.indexOf(name)}`);
  await mkdir(dir, { recursive: true });
  const declared = await project(name);
  await writeFile(join(dir, 'all.yaml'), declared.map(manifest).join('---\n'));
  let failed = 0;
  const created = await h.cli(['apply', '--yes', ...h.connection, '.'], { cwd: dir });
  if (created.code !== 0) failed++;
  // Behind gwops's back: every updatable object's example update, each sub-resource to log-only.
  const changed: { kind: string; name: string; path: string }[] = [];
  await h.raw(async (s) => {
    for (const d of declared) {
      // Only declared attributes are managed: an example update of another one is no drift.
      const update = Object.entries(d.update).filter(([key]) => Object.hasOwn(d.attributes, key));
      const [live] = d.name === name && update.length > 0 ? (await s.list(d.kind.collection, [])).filter((r) => r.attributes.name === name) : [];
      if (!live) continue;
      await s.update(d.kind.collection, live.id, { type: d.kind.type, attributes: Object.fromEntries(update) });
      for (const [key] of update) changed.push({ kind: d.kind.type, name, path: key });
    }
    const [mapping] = (await s.list('mappings', [])).filter((r) => r.attributes.name === name);
    for (const sub of SUB_RESOURCES) {
      const [target] = (await s.list(kindOf(sub.target).collection, [])).filter((r) => r.attributes.name === name);
      if (!mapping || !target) continue;
      await s.update(`mappings/${mapping.id}/${sub.segment}`, target.id, { type: sub.type, attributes: { logOnly: true } }, undefined, { withId: true });
      changed.push({ kind: 'mapping', name, path: `${sub.attribute}.${name}` });
    }
  }, `hand change of ${name}`);
  const drift = await h.cli(['drift', '--format', 'json', ...h.connection, '.'], { cwd: dir });
  if (drift.code !== 2) failed++;
  let entries: { kind: string; name: string; path: string }[] = [];
  try {
    entries = (JSON.parse(drift.stdout) as { entries: { kind: string; name: string; path: string }[] }).entries;
  } catch {
    failed++;
  }
  const unreported = changed.filter((c) => !entries.some((e) => e.kind === c.kind && e.name === c.name && (e.path === c.path || e.path.startsWith(`${c.path}.`)))).length;
  // Exported with the hand-changed uses (which differ from the default use) and read back: the names survive as names.
  const out = join(h.dir, `exported-${NAMES.indexOf(name)}`);
  const exported = await h.cli(['export', ...h.connection, '--out', out, '--deny-rule-use']);
  const reread = exported.code === 0 ? await h.cli(['validate', out, '--skip-secrets']) : exported;
  const exportFailed = reread.code === 0 && (await readFile(join(out, 'mapping', `${name}.yaml`), 'utf8').catch(() => '')).includes(`${name}:\n`) ? 0 : 1;
  const reverted = await h.cli(['apply', '--yes', ...h.connection, '.'], { cwd: dir });
  if (reverted.code !== 0) failed++;
  const plan = await h.cli(['plan', '--format', 'json', '--detailed-exitcode', ...h.connection, '.'], { cwd: dir });
  let remaining = 0;
  if (plan.code !== 0) {
    remaining = 1;
    try {
      remaining = Math.max(1, (JSON.parse(plan.stdout) as { steps?: unknown[] }).steps?.length ?? 1);
    } catch {
      failed++;
    }
  }
  const polluted = Object.getOwnPropertyNames(Object.prototype).filter((key) => !before.has(key));
  for (const key of polluted) Reflect.deleteProperty(Object.prototype, key);
  return { name, objects: declared.length, handChanges: changed.length, unreported, failed, remaining, exportFailed, polluted: polluted.length };
}

describe('drill: prototype names', () => {
  it('objects and sub-resources named __proto__, constructor, toString… round-trip: created, hand change drifts, apply converges to zero', async () => {
    const seed = drillSeed(10);
    const full = drillMode() === 'full';
    const picked = full ? NAMES : ['__proto__', ...sample(NAMES.slice(1), 1, prng(seed))];
    const h = await startHarness();
    const rows: Row[] = [];
    try {
      for (const name of picked) rows.push(await roundTrip(h, name));
    } finally {
      await h.close();
    }
    expect(rows.every((r) => r.handChanges >= 3)).toBe(true);
    const violations = recordDrill({
      id: 'prototype-names',
      title: 'Prototype names',
      description:
        'For each name that plain JavaScript objects treat specially (__proto__, constructor, prototype, toString, ' +
        'hasOwnProperty, valueOf), one object of every kind of the latest variant and a mapping that uses the custom deny ' +
        'rule group and custom deny rule of that name as sub-resources are applied; then every updatable object and both ' +
        'sub-resources are changed on the gateway by hand. Drift must report every hand change, apply must revert them, ' +
        'the plan afterwards must be empty, an export (with the deny rule uses) must validate and keep the key, and ' +
        'Object.prototype must gain no member.',
      seed,
      columns: ['name', 'objects', 'hand changes', 'not reported by drift', 'failed runs', 'changes left after apply', 'export not valid or lost a key', 'Object.prototype members added'],
      rows: rows.map((r) => [r.name, r.objects, r.handChanges, r.unreported, r.failed, r.remaining, r.exportFailed, r.polluted]),
      mustBeZero: ['not reported by drift', 'failed runs', 'changes left after apply', 'export not valid or lost a key', 'Object.prototype members added'],
    });
    expect(violations).toEqual([]);
  }, 300_000);
});
