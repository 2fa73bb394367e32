/**
 * The ownership scope cannot be crossed by a name, end to end: team B applies a mapping
 * (label `teamB`) linked to its back-end group; team A, whose scope is `label==teamA`,
 * declares a mapping of the same name. `plan` and `apply` refuse it, naming the object,
 * its labels and team A's scope, show the plan that was refused, and change nothing.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { shownFile, useHarness, writeManifests } from './harness.js';

const TEAM_B = `apiVersion: gwops/v1
kind: back-end-group
name: team-b-group
attributes:
  backendHosts:
    - { hostName: b.internal, port: 8080 }
---
apiVersion: gwops/v1
kind: mapping
name: orders-api
attributes:
  labels: [teamB]
  entryPath: { value: /b/orders/ }
  backendPath: /
relationships:
  back-end-groups: [team-b-group]
`;

const TEAM_A = `apiVersion: gwops/v1
kind: mapping
name: orders-api
attributes:
  labels: [teamA]
  entryPath: { value: /a/orders/ }
  backendPath: /
relationships:
  back-end-groups: []
---
apiVersion: gwops/v1
kind: mapping
name: team-a-home
attributes:
  labels: [teamA]
  entryPath: { value: /a/ }
  backendPath: /
`;

describe('a declared name that exists live outside the ownership scope', () => {
  const t = useHarness();
  let teamA = '';
  let teamB = '';
  beforeAll(async () => {
    teamB = join(await writeManifests(t.h, 'team-b', { 'gwops.yaml': "manifests: [b.yaml]\nownership:\n  mapping: ['label==teamB']\n", 'b.yaml': TEAM_B }), 'gwops.yaml');
    teamA = join(await writeManifests(t.h, 'team-a', { 'gwops.yaml': "manifests: [a.yaml]\nownership:\n  mapping: ['label==teamA']\n", 'a.yaml': TEAM_A }), 'gwops.yaml');
    const applied = await t.h.cli(['apply', '--config', teamB, ...t.h.connection, '--yes', '--comment', 'team B']);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
  });

  it('plan refuses it, naming the object, its labels and the scope, at the declaring document, and shows the refused plan', async () => {
    const before = JSON.stringify(t.h.emulator.activeSnapshot());
    const r = await t.h.cli(['plan', '--config', teamA, ...t.h.connection]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`${shownFile(join(t.h.dir, 'team-a', 'a.yaml')).source}:1:1`));
    expect(r.stderr).toContain("mapping 'orders-api' exists on the gateway outside this project's ownership scope (mapping: label==teamA)");
    expect(r.stderr).toContain('labels ["teamB"]');
    expect(r.stdout).toContain('mapping "orders-api"');
    expect(JSON.stringify(t.h.emulator.activeSnapshot())).toBe(before);
  });

  it('plan --format json carries the refusal as a diagnostic of the plan document', async () => {
    const r = await t.h.cli(['plan', '--config', teamA, ...t.h.connection, '--format', 'json']);
    expect(r.code).toBe(1);
    const document = JSON.parse(r.stdout) as { diagnostics: { code: string; object?: { kind: string; name: string } }[] };
    expect(document.diagnostics.map((d) => [d.code, d.object?.name])).toEqual([['outside-ownership-scope', 'orders-api']]);
  });

  it("apply refuses it too: team B's mapping keeps its labels, entry path and back-end group", async () => {
    const before = JSON.stringify(t.h.emulator.activeSnapshot());
    const r = await t.h.cli(['apply', '--config', teamA, ...t.h.connection, '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("mapping 'orders-api' exists on the gateway outside this project's ownership scope");
    expect(JSON.stringify(t.h.emulator.activeSnapshot())).toBe(before);
    const teamBPlan = await t.h.cli(['plan', '--config', teamB, ...t.h.connection, '--detailed-exitcode']);
    expect(teamBPlan.stdout).toContain('No changes');
    expect(teamBPlan.code).toBe(0);
  });
});
