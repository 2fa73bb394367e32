/**
 * A mapping's four ICAP views end to end against the emulator (docs/gateway-api.md
 * "Kerberos and ICAP environments"): a link one client writes through the singular
 * endpoint shows on both sides under the plural key and exports by name; the export plans
 * no change; a view declared in Git is applied through the plural endpoint; a link removed
 * by hand is drift, healed by apply.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createdId, useHarness, writeManifests } from './harness.js';

const ids: Record<string, string> = {};

/** The project: the mapping, its group and two ICAP environments, with the views in `views`. */
function project(views: string): Record<string, string> {
  const doc = (kind: string, name: string, body = ''): string => `apiVersion: gwops/v1\nkind: ${kind}\nname: ${name}\n${body}`;
  return {
    'gwops.yaml': ['manifests: [all.yaml]', 'ownership:', "  mapping: ['name=@app-']", "  icap-environment: ['name=@app-']", "  back-end-group: ['name=@app-']", ''].join('\n'),
    'all.yaml': [
      doc('icap-environment', 'app-icap-in'),
      doc('icap-environment', 'app-icap-out'),
      doc('back-end-group', 'app-backend', 'attributes:\n  backendHosts: [{ protocol: HTTP, hostName: app.internal, port: 80 }]\n'),
      doc('mapping', 'app-shop', `attributes:\n  entryPath: { value: /shop/ }\nrelationships:\n  back-end-groups: [app-backend]\n${views}`),
    ].join('---\n'),
  };
}

describe("a mapping's ICAP views through every command", () => {
  const t = useHarness();

  beforeAll(async () => {
    await t.h.raw(async (s) => {
      ids.backend = await createdId(s, 'back-end-groups', 'back-end-group', { name: 'app-backend', backendHosts: [{ protocol: 'HTTP', hostName: 'app.internal', port: 80 }] });
      ids.in = await createdId(s, 'icap-environments', 'icap-environment', { name: 'app-icap-in' });
      ids.out = await createdId(s, 'icap-environments', 'icap-environment', { name: 'app-icap-out' });
      ids.shop = await createdId(s, 'mappings', 'mapping', { name: 'app-shop', entryPath: { value: '/shop/' } });
      await s.link('mappings', ids.shop, 'back-end-groups', [{ type: 'back-end-group', id: ids.backend }]);
      // The singular endpoint one client writes through.
      await s.link('mappings', ids.shop, 'icap-request-client-view', [{ type: 'icap-environment', id: ids.in }]);
    }, 'ICAP views');
  });

  it('a link made through the singular endpoint shows under the plural key on both sides', async () => {
    const [shop, env] = await t.h.raw(async (s) => [
      (await s.list('mappings', [])).find((m) => m.id === ids.shop),
      (await s.list('icap-environments', [])).find((e) => e.id === ids.in),
    ]);
    expect(shop?.relationships['icap-request-client-views']?.data).toEqual([{ type: 'icap-environment', id: ids.in }]);
    expect(shop?.relationships['icap-response-client-views']?.data).toEqual([]);
    expect(env?.relationships['icap-request-client-views']?.data).toEqual([{ type: 'mapping', id: ids.shop }]);
  });

  it('exports the view by name on the mapping, and the export plans no change', async () => {
    const dir = join(t.h.dir, 'export');
    expect((await t.h.cli(['export', ...t.h.connection, '--out', dir])).code).toBe(0);
    expect(await readFile(join(dir, 'mapping', 'app-shop.yaml'), 'utf8')).toMatch(/icap-request-client-views:\n\s+- app-icap-in\n/);
    const plan = await t.h.cli(['plan', '--config', join(dir, 'gwops.yaml'), ...t.h.connection, '--detailed-exitcode']);
    expect([plan.code, plan.stderr]).toEqual([0, '']);
  });

  it('applies views from Git through the plural endpoints, plans nothing after, and heals a link removed by hand', async () => {
    const folder = await writeManifests(t.h, 'project', project('  icap-request-client-views: [app-icap-in]\n  icap-response-client-views: [app-icap-out]\n'));
    const config = ['--config', join(folder, 'gwops.yaml'), ...t.h.connection];
    const apply = await t.h.cli(['apply', ...config, '--yes', '--comment', 'inspect responses']);
    expect(apply.stderr).not.toMatch(/^Error/m);
    expect(apply.code).toBe(0);
    const views = async (): Promise<unknown> =>
      t.h.raw(async (s) => (await s.list('mappings', [])).find((m) => m.id === ids.shop)?.relationships['icap-response-client-views']?.data);
    expect(await views()).toEqual([{ type: 'icap-environment', id: ids.out }]);
    expect((await t.h.cli(['plan', ...config, '--detailed-exitcode'])).code).toBe(0);

    await t.h.raw(async (s) => {
      await s.unlink('mappings', ids.shop ?? '', 'icap-response-client-views', [{ type: 'icap-environment', id: ids.out ?? '' }]);
    }, 'a change by hand');
    const drift = await t.h.cli(['drift', ...config]);
    expect(drift.code).not.toBe(0);
    expect(drift.stdout).toContain('icap-response-client-views');
    expect((await t.h.cli(['apply', ...config, '--yes', '--comment', 'heal'])).code).toBe(0);
    expect(await views()).toEqual([{ type: 'icap-environment', id: ids.out }]);
  });
});
