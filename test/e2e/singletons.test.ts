/**
 * Singletons end to end against the emulator over real HTTP (docs/gateway-api.md
 * "Singletons", docs/manifest-reference.md "Singletons"), for every singleton kind of the
 * registry: a document without name validates (a typo gets file:line and did-you-mean),
 * apply patches it and the plan is then empty, a change by hand is drift that apply heals,
 * `drift --adopt` edits the document, `--prune` and a project that declares none leave it
 * alone, and an export holding it plans no change.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import type { KindDefinition } from '../../src/kinds/index.js';
import { KIND_EXAMPLES } from '../support/kind-examples.js';
import type { KindExample } from '../support/kind-examples.js';
import { useHarness, writeManifests } from './harness.js';

/** The singletons with attribute names to declare (the others: 'singletons without known attributes' below). */
const SINGLETONS: readonly KindDefinition[] = KINDS.filter((k) => k.singleton !== undefined && Object.keys(k.attributes.properties ?? {}).length > 0);

/** The singletons whose schema holds no attribute yet (no source shows their names). */
const BARE: readonly KindDefinition[] = KINDS.filter((k) => k.singleton !== undefined && Object.keys(k.attributes.properties ?? {}).length === 0);

const fixtures = { certificate: (): never => { throw new Error('no singleton needs a certificate'); } };

/** A project whose manifest declares the singleton with `attributes` (none when undefined), plus an owned IP list. */
function project(kind: KindDefinition, attributes: Record<string, unknown> | undefined): Record<string, string> {
  const list = "apiVersion: gwops/v1\nkind: ip-address-list\nname: sg-list\nattributes:\n  ips: ['192.0.2.0/24']\n";
  const singleton = attributes === undefined ? '' : `---\n${stringify({ apiVersion: 'gwops/v1', kind: kind.type, attributes })}`;
  return { 'gwops.yaml': "manifests: [settings.yaml]\nownership:\n  ip-address-list: ['name=@sg-']\n", 'settings.yaml': list + singleton };
}

/** The attributes the gateway serves for the singleton now. */
async function served(t: ReturnType<typeof useHarness>, kind: KindDefinition): Promise<Record<string, unknown>> {
  return t.h.raw(async (s) => (await s.readSingleton(kind.singleton?.path ?? '')).attributes);
}

describe.each(SINGLETONS.map((k) => [k.type, k] as const))('singleton %s', (type, kind) => {
  const t = useHarness();

  it('validates, applies, finds and heals drift, adopts, survives --prune, is never touched undeclared, and exports to zero changes', async () => {
    const example: KindExample = await KIND_EXAMPLES[kind.type](type, fixtures);
    const before = await served(t, kind);

    // A typo in an attribute: file:line and did-you-mean; nothing is sent.
    const [first] = Object.keys(example.attributes);
    const typo = `${first ?? 'x'}x`;
    const bad = await writeManifests(t.h, 'typo', project(kind, { [typo]: example.attributes[first ?? ''] }));
    const invalid = await t.h.cli(['validate', '--config', join(bad, 'gwops.yaml')]);
    expect(invalid.code).not.toBe(0);
    expect(invalid.stdout + invalid.stderr).toMatch(new RegExp(`settings\\.yaml:\\d+:\\d+`));
    expect(invalid.stdout + invalid.stderr).toContain(typo);

    // A project that declares none never reads nor changes it, with --prune too.
    const none = await writeManifests(t.h, 'none', project(kind, undefined));
    const noneConfig = ['--config', join(none, 'gwops.yaml'), ...t.h.connection];
    const noneApply = await t.h.cli(['apply', ...noneConfig, '--yes', '--prune', '--comment', 'no singleton']);
    expect(noneApply.code).toBe(0);
    expect(noneApply.stdout + noneApply.stderr).not.toContain(type);
    expect(await served(t, kind)).toEqual(before);

    // Declared: apply patches exactly the declared attributes, then the plan is empty.
    const folder = await writeManifests(t.h, 'project', project(kind, { ...example.attributes }));
    const config = ['--config', join(folder, 'gwops.yaml'), ...t.h.connection];
    expect((await t.h.cli(['validate', '--config', join(folder, 'gwops.yaml')])).code).toBe(0);
    const apply = await t.h.cli(['apply', ...config, '--yes', '--prune', '--comment', `set ${type}`]);
    expect(apply.stderr).not.toMatch(/^Error/m);
    expect(apply.code).toBe(0);
    expect(await served(t, kind)).toMatchObject(example.attributes);
    const empty = await t.h.cli(['plan', ...config, '--prune', '--detailed-exitcode']);
    expect(empty.stdout).toContain('No changes');
    expect(empty.code).toBe(0);

    // By hand: drift finds the change, apply heals it.
    await t.h.raw(async (s) => s.updateSingleton(kind.singleton?.path ?? '', { type, attributes: { ...example.update } }), `${type} by hand`);
    const drift = await t.h.cli(['drift', ...config]);
    expect(drift.code).not.toBe(0);
    expect(drift.stdout).toContain(type);
    const heal = await t.h.cli(['apply', ...config, '--yes', '--prune', '--comment', `heal ${type}`]);
    expect(heal.code).toBe(0);
    expect(await served(t, kind)).toMatchObject(example.attributes);

    // drift --adopt writes the hand-made value into the singleton's document (no name added).
    await t.h.raw(async (s) => s.updateSingleton(kind.singleton?.path ?? '', { type, attributes: { ...example.update } }), `${type} by hand again`);
    const adopted = await t.h.cli(['drift', '--adopt', ...config]);
    expect(adopted.stderr).not.toMatch(/^Error/m);
    const text = await readFile(join(folder, 'settings.yaml'), 'utf8');
    const doc = text.split(/^---$/m).find((d) => d.includes(`kind: ${type}`)) ?? '';
    expect(doc).not.toMatch(/^name:/m);
    expect(doc).toContain(stringify(example.update).trim().split('\n')[0] ?? '');
    expect((await t.h.cli(['plan', ...config, '--detailed-exitcode'])).code).toBe(0);

    // Export holds it, without name, and the export plans no change (set to the example's values
    // first: the adopted ones may be its defaults, which export leaves out).
    await t.h.raw(async (s) => s.updateSingleton(kind.singleton?.path ?? '', { type, attributes: { ...example.attributes } }), `${type} for export`);
    const out = join(t.h.dir, 'export');
    const exported = await t.h.cli(['export', ...t.h.connection, '--out', out]);
    expect(exported.code).toBe(0);
    const files = await readdir(join(out, type));
    expect(files).toHaveLength(1);
    // Changed from its defaults, so export writes it.
    const exportedDoc = await readFile(join(out, type, files[0] ?? ''), 'utf8');
    expect(exportedDoc).toMatch(new RegExp(`^kind: ${type}$`, 'm'));
    expect(exportedDoc).not.toMatch(/^name:/m);
    const replan = await t.h.cli(['plan', '--config', join(out, 'gwops.yaml'), ...t.h.connection, '--detailed-exitcode']);
    expect(replan.stderr).toBe('');
    expect(replan.code).toBe(0);
  });
});

describe('singletons without known attributes', () => {
  const t = useHarness();

  it.each(BARE.map((k) => [k.type, k] as const))('%s: served at its path, declared by kind alone with no change, any attribute refused with file:line, not exported as shipped', async (type, kind) => {
    expect((await t.h.raw(async (s) => s.readSingleton(kind.singleton?.path ?? ''))).type).toBe(type);
    const folder = await writeManifests(t.h, `bare-${type}`, project(kind, {}));
    const config = ['--config', join(folder, 'gwops.yaml'), ...t.h.connection];
    expect((await t.h.cli(['apply', ...config, '--yes', '--prune', '--comment', `bare ${type}`])).code).toBe(0);
    expect((await t.h.cli(['plan', ...config, '--prune', '--detailed-exitcode'])).code).toBe(0);
    const bad = await writeManifests(t.h, `bare-${type}-typo`, project(kind, { level: 'x' }));
    const invalid = await t.h.cli(['validate', '--config', join(bad, 'gwops.yaml')]);
    expect(invalid.code).not.toBe(0);
    expect(invalid.stdout + invalid.stderr).toMatch(/settings\.yaml:\d+:\d+/);
    // As the gateway ships it (no attribute gwops knows), export writes no document for it.
    const out = join(t.h.dir, `bare-${type}-export`);
    const exported = await t.h.cli(['export', ...t.h.connection, '--out', out, '--kind', type]);
    expect(exported.code).toBe(0);
    expect(exported.stdout + exported.stderr).toContain('Exported 0 objects');
  });
});
