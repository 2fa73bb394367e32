/**
 * `gwops export` round trips that name objects the export does not declare: links to the
 * built-in objects (the virtual host `default`, the default certificate), selective exports
 * whose links leave the selection, and live values that hold `${...}`. Each export is then
 * validated and planned against the same gateway, which must show no change: links to
 * undeclared objects are resolved by name against the gateway at plan time.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GatewaySession } from '../../src/gateway/index.js';
import type { CliResult } from './harness.js';
import { useHarness, writeManifests } from './harness.js';
import { apartFromExternalLinkWarnings } from '../support/external-links.js';

interface ExportJson {
  dir: string;
  secrets: { variable: string }[];
  warnings: string[];
}

describe('gwops export round trips with links outside the export', () => {
  const t = useHarness();
  let counter = 0;
  /** A mapping needs a back-end group to be valid: every mapping these tests create gets this one. */
  const BACKEND = { type: 'back-end-group', id: '' };

  beforeAll(async () => {
    BACKEND.id = await t.h.raw(
      async (s) => (await s.create('back-end-groups', { type: 'back-end-group', attributes: { name: 'rt-backend', backendHosts: [{ protocol: 'HTTP', hostName: 'rt.internal', port: 80 }] } })).id,
      'a back-end group',
    );
  });

  async function exportTo(extra: readonly string[] = []): Promise<{ dir: string; result: ExportJson }> {
    const dir = join(t.h.dir, `round-trip-${++counter}`);
    const r = await t.h.cli(['export', ...t.h.connection, '--out', dir, '--format', 'json', ...extra]);
    expect(r.stderr).not.toMatch(/^Error/m);
    expect(r.code).toBe(0);
    return { dir, result: JSON.parse(r.stdout) as ExportJson };
  }

  /** Validate and plan the exported project; returns the plan run (expected: no change). */
  async function planOf(dir: string, result: ExportJson, env: Record<string, string> = {}, flags: readonly string[] = []): Promise<CliResult> {
    const secrets = Object.fromEntries(result.secrets.map((s) => [s.variable, 'placeholder-not-a-secret']));
    const config = ['--config', join(dir, 'gwops.yaml')];
    const validate = await t.h.cli(['validate', ...config], { env: { ...secrets, ...env } });
    expect(apartFromExternalLinkWarnings(validate.stdout + validate.stderr)).not.toMatch(/error|warning/i);
    expect(validate.code).toBe(0);
    return t.h.cli(['plan', ...config, ...t.h.connection, '--detailed-exitcode', ...flags], { env: { ...secrets, ...env } });
  }

  const expectNoChanges = (plan: CliResult): void => {
    expect(apartFromExternalLinkWarnings(plan.stderr)).toBe('');
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
  };

  it('a mapping linked to the built-in virtual host default exports by name and plans no change', async () => {
    await t.h.raw(async (s) => {
      const mapping = await s.create('mappings', { type: 'mapping', attributes: { name: 'on-default-host', entryPath: { value: '/on-default/' } } });
      await s.link('mappings', mapping.id, 'virtual-hosts', [{ type: 'virtual-host', id: '-1000' }]);
      await s.link('mappings', mapping.id, 'back-end-groups', [BACKEND]);
    }, 'a mapping on the default virtual host');
    const { dir, result } = await exportTo();
    const mapping = await readFile(join(dir, 'mapping', 'on-default-host.yaml'), 'utf8');
    expect(mapping).toMatch(/virtual-hosts:\n {4}- default\n/);
    await expect(readFile(join(dir, 'virtual-host', 'default.yaml'), 'utf8')).rejects.toThrow();
    expect(await readFile(join(dir, 'gwops.yaml'), 'utf8')).toContain('allowExternalLinks: true');
    expectNoChanges(await planOf(dir, result));
  });

  it('a virtual host on the built-in default certificate exports the link and plans no change', async () => {
    await t.h.raw(async (s) => {
      const vh = await s.create('virtual-hosts', { type: 'virtual-host', attributes: { name: 'on-default-cert', hostName: 'cert.example.com' } });
      await s.link('virtual-hosts', vh.id, 'ssl-certificate', { type: 'ssl-certificate', id: '-1000' });
    }, 'a virtual host on the default certificate');
    const { dir, result } = await exportTo();
    const vh = await readFile(join(dir, 'virtual-host', 'on-default-cert.yaml'), 'utf8');
    expect(vh).toMatch(/ssl-certificate: sha256:[0-9a-f]{16}\n/);
    expect(result.warnings.join('\n')).not.toContain('on-default-cert');
    expectNoChanges(await planOf(dir, result));
  });

  it('a manifest may link a new mapping to the built-in virtual host default: apply sends it from the mapping, then nothing is left to plan', async () => {
    const project = await writeManifests(t.h, 'to-default', {
      'gwops.yaml': 'manifests: [m.yaml]\nallowExternalLinks: true\n',
      'm.yaml': 'apiVersion: gwops/v1\nkind: mapping\nname: new-on-default\nattributes:\n  entryPath: { value: /new-on-default/ }\nrelationships:\n  virtual-hosts: [default]\n  back-end-groups: [rt-backend]\n',
    });
    const config = ['--config', join(project, 'gwops.yaml'), ...t.h.connection];
    const apply = await t.h.cli(['apply', ...config, '--yes', '--comment', 'link to a built-in']);
    expect(apartFromExternalLinkWarnings(apply.stderr)).toBe('');
    // A built-in resolves by name everywhere: no warning that it will have to exist.
    expect(apply.stderr).not.toContain("virtual-host 'default'");
    expect(apply.code).toBe(0);
    const plan = await t.h.cli(['plan', ...config, '--detailed-exitcode']);
    expectNoChanges(plan);
  });

  it('a link naming an object that neither the manifests nor the gateway have is a located error', async () => {
    const project = await writeManifests(t.h, 'dangling', {
      'gwops.yaml': 'manifests: [m.yaml]\nallowExternalLinks: true\n',
      'm.yaml': 'apiVersion: gwops/v1\nkind: mapping\nname: dangling\nrelationships:\n  virtual-hosts: [no-such-host]\n',
    });
    const plan = await t.h.cli(['plan', '--config', join(project, 'gwops.yaml'), ...t.h.connection]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/m\.yaml:5:19: error: mapping 'dangling' virtual-hosts names virtual-host 'no-such-host', which no manifest declares and the gateway does not have/);
  });

  it('a selective export (kinds and filters per kind) plans no change, with --prune too, and owns only the kinds exported', async () => {
    await t.h.raw(seedCrossingLinks, 'links across the selection');
    const { dir, result } = await exportTo(['--kind', 'mapping', '--kind', 'back-end-group', '--filter', 'mapping:label==team-x', '--filter', 'back-end-group:name=@sel-y']);
    const project = await readFile(join(dir, 'gwops.yaml'), 'utf8');
    const ownership = /^ownership:\n((?: {2}.*\n)+)/m.exec(project)?.[1] ?? '';
    expect(ownership.split('\n').filter((line) => /^ {2}\S/.test(line)).sort()).toEqual(['  back-end-group:', '  mapping:']);
    expect(ownership).toContain('    - name=@sel-y\n');
    expect(ownership).toContain('    - label==team-x\n');
    expect(project).toContain('allowExternalLinks: true');
    // Links that leave the selection are written by name.
    expect(await readFile(join(dir, 'mapping', 'sel-m1.yaml'), 'utf8')).toMatch(/back-end-groups:\n {4}- other-g1\n {4}- sel-y-g1\n/);
    expect(await readFile(join(dir, 'back-end-group', 'sel-y-g2.yaml'), 'utf8')).toMatch(/mappings:\n {4}- other-m1\n/);
    expectNoChanges(await planOf(dir, result));
    expectNoChanges(await planOf(dir, result, {}, ['--prune']));
  });

  it('a live value holding ${...} is exported escaped ($${), so the plan reads it back verbatim and substitutes nothing', async () => {
    await t.h.raw(async (s) => {
      const mapping = await s.create('mappings', {
        type: 'mapping',
        attributes: { name: 'dollar-brace', backendPath: '/${GWOPS_API_KEY}/$${X}/${1}/', labels: ['a${GWOPS_API_KEY:-b}c', '$$', '${'] },
      });
      await s.link('mappings', mapping.id, 'back-end-groups', [BACKEND]);
    }, 'values with ${');
    const { dir, result } = await exportTo(['--kind', 'mapping', '--filter', 'name==dollar-brace']);
    const mapping = await readFile(join(dir, 'mapping', 'dollar-brace.yaml'), 'utf8');
    expect(mapping).toContain('/$${GWOPS_API_KEY}/$$${X}/$${1}/');
    // The project's target reads its key from GWOPS_API_KEY: the value must not be substituted by it.
    expectNoChanges(await planOf(dir, result, { GWOPS_API_KEY: t.h.emulator.apiKey }));
  });
});

/**
 * Mappings labelled `team-x` and back-end groups named `sel-y-*` (the selection), and
 * objects outside it, linked across: a selected mapping to a group outside, a selected
 * group to a mapping outside.
 */
async function seedCrossingLinks(s: GatewaySession): Promise<void> {
  const group = async (name: string): Promise<string> =>
    (await s.create('back-end-groups', { type: 'back-end-group', attributes: { name, backendHosts: [{ protocol: 'HTTP', hostName: `${name}.internal`, port: 8080 }] } })).id;
  const mapping = async (name: string, labels: string[]): Promise<string> =>
    (await s.create('mappings', { type: 'mapping', attributes: { name, labels, entryPath: { value: `/${name}/` } } })).id;
  const inG1 = await group('sel-y-g1');
  const inG2 = await group('sel-y-g2');
  const outG1 = await group('other-g1');
  const inM1 = await mapping('sel-m1', ['team-x']);
  const inM2 = await mapping('sel-m2', ['team-x']);
  const outM1 = await mapping('other-m1', ['team-z']);
  await s.link('mappings', inM1, 'back-end-groups', [
    { type: 'back-end-group', id: inG1 },
    { type: 'back-end-group', id: outG1 },
  ]);
  await s.link('mappings', inM2, 'back-end-groups', [{ type: 'back-end-group', id: inG1 }]);
  await s.link('mappings', outM1, 'back-end-groups', [{ type: 'back-end-group', id: inG2 }]);
  await s.link('mappings', outM1, 'virtual-hosts', [{ type: 'virtual-host', id: '-1000' }]);
}
