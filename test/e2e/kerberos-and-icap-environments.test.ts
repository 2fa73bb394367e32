/**
 * Kerberos and ICAP environments end to end against the emulator (docs/gateway-api.md
 * "Kerberos and ICAP environments"): a gateway set up through the raw API, with a back-end
 * group linked to a Kerberos environment from the environment's side, exports by name and
 * plans no change; a change in Git (another environment for the group, ICAP `failOpen`) is
 * applied; a change by hand is drift; environments outside the ownership scope are never
 * pruned.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiResource } from '../../src/gateway/index.js';
import { createdId, useHarness, writeManifests } from './harness.js';

const ids: Record<string, string> = {};

/** The project: two Kerberos environments, one ICAP environment and the group that uses one. */
function project(options: { kerberos: string; failOpen: boolean }): Record<string, string> {
  const doc = (kind: string, name: string, body = ''): string => `apiVersion: gwops/v1\nkind: ${kind}\nname: ${name}\n${body}`;
  return {
    'gwops.yaml': [
      'manifests: [environments.yaml, backend.yaml]',
      'ownership:',
      "  kerberos-environment: ['name=@app-']",
      "  icap-environment: ['name=@app-']",
      "  back-end-group: ['name=@app-']",
      '',
    ].join('\n'),
    'environments.yaml': [
      doc('kerberos-environment', 'app-kerberos'),
      doc('kerberos-environment', 'app-kerberos-next'),
      doc('icap-environment', 'app-icap', `attributes:\n  failOpen: ${String(options.failOpen)}\n`),
    ].join('---\n'),
    'backend.yaml': doc(
      'back-end-group',
      'app-backend',
      `attributes:\n  backendHosts: [{ protocol: HTTP, hostName: app.internal, port: 80 }]\nrelationships:\n  kerberos-environment: ${options.kerberos}\n`,
    ),
  };
}

/** The Kerberos environment a back-end group is linked to, read from both sides. */
async function kerberosOf(t: ReturnType<typeof useHarness>, group: string): Promise<{ group: unknown; environments: string[] }> {
  return t.h.raw(async (s) => {
    const groups = await s.list('back-end-groups', []);
    const environments = await s.list('kerberos-environments', []);
    const linked = environments.filter((e: ApiResource) => {
      const data = e.relationships['back-end-groups']?.data;
      return Array.isArray(data) && data.some((d) => d.id === group);
    });
    return { group: groups.find((g) => g.id === group)?.relationships['kerberos-environment']?.data, environments: linked.map((e) => e.id) };
  });
}

describe('Kerberos and ICAP environments through every command', () => {
  const t = useHarness();

  beforeAll(async () => {
    await t.h.raw(async (s) => {
      const create = (collection: string, type: string, attributes: Record<string, unknown>): Promise<string> => createdId(s, collection, type, attributes);
      ids.backend = await create('back-end-groups', 'back-end-group', { name: 'app-backend', backendHosts: [{ protocol: 'HTTP', hostName: 'app.internal', port: 80 }] });
      ids.kerberos = await create('kerberos-environments', 'kerberos-environment', { name: 'app-kerberos' });
      ids.old = await create('kerberos-environments', 'kerberos-environment', { name: 'app-kerberos-old' });
      ids.legacyKerberos = await create('kerberos-environments', 'kerberos-environment', { name: 'legacy-kerberos' });
      ids.icap = await create('icap-environments', 'icap-environment', { name: 'app-icap', failOpen: true });
      ids.legacyIcap = await create('icap-environments', 'icap-environment', { name: 'legacy-icap' });
      // From the environment's side, with back-end-group identifiers.
      await s.link('kerberos-environments', ids.kerberos, 'back-end-groups', [{ type: 'back-end-group', id: ids.backend }]);
    }, 'Kerberos and ICAP environments');
  });

  it('the link shows on both sides: to-one on the group, to-many on the environment', async () => {
    expect(await kerberosOf(t, ids.backend ?? '')).toEqual({ group: { type: 'kerberos-environment', id: ids.kerberos }, environments: [ids.kerberos] });
  });

  it('exports the environments and the group link by name, and the export plans no change', async () => {
    const dir = join(t.h.dir, 'export');
    const r = await t.h.cli(['export', ...t.h.connection, '--out', dir]);
    expect(r.code).toBe(0);
    expect(await readFile(join(dir, 'back-end-group', 'app-backend.yaml'), 'utf8')).toMatch(/relationships:\n\s+kerberos-environment: app-kerberos\n/);
    expect(await readFile(join(dir, 'kerberos-environment', 'legacy-kerberos.yaml'), 'utf8')).toMatch(/^kind: kerberos-environment$/m);
    const icap = await readFile(join(dir, 'icap-environment', 'app-icap.yaml'), 'utf8');
    expect(icap).toMatch(/failOpen: true/);
    // the server default is left out
    expect(await readFile(join(dir, 'icap-environment', 'legacy-icap.yaml'), 'utf8')).not.toMatch(/failOpen/);
    const plan = await t.h.cli(['plan', '--config', join(dir, 'gwops.yaml'), ...t.h.connection, '--detailed-exitcode']);
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
  });

  it('applies another environment for the group and failOpen from Git, prunes an owned environment but never one outside the scope, and reports a change by hand as drift', async () => {
    const folder = await writeManifests(t.h, 'project', project({ kerberos: 'app-kerberos-next', failOpen: false }));
    const config = ['--config', join(folder, 'gwops.yaml'), ...t.h.connection];
    const plan = await t.h.cli(['plan', ...config]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('app-kerberos-next');
    expect(plan.stdout).toContain('failOpen');
    expect(plan.stdout).not.toMatch(/legacy-/);
    const apply = await t.h.cli(['apply', ...config, '--yes', '--prune', '--comment', 'back ends move realm']);
    expect(apply.stderr).not.toMatch(/^Error/m);
    expect(apply.code).toBe(0);

    const environments = await t.h.raw(async (s) => s.list('kerberos-environments', []));
    const next = environments.find((e) => e.attributes.name === 'app-kerberos-next');
    expect(next).toBeDefined();
    expect(await kerberosOf(t, ids.backend ?? '')).toEqual({ group: { type: 'kerberos-environment', id: next?.id }, environments: [next?.id] });
    // Pruning is on: the owned environment no manifest declares is gone, those outside the scope stay.
    expect(environments.some((e) => e.id === ids.old)).toBe(false);
    expect(environments.some((e) => e.id === ids.legacyKerberos)).toBe(true);
    const icaps = await t.h.raw(async (s) => s.list('icap-environments', []));
    expect(icaps.find((e) => e.id === ids.icap)?.attributes.failOpen).toBe(false);
    expect(icaps.some((e) => e.id === ids.legacyIcap)).toBe(true);
    expect((await t.h.cli(['plan', ...config, '--detailed-exitcode'])).code).toBe(0);

    // By hand: the group goes back to the first environment (from the group's side), and ICAP fails open again.
    await t.h.raw(async (s) => {
      await s.link('back-end-groups', ids.backend ?? '', 'kerberos-environment', { type: 'kerberos-environment', id: ids.kerberos ?? '' });
      await s.update('icap-environments', ids.icap ?? '', { type: 'icap-environment', attributes: { failOpen: true } });
    }, 'a change by hand');
    const drift = await t.h.cli(['drift', ...config]);
    expect(drift.code).not.toBe(0);
    expect(drift.stdout).toMatch(/app-backend[\s\S]*kerberos-environment|kerberos-environment[\s\S]*app-backend/);
    expect(drift.stdout).toContain('app-kerberos-next');
    expect(drift.stdout).toMatch(/failOpen/);
    expect(drift.stdout).not.toMatch(/legacy-/);
  });
});
