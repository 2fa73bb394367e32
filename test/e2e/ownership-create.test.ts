/**
 * An object the project would create must match its own kind's ownership filters, end to
 * end: a back-end group that fails `name=@shop-`, or a mapping that lacks the label of
 * `labels==team-a`, is refused offline (validate, plan and apply), naming the filter and
 * the document at file:line:column, with nothing sent to the gateway. The same objects
 * declared inside the scope are created and then plan to zero changes.
 */
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { shownFile, useHarness, writeManifests } from './harness.js';

const group = (name: string): string => `apiVersion: gwops/v1
kind: back-end-group
name: ${name}
attributes:
  backendHosts:
    - { hostName: b.internal, port: 8080 }
`;

const mapping = (labels: string): string => `${group('team-a-group')}---
apiVersion: gwops/v1
kind: mapping
name: team-a-orders
attributes:
${labels}  entryPath: { value: /team-a/orders/ }
  backendPath: /
relationships:
  back-end-groups: [team-a-group]
`;

describe('a declared object outside its own ownership scope', () => {
  const t = useHarness();
  let dir = '';
  let config = '';
  const sent = (): number => t.h.emulator.requestLog.length;
  beforeAll(async () => {
    dir = await writeManifests(t.h, 'shop', { 'gwops.yaml': "manifests: [groups.yaml]\nownership:\n  back-end-group: ['name=@shop-']\n", 'groups.yaml': group('web-backend') });
    config = join(dir, 'gwops.yaml');
  });

  it('validate refuses a back-end group whose name fails name=@shop-, naming the filter at the name', async () => {
    const r = await t.h.cli(['validate', '--config', config]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(new RegExp(`${shownFile(join(dir, 'groups.yaml')).source}:3:7: error: back-end-group 'web-backend' does not match the ownership filter 'name=@shop-'`));
    expect(r.stdout + r.stderr).toContain('[outside-ownership-scope]');
  });

  it('plan and apply refuse it before anything is sent to the gateway', async () => {
    const before = JSON.stringify(t.h.emulator.activeSnapshot());
    t.h.emulator.requestLog.length = 0;
    for (const command of [['plan'], ['apply', '--yes']]) {
      const r = await t.h.cli([...command, '--config', config, ...t.h.connection]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("does not match the ownership filter 'name=@shop-'");
    }
    expect(sent()).toBe(0);
    expect(JSON.stringify(t.h.emulator.activeSnapshot())).toBe(before);
  });

  it('the same group named inside the scope is created, and then plans to zero changes', async () => {
    await writeFile(join(dir, 'groups.yaml'), group('shop-web-backend'));
    const applied = await t.h.cli(['apply', '--config', config, ...t.h.connection, '--yes']);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    const plan = await t.h.cli(['plan', '--config', config, ...t.h.connection, '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
  });

  it('a label-scoped mapping without its label is refused offline; declaring the label is accepted, applied and plans to zero', async () => {
    const team = await writeManifests(t.h, 'team-a', { 'gwops.yaml': "manifests: [a.yaml]\nownership:\n  mapping: ['labels==team-a']\n", 'a.yaml': mapping('') });
    const teamConfig = join(team, 'gwops.yaml');
    t.h.emulator.requestLog.length = 0;
    const refused = await t.h.cli(['apply', '--config', teamConfig, ...t.h.connection, '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(new RegExp(`${shownFile(join(team, 'a.yaml')).source}:\\d+:1: error: mapping 'team-a-orders' does not match the ownership filter 'labels==team-a'.*which declares no labels`));
    expect(sent()).toBe(0);

    await writeFile(join(team, 'a.yaml'), mapping('  labels: [team-a]\n'));
    expect((await t.h.cli(['validate', '--config', teamConfig])).code).toBe(0);
    const applied = await t.h.cli(['apply', '--config', teamConfig, ...t.h.connection, '--yes']);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    for (const command of [['plan', '--detailed-exitcode'], ['drift']]) {
      const r = await t.h.cli([...command, '--config', teamConfig, ...t.h.connection]);
      // The project is not in a Git repository: drift says in one line that it has no base, and nothing else.
      expect(r.stderr.replace(/^note: No base: .*\n/, '')).toBe('');
      expect(r.code).toBe(0);
    }
  });
});

describe('a project stuck with an object created outside its scope', () => {
  const t = useHarness();
  it('is told that declaring the label takes nothing over, and how to recover', async () => {
    const team = await writeManifests(t.h, 'stuck', { 'gwops.yaml': 'manifests: [a.yaml]\n', 'a.yaml': mapping('') });
    const config = join(team, 'gwops.yaml');
    expect((await t.h.cli(['apply', '--config', config, ...t.h.connection, '--yes'])).code).toBe(0);
    await writeFile(config, "manifests: [a.yaml]\nownership:\n  mapping: ['labels==team-a']\n");
    await writeFile(join(team, 'a.yaml'), mapping('  labels: [team-a]\n'));
    const refused = await t.h.cli(['plan', '--config', config, ...t.h.connection]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('declaring never takes an object over: if this project created it outside its scope, set that value on the gateway by hand once');
    // Recovered as the message says: the label set on the gateway by hand.
    await t.h.raw(async (s) => {
      const [m] = await s.list('mappings', ['name==team-a-orders']);
      if (!m) throw new Error('team-a-orders was not applied');
      await s.update('mappings', m.id, { type: 'mapping', attributes: { labels: ['team-a'] } });
    }, 'label set by hand');
    const plan = await t.h.cli(['plan', '--detailed-exitcode', '--config', config, ...t.h.connection]);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
  });
});
