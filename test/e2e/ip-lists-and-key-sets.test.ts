/**
 * The kinds a mapping links to beyond its back-end groups, end to end against the emulator:
 * IP address lists (linked as blacklists, and named by a path whitelist's
 * `ipAddressListIds`, which manifests write by name), an API policy service and a remote
 * JSON web key set. A gateway set up through the raw API exports by name and plans no
 * change; a change in Git is applied; a change by hand is drift; an IP address list outside
 * the ownership scope is never pruned.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiResource } from '../../src/gateway/index.js';
import { createdId, useHarness, writeManifests } from './harness.js';

const ids: Record<string, string> = {};

/** The project: its lists, policy service and key set, and one mapping using them. */
function project(options: { officeIps: readonly string[]; blacklists: readonly string[]; whitelist: readonly string[] }): Record<string, string> {
  const list = (name: string, ips: readonly string[]): string =>
    `apiVersion: gwops/v1\nkind: ip-address-list\nname: ${name}\nattributes:\n  ips: [${ips.map((i) => `'${i}'`).join(', ')}]\n`;
  return {
    'gwops.yaml': "manifests: [lists.yaml, app.yaml]\nallowExternalLinks: true\nownership:\n  ip-address-list: ['name=@app-']\n",
    'lists.yaml': [list('app-office', options.officeIps), list('app-blocked', ['198.51.100.0/24'])].join('---\n'),
    'app.yaml': [
      'apiVersion: gwops/v1',
      'kind: mapping',
      'name: app',
      'attributes:',
      '  entryPath: { value: /app/ }',
      '  ipRules:',
      '    ipAddressWhitelists:',
      '      pathWhitelists:',
      `        - { enabled: true, pathPattern: { pattern: '^/app/admin/', caseIgnored: false, inverted: false }, ipAddressListIds: [${options.whitelist.join(', ')}] }`,
      'relationships:',
      '  back-end-groups: [app-backend]',
      `  ip-address-blacklists: [${options.blacklists.join(', ')}]`,
      '  api-policy-service: app-policy',
      '  remote-json-web-key-sets: [app-login]',
      '',
    ].join('\n'),
  };
}

describe('IP address lists, API policy services and remote key sets through every command', () => {
  const t = useHarness();

  beforeAll(async () => {
    await t.h.raw(async (s) => {
      const create = (collection: string, type: string, attributes: Record<string, unknown>): Promise<string> => createdId(s, collection, type, attributes);
      ids.backend = await create('back-end-groups', 'back-end-group', { name: 'app-backend', backendHosts: [{ protocol: 'HTTP', hostName: 'app.internal', port: 80 }] });
      ids.office = await create('ip-address-lists', 'ip-address-list', { name: 'app-office', ips: ['192.0.2.0/24'] });
      ids.blocked = await create('ip-address-lists', 'ip-address-list', { name: 'app-blocked', ips: ['198.51.100.0/24'] });
      ids.old = await create('ip-address-lists', 'ip-address-list', { name: 'app-old', ips: ['192.0.2.99'] });
      ids.legacy = await create('ip-address-lists', 'ip-address-list', { name: 'legacy-partners', ips: ['203.0.113.0/24'] });
      ids.policy = await create('api-policy-services', 'api-policy-service', { name: 'app-policy', sharedSecret: 'policy-shared-secret-1' });
      ids.login = await create('json-web-key-sets/remotes', 'remote-json-web-key-set', { name: 'app-login', url: 'https://login.example.com/jwks' });
      ids.app = await create('mappings', 'mapping', {
        name: 'app',
        entryPath: { value: '/app/' },
        ipRules: { ipAddressWhitelists: { pathWhitelists: [{ enabled: true, pathPattern: { pattern: '^/app/admin/', caseIgnored: false, inverted: false }, ipAddressListIds: [Number(ids.office)] }] } },
      });
      const app = [{ type: 'mapping', id: ids.app }];
      await s.link('mappings', ids.app, 'back-end-groups', [{ type: 'back-end-group', id: ids.backend }]);
      // The list's own endpoint, as the vendor's scripts link blacklists.
      await s.link('ip-address-lists', ids.blocked, 'mappings-blacklist', app);
      await s.link('mappings', ids.app, 'api-policy-service', { type: 'api-policy-service', id: ids.policy });
      await s.link('mappings', ids.app, 'remote-json-web-key-sets', [{ type: 'remote-json-web-key-set', id: ids.login }]);
    }, 'lists, policy service and key set');
  });

  it('a list shows its mappings under the role keys the vendor scripts read', async () => {
    const blocked = await t.h.raw(async (s) => (await s.list('ip-address-lists', [])).find((r: ApiResource) => r.id === ids.blocked));
    expect(blocked?.relationships['ip-address-blacklists']?.data).toEqual([{ type: 'mapping', id: ids.app }]);
    expect(blocked?.relationships['ip-address-whitelists']?.data).toEqual([]);
    expect(blocked?.relationships['ip-address-blacklist-exceptions']?.data).toEqual([]);
  });

  it('exports the lists by name in the path whitelist and the links, and the export plans no change', async () => {
    const dir = join(t.h.dir, 'export');
    const r = await t.h.cli(['export', ...t.h.connection, '--out', dir, '--format', 'json']);
    expect(r.code).toBe(0);
    const mapping = await readFile(join(dir, 'mapping', 'app.yaml'), 'utf8');
    expect(mapping).toMatch(/ipAddressListIds:\n\s+- app-office\n/);
    expect(mapping).toMatch(/ip-address-blacklists:\n\s+- app-blocked\n/);
    expect(mapping).toMatch(/api-policy-service: app-policy\n/);
    expect(mapping).toMatch(/remote-json-web-key-sets:\n\s+- app-login\n/);
    expect(await readFile(join(dir, 'remote-json-web-key-set', 'app-login.yaml'), 'utf8')).toContain('url: https://login.example.com/jwks');
    const secrets = (JSON.parse(r.stdout) as { secrets: { variable: string }[] }).secrets;
    expect(secrets.length).toBe(1);
    const env = Object.fromEntries(secrets.map((s) => [s.variable, 'placeholder-not-a-secret']));
    const plan = await t.h.cli(['plan', '--config', join(dir, 'gwops.yaml'), ...t.h.connection, '--detailed-exitcode'], { env });
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
    expect(plan.stdout + r.stdout).not.toContain('policy-shared-secret-1');
  });

  it('applies a CIDR added in Git and a blacklist unlinked, prunes an owned list but never one outside the scope, and reports a change by hand as drift, by name', async () => {
    const folder = await writeManifests(t.h, 'project', project({ officeIps: ['192.0.2.0/24', '10.20.0.0/16'], blacklists: [], whitelist: ['app-office'] }));
    const config = ['--config', join(folder, 'gwops.yaml'), ...t.h.connection];
    const plan = await t.h.cli(['plan', ...config]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('10.20.0.0/16');
    expect(plan.stdout).toMatch(/unlink.*app-blocked|app-blocked.*unlink/i);
    expect(plan.stdout).not.toMatch(/legacy-partners/);
    const apply = await t.h.cli(['apply', ...config, '--yes', '--prune', '--comment', 'office network grows']);
    expect(apply.stderr).not.toMatch(/^Error/m);
    expect(apply.code).toBe(0);

    const lists = await t.h.raw(async (s) => s.list('ip-address-lists', []));
    expect(lists.find((l) => l.id === ids.office)?.attributes.ips).toEqual(['192.0.2.0/24', '10.20.0.0/16']);
    expect(lists.find((l) => l.id === ids.blocked)?.relationships['ip-address-blacklists']?.data).toEqual([]);
    // Pruning is on: the owned list no manifest declares is gone, the one outside the scope stays.
    expect(lists.some((l) => l.id === ids.old)).toBe(false);
    expect(lists.some((l) => l.id === ids.legacy)).toBe(true);
    expect((await t.h.cli(['plan', ...config, '--detailed-exitcode'])).code).toBe(0);

    // By hand: the admin path now lets in the blocked network's list instead of the office.
    await t.h.raw(async (s) => {
      await s.update('mappings', ids.app ?? '', {
        type: 'mapping',
        attributes: { ipRules: { ipAddressWhitelists: { pathWhitelists: [{ enabled: true, pathPattern: { pattern: '^/app/admin/', caseIgnored: false, inverted: false }, ipAddressListIds: [Number(ids.blocked)] }] } } },
      });
    }, 'a change by hand');
    const drift = await t.h.cli(['drift', ...config]);
    expect(drift.code).not.toBe(0);
    expect(drift.stdout).toContain('app-blocked');
    expect(drift.stdout).toContain('app-office');
    expect(drift.stdout).not.toMatch(new RegExp(`ipAddressListIds[^\\n]*\\b${ids.blocked}\\b`));
  });

  it('a name that resolves to no list is a located error, and nothing is sent', async () => {
    const folder = await writeManifests(t.h, 'unknown-list', project({ officeIps: ['192.0.2.0/24'], blacklists: [], whitelist: ['app-office', 'app-nowhere'] }));
    const r = await t.h.cli(['plan', '--config', join(folder, 'gwops.yaml'), ...t.h.connection]);
    expect(r.code).toBe(1);
    // Located at the unknown name itself, not at the document's start.
    const lines = (await readFile(join(folder, 'app.yaml'), 'utf8')).split('\n');
    const line = lines.findIndex((l) => l.includes('app-nowhere'));
    expect(r.stderr).toContain(`app.yaml:${line + 1}:${(lines[line] ?? '').indexOf('app-nowhere') + 1}`);
    expect(r.stderr).toContain("ip-address-list 'app-nowhere'");
  });
});
