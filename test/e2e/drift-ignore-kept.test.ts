/**
 * An ignored difference holds, end to end: a hotfix of a back-end group's `backendHosts`
 * made on the gateway and ignored in `drift.ignore` until a date survives `plan` and
 * `apply` (the plan says it kept one ignored difference, in text, markdown and JSON; an
 * apply that changes another attribute of the same object leaves the hotfix alone; a saved
 * plan keeps it too), and after the `until` day it is reverted. A typo in an entry's
 * object name or attribute path is a warning with a did-you-mean, located in the project
 * file. The clock is injected.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';
import type { CliResult } from './harness.js';
import { cliAtTime } from './harness.js';

const t = useHarness();

const project = (object: string, attribute: string): string => `manifests: [groups.yaml]
drift:
  ignore:
    - object: ${object}
      attribute: ${attribute}
      reason: dc1 is down, traffic goes to dc2
      until: 2027-01-31
`;

const groups = (tenant: string): string => `apiVersion: gwops/v1
kind: back-end-group
name: shop-backend
attributes:
  tenant: ${tenant}
  backendHosts:
    - { hostName: dc1.shop.internal, port: 8080 }
`;

const BEFORE_UNTIL = new Date('2027-01-31T22:00:00Z');
const AFTER_UNTIL = new Date('2027-02-01T00:00:00Z');

const cliAt = (now: Date, args: readonly string[], cwd: string): Promise<CliResult> => cliAtTime(t.h, now, args, cwd);

/** The live `backendHosts` host names and `tenant` of shop-backend. */
async function live(): Promise<{ hosts: string[]; tenant: unknown }> {
  return t.h.raw(async (s) => {
    const [group] = await s.list('back-end-groups', ['name==shop-backend']);
    const hosts = (group?.attributes.backendHosts as { hostName: string }[] | undefined) ?? [];
    return { hosts: hosts.map((h) => h.hostName), tenant: group?.attributes.tenant };
  });
}

describe('an ignored hotfix on the gateway', () => {
  let dir = '';
  let conn: string[] = [];
  beforeAll(async () => {
    dir = await writeManifests(t.h, 'kept', { 'gwops.yaml': project('back-end-group/shop-backend', 'backendHosts'), 'groups.yaml': groups('retail') });
    conn = ['--config', join(dir, 'gwops.yaml'), ...t.h.connection];
    const applied = await cliAt(BEFORE_UNTIL, ['apply', '--yes', ...conn], dir);
    expect(applied.code).toBe(0);
    await t.h.raw(async (s) => {
      const [group] = await s.list('back-end-groups', ['name==shop-backend']);
      if (!group) throw new Error('shop-backend was not applied');
      await s.update('back-end-groups', group.id, { type: 'back-end-group', attributes: { backendHosts: [{ hostName: 'dc2.shop.internal', port: 8080 }] } });
    }, 'hotfix: dc2');
  });

  it('is kept by plan, which says so in text, markdown and JSON', async () => {
    const text = await cliAt(BEFORE_UNTIL, ['plan', '--detailed-exitcode', ...conn], dir);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('No changes');
    expect(text.stdout).toContain('1 ignored difference kept');
    expect(text.stdout).toContain('back-end-group "shop-backend" backendHosts: changed on the gateway, ignored until 2027-01-31 ("dc1 is down, traffic goes to dc2")');
    const markdown = await cliAt(BEFORE_UNTIL, ['plan', '--format', 'markdown', ...conn], dir);
    expect(markdown.stdout).toContain('#### 1 ignored difference kept');
    const json = await cliAt(BEFORE_UNTIL, ['plan', '--format', 'json', ...conn], dir);
    const plan = JSON.parse(json.stdout) as { steps: unknown[]; ignored?: unknown[] };
    expect(plan.steps).toEqual([]);
    expect(plan.ignored).toEqual([
      { direction: 'changed', kind: 'back-end-group', name: 'shop-backend', path: 'backendHosts', ignoredBy: { object: 'back-end-group/shop-backend', attribute: 'backendHosts', reason: 'dc1 is down, traffic goes to dc2', until: '2027-01-31' } },
    ]);
  });

  it('survives apply, also one that changes another attribute of the object, and a saved plan', async () => {
    const before = JSON.stringify(t.h.emulator.activeSnapshot());
    const unchanged = await cliAt(BEFORE_UNTIL, ['apply', '--yes', ...conn], dir);
    expect(unchanged.code).toBe(0);
    expect(JSON.stringify(t.h.emulator.activeSnapshot())).toBe(before);

    await writeFile(join(dir, 'groups.yaml'), groups('wholesale'));
    const planFile = join(dir, 'plan.json');
    const saved = await cliAt(BEFORE_UNTIL, ['plan', '--out', planFile, ...conn], dir);
    expect(saved.code).toBe(0);
    expect(saved.stdout).toContain('~ tenant');
    expect(saved.stdout).not.toContain('~ backendHosts');
    const applied = await cliAt(BEFORE_UNTIL, ['apply', '--plan', planFile, '--yes', ...t.h.connection], dir);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(await live()).toEqual({ hosts: ['dc2.shop.internal'], tenant: 'wholesale' });
  });

  it('is reverted after the until day; a plan file made before it is refused by name', async () => {
    const planFile = join(dir, 'before.json');
    expect((await cliAt(BEFORE_UNTIL, ['plan', '--out', planFile, ...conn], dir)).code).toBe(0);
    const before = JSON.stringify(t.h.emulator.activeSnapshot());
    const stale = await cliAt(AFTER_UNTIL, ['apply', '--plan', planFile, '--yes', ...t.h.connection], dir);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('keeps differences by drift.ignore entries that have expired since it was made (back-end-group/shop-backend backendHosts until 2027-01-31)');
    expect(JSON.stringify(t.h.emulator.activeSnapshot())).toBe(before);

    const plan = await cliAt(AFTER_UNTIL, ['plan', ...conn], dir);
    expect(plan.stderr).toContain('drift.ignore entry back-end-group/shop-backend backendHosts expired on 2027-01-31');
    expect(plan.stdout).toContain('~ backendHosts');
    expect(plan.stdout).not.toContain('ignored difference');
    const applied = await cliAt(AFTER_UNTIL, ['apply', '--yes', ...conn], dir);
    expect(applied.code).toBe(0);
    expect(await live()).toEqual({ hosts: ['dc1.shop.internal'], tenant: 'wholesale' });
  });
});

describe('a typo in a drift.ignore entry', () => {
  it('is a warning with a did-you-mean for the object name and the attribute path, at the entry', async () => {
    const dir = await writeManifests(t.h, 'typo', { 'gwops.yaml': project('back-end-group/shop-backnd', 'backendHost'), 'groups.yaml': groups('retail') });
    const r = await cliAt(BEFORE_UNTIL, ['validate', '--config', join(dir, 'gwops.yaml')], dir);
    expect(r.code).toBe(0);
    const out = r.stdout + r.stderr;
    const file = 'gwops\\.yaml';
    expect(out).toMatch(new RegExp(`${file}:4:15: warning: drift.ignore object 'back-end-group/shop-backnd' names no back-end-group that the manifests declare.*did you mean 'back-end-group/shop-backend'\\?`));
    expect(out).toMatch(new RegExp(`${file}:5:18: warning: drift.ignore attribute 'backendHost' of back-end-group/shop-backnd is no attribute path of back-end-group, so the entry ignores nothing: did you mean 'backendHosts'\\?`));
    expect(out).toContain('[drift-ignore-unmatched]');
  });
});
