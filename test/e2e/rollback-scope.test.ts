/**
 * Two teams on one gateway, each with a label-scoped project: a rollback of team A's
 * project changes team A's objects only (planned within the ownership scope, executed in
 * one session, one activation); team B's objects, created after the configuration rolled
 * back to, stay. `--whole-configuration` activates the earlier configuration as it was, and
 * its preview lists the changes outside the scope first.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

const group = (name: string, host: string): string =>
  `apiVersion: gwops/v1\nkind: back-end-group\nname: ${name}\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: ${host}, port: 8080 }]\n---\n`;
const mapping = (name: string, label: string, path: string, backend: string): string =>
  `apiVersion: gwops/v1\nkind: mapping\nname: ${name}\nattributes:\n  labels: [${label}]\n  entryPath: { value: /${name}/ }\n  backendPath: ${path}\nrelationships:\n  back-end-groups: [${backend}]\n---\n`;
const project = (label: string, prefix: string): string => `ownership:\n  mapping: ['label==${label}']\n  back-end-group: ['name=@${prefix}']\n`;

describe('rollback within the ownership scope', () => {
  const t = useHarness();

  it("rolls back team A's objects and leaves team B's, created since, as they are", async () => {
    const a1 = await writeManifests(t.h, 'scope-a1', { 'gwops.yaml': project('team-alpha', 'alpha-'), 'all.yaml': group('alpha-pool', 'alpha.internal') + mapping('alpha-shop', 'team-alpha', '/v1/', 'alpha-pool') });
    const a2 = await writeManifests(t.h, 'scope-a2', {
      'gwops.yaml': project('team-alpha', 'alpha-'),
      'all.yaml': group('alpha-pool', 'alpha.internal') + mapping('alpha-shop', 'team-alpha', '/v2/', 'alpha-pool') + mapping('alpha-new', 'team-alpha', '/new/', 'alpha-pool'),
    });
    const b = await writeManifests(t.h, 'scope-b', { 'gwops.yaml': project('team-beta', 'beta-'), 'all.yaml': group('beta-pool', 'beta.internal') + mapping('beta-api', 'team-beta', '/b/', 'beta-pool') });
    const configA = ['--config', join(a1, 'gwops.yaml')];
    const applyA1 = await t.h.cli(['apply', '--yes', ...configA, a1, ...t.h.connection, '--comment', 'gwops apply: aaaaaaa alpha first (Ann)']);
    expect(applyA1.code, applyA1.stderr).toBe(0);
    const first = (t.h.emulator.activeSnapshot() as { id: string }).id;
    const applyB = await t.h.cli(['apply', '--yes', '--config', join(b, 'gwops.yaml'), b, ...t.h.connection, '--comment', 'gwops apply: bbbbbbb beta (Bea)']);
    expect(applyB.code, applyB.stderr).toBe(0);
    const applyA2 = await t.h.cli(['apply', '--yes', ...configA, a2, ...t.h.connection, '--comment', 'gwops apply: ccccccc alpha second (Ann)']);
    expect(applyA2.code, applyA2.stderr).toBe(0);

    // The whole configuration's preview names team B's objects first; nothing is activated without --yes.
    const whole = await t.h.cli(['rollback', '--whole-configuration', ...configA, ...t.h.connection, first]);
    expect(whole.code).toBe(1);
    const outside = whole.stdout.indexOf("OUTSIDE this project's ownership scope");
    expect(outside).toBeGreaterThan(0);
    expect(whole.stdout.indexOf('delete mapping "beta-api"')).toBeGreaterThan(outside);
    expect(whole.stdout.indexOf('delete back-end-group "beta-pool"')).toBeGreaterThan(outside);
    expect(whole.stdout.indexOf('delete mapping "beta-api"')).toBeLessThan(whole.stdout.indexOf('Rollback preview'));

    const preview = await t.h.cli(['rollback', ...configA, ...t.h.connection, first, '--format', 'json']);
    expect(preview.code).toBe(1);
    const json = JSON.parse(preview.stdout) as { mode: string; outsideScope: unknown[]; changes: { steps: { action: string; name: string }[] } };
    expect(json.mode).toBe('scope');
    expect(json.outsideScope).toEqual([]);
    expect(json.changes.steps.map((s) => `${s.action} ${s.name}`).sort()).toEqual(['delete alpha-new', 'unlink alpha-new', 'update alpha-shop']);

    t.h.emulator.requestLog.length = 0;
    const rollback = await t.h.cli(['rollback', '--yes', ...configA, ...t.h.connection, first]);
    expect(rollback.code, rollback.stderr).toBe(0);
    expect(rollback.stdout).toContain("Within this project's ownership scope only");
    const activations = t.h.emulator.requestLog.filter((e) => e.method === 'POST' && e.path.endsWith('/configurations/activate'));
    expect(activations).toHaveLength(1);
    const sessions = t.h.emulator.requestLog.filter((e) => e.path.endsWith('/session/create'));
    expect(sessions).toHaveLength(1);
    expect((t.h.emulator.activeSnapshot() as { comment?: string }).comment).toBe(`gwops rollback: to configuration ${first} (aaaaaaa alpha first)`);

    const live = await t.h.raw(async (s) => ({
      mappings: (await s.list('mappings', [])).map((m) => `${m.attributes.name as string}:${m.attributes.backendPath as string}`).sort(),
      groups: (await s.list('back-end-groups', [])).map((g) => g.attributes.name as string).sort(),
    }));
    expect(live.mappings).toEqual(['alpha-shop:/v1/', 'beta-api:/b/']);
    expect(live.groups).toEqual(['alpha-pool', 'beta-pool']);
    // Team B's project sees no difference; team A's manifests of the first commit match again.
    expect((await t.h.cli(['plan', '--config', join(b, 'gwops.yaml'), b, ...t.h.connection, '--detailed-exitcode', '--no-server-check'])).code).toBe(0);
    expect((await t.h.cli(['plan', ...configA, a1, ...t.h.connection, '--detailed-exitcode', '--no-server-check', '--prune'])).code).toBe(0);

    // Again: nothing differs within the scope any more; nothing is asked or activated.
    const again = await t.h.cli(['rollback', '--yes', ...configA, ...t.h.connection, first]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain("Within this project's ownership scope, configuration");
  });

  it('refuses a rollback without an ownership scope unless --whole-configuration, before contacting the gateway', async () => {
    const bare = await writeManifests(t.h, 'scope-none', { 'gwops.yaml': 'targets: {}\n' });
    t.h.emulator.requestLog.length = 0;
    const r = await t.h.cli(['rollback', '--yes', '--config', join(bare, 'gwops.yaml'), ...t.h.connection, '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--whole-configuration');
    expect(t.h.emulator.requestLog).toEqual([]);
  });
});
