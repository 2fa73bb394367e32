/**
 * `gwops drift` as a team acts on it, end to end against the emulator: the examples are
 * applied, then changed behind gwops's back through the raw API (one attribute changed,
 * one owned object deleted, one object added in the ownership scope, activated with a
 * comment). drift names the three directions with that activation's time, author and
 * comment; an ignore entry silences one difference until its `until` day (injected
 * clock); `drift --adopt --adopt-deletions` brings the gateway's state into the manifests
 * (only the changed values change, comments stay) and `plan` is empty afterwards.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { diffLines } from 'diff';
import { describe, expect, it } from 'vitest';
import { EXAMPLES, useHarness } from './harness.js';
import type { CliResult } from './harness.js';
import { cliAtTime } from './harness.js';

const t = useHarness();

const PROJECT = `# the examples' project, with one known difference ignored
manifests: [manifests]
ownership:
  mapping: ['label==managed-by-gwops']
  virtual-host: ['name=@example-']
  back-end-group: ['name=@example-']
drift:
  ignore:
    - object: virtual-host/example-shop
      attribute: keepAliveTimeout
      reason: load test until the sale ends
      until: 2026-12-31
`;

/** The CLI in-process with an injected clock (the harness's runner has none). */
const cliAt = (now: Date, args: readonly string[], cwd: string): Promise<CliResult> => cliAtTime(t.h, now, args, cwd);

const BEFORE_UNTIL = new Date('2026-12-31T23:00:00Z');
const AFTER_UNTIL = new Date('2027-01-01T00:00:00Z');

interface JsonEntry {
  direction: string;
  kind: string;
  name: string;
  path?: string;
  declared?: unknown;
  live?: unknown;
}

describe('drift a team can act on', () => {
  it('reports, attributes, ignores until a date, and adopts into the manifests', async () => {
    const dir = join(t.h.dir, 'drift-project');
    await cp(join(EXAMPLES, 'manifests'), join(dir, 'manifests'), { recursive: true });
    await writeFile(join(dir, 'gwops.yaml'), PROJECT);
    const conn = ['--config', join(dir, 'gwops.yaml'), ...t.h.connection];

    const applied = await cliAt(BEFORE_UNTIL, ['apply', '--yes', ...conn], dir);
    expect(applied.stderr + applied.stdout).toContain('Apply complete');
    expect((await cliAt(BEFORE_UNTIL, ['drift', ...conn], dir)).code).toBe(0);

    await t.h.raw(async (s) => {
      const [orders] = await s.list('mappings', ['name==api-orders']);
      const [customers] = await s.list('mappings', ['name==api-customers']);
      const [shop] = await s.list('virtual-hosts', ['name==example-shop']);
      if (!orders || !customers || !shop) throw new Error('the examples were not applied');
      await s.update('mappings', orders.id, { type: 'mapping', attributes: { backendPath: '/orders/v2/' } });
      await s.update('virtual-hosts', shop.id, { type: 'virtual-host', attributes: { keepAliveTimeout: 30 } });
      await s.remove('mappings', customers.id);
      await s.create('back-end-groups', {
        type: 'back-end-group',
        attributes: { name: 'example-extra', backendHosts: [{ protocol: 'HTTP', hostName: 'extra.dc1.example.internal', port: 8080 }] },
      });
    }, 'hotfix by the night shift');
    const [activation] = await t.h.raw((s) => s.configurations());
    expect(activation?.comment).toBe('hotfix by the night shift');

    // Text: the three directions under their headings, with who and when.
    const text = await cliAt(BEFORE_UNTIL, ['drift', ...conn], dir);
    expect(text.code).toBe(2);
    expect(text.stdout).toContain('changed outside gwops');
    expect(text.stdout).not.toContain('will perform');
    expect(text.stdout).toMatch(/Changed on the gateway:\n {2}# mapping "api-orders"[^\n]*\n {6}backendPath: manifests "\/orders\/v1\/", gateway "\/orders\/v2\/"/);
    expect(text.stdout).toMatch(/Deleted on the gateway:\n {2}# mapping "api-customers"/);
    expect(text.stdout).toMatch(/Added on the gateway:\n {2}# back-end-group "example-extra"/);
    expect(text.stdout).toMatch(/Links deleted on the gateway:\n {2}# virtual-host "example-api"[^\n]*\n {6}- mappings → mapping "api-customers"/);
    expect(text.stdout).toContain(`${activation?.createdAt ?? '?'}  ${activation?.createdBy ?? '?'}  "hotfix by the night shift"`);
    // The ignored difference is listed as ignored, not as drift.
    expect(text.stdout).toContain('virtual-host "example-shop" keepAliveTimeout (changed): load test until the sale ends [until 2026-12-31]');
    expect(text.stdout).not.toMatch(/keepAliveTimeout: manifests/);

    // JSON: versioned, one entry per difference with direction, kind, name, path, declared, live.
    const json = await cliAt(BEFORE_UNTIL, ['drift', '--format', 'json', ...conn], dir);
    expect(json.code).toBe(2);
    const report = JSON.parse(json.stdout) as {
      formatVersion: string;
      entries: JsonEntry[];
      ignored: JsonEntry[];
      attribution: { since: { comment?: string; createdAt?: string; createdBy?: string }[] };
    };
    expect(report.formatVersion).toBe('1.0');
    expect(report.entries).toContainEqual(
      expect.objectContaining({ direction: 'changed', kind: 'mapping', name: 'api-orders', path: 'backendPath', declared: '/orders/v1/', live: '/orders/v2/' }),
    );
    expect(report.entries).toContainEqual(expect.objectContaining({ direction: 'deleted', kind: 'mapping', name: 'api-customers' }));
    expect(report.entries).toContainEqual(expect.objectContaining({ direction: 'added', kind: 'back-end-group', name: 'example-extra' }));
    expect(report.entries).toContainEqual(
      expect.objectContaining({ direction: 'link-deleted', kind: 'virtual-host', name: 'example-api', path: 'relationships.mappings', declared: { kind: 'mapping', name: 'api-customers' } }),
    );
    expect(report.entries.filter((e) => e.path === 'keepAliveTimeout')).toEqual([]);
    expect(report.ignored).toEqual([expect.objectContaining({ direction: 'changed', kind: 'virtual-host', name: 'example-shop', path: 'keepAliveTimeout', declared: 10, live: 30 })]);
    expect(report.attribution.since[0]).toEqual({ id: activation?.id, configType: 'CURRENTLY_ACTIVE', comment: 'hotfix by the night shift', createdAt: activation?.createdAt, createdBy: activation?.createdBy });

    // After the until day the entry no longer ignores, and says so.
    const expired = await cliAt(AFTER_UNTIL, ['drift', '--format', 'json', ...conn], dir);
    expect(expired.stderr).toContain('drift.ignore entry virtual-host/example-shop keepAliveTimeout expired on 2026-12-31');
    const expiredReport = JSON.parse(expired.stdout) as { entries: JsonEntry[]; ignored: JsonEntry[] };
    expect(expiredReport.ignored).toEqual([]);
    expect(expiredReport.entries).toContainEqual(expect.objectContaining({ direction: 'changed', name: 'example-shop', path: 'keepAliveTimeout', declared: 10, live: 30 }));

    // Adopt: the manifests take the gateway's values; only those lines change.
    const vhFile = join(dir, 'manifests', 'virtual-hosts.yaml');
    const apiFile = join(dir, 'manifests', 'mappings', 'api.yaml');
    const [vhBefore, apiBefore] = await Promise.all([readFile(vhFile, 'utf8'), readFile(apiFile, 'utf8')]);
    const adopted = await cliAt(AFTER_UNTIL, ['drift', '--adopt', '--adopt-deletions', ...conn], dir);
    expect(adopted.code).toBe(2);
    // Related to no declared object: a file of its own, not the file that holds the other back-end groups.
    expect(adopted.stderr).toContain('created  manifests/back-end-group/example-extra.yaml');
    expect(adopted.stderr).not.toContain('manifests/back-end-groups.yaml');
    const changedLines = (before: string, after: string): string[] =>
      diffLines(before, after)
        .filter((p) => p.added || p.removed)
        .flatMap((p) => p.value.split('\n').filter((l) => l !== '').map((l) => `${p.added ? '+' : '-'}${l}`));
    expect(changedLines(vhBefore, await readFile(vhFile, 'utf8'))).toEqual(['-  keepAliveTimeout: 10', '+  keepAliveTimeout: 30', '-    - api-customers']);
    const apiChanges = changedLines(apiBefore, await readFile(apiFile, 'utf8'));
    expect(apiChanges.slice(0, 2)).toEqual(['-  backendPath: /orders/v1/', '+  backendPath: /orders/v2/']);
    expect(apiChanges.slice(2).every((l) => l.startsWith('-'))).toBe(true); // the deleted document, nothing else
    expect(apiChanges.join('\n')).toContain('-name: api-customers');
    expect(await readFile(apiFile, 'utf8')).toContain('# The API platform on api.example.com'); // comments kept
    expect(await readFile(join(dir, 'manifests', 'back-end-group', 'example-extra.yaml'), 'utf8')).toContain('hostName: extra.dc1.example.internal');

    const plan = await cliAt(AFTER_UNTIL, ['plan', '--detailed-exitcode', '--no-server-check', ...conn], dir);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    expect((await cliAt(AFTER_UNTIL, ['drift', ...conn], dir)).code).toBe(0);
  });

  it('validate checks the ignore list and warns about an expired entry', async () => {
    const dir = join(t.h.dir, 'drift-validate');
    await cp(join(EXAMPLES, 'manifests'), join(dir, 'manifests'), { recursive: true });
    await writeFile(join(dir, 'gwops.yaml'), PROJECT.replace('until: 2026-12-31', 'until: 2026-02-30'));
    const bad = await cliAt(BEFORE_UNTIL, ['validate', '--config', join(dir, 'gwops.yaml')], dir);
    expect(bad.code).toBe(1);
    // A project file's problems are in validate's report, with the manifests' ones.
    expect(bad.stdout).toMatch(/gwops\.yaml:\d+:\d+: error: drift\.ignore until '2026-02-30' is not a calendar date/);
    await writeFile(join(dir, 'gwops.yaml'), PROJECT.replace('virtual-host/example-shop', 'vhost/example-shop'));
    const kind = await cliAt(BEFORE_UNTIL, ['validate', '--config', join(dir, 'gwops.yaml')], dir);
    expect(kind.stdout).toContain("drift.ignore object 'vhost/example-shop' must be <kind>/<name>");
    await writeFile(join(dir, 'gwops.yaml'), PROJECT);
    const fine = await cliAt(BEFORE_UNTIL, ['validate', '--config', join(dir, 'gwops.yaml')], dir);
    expect(fine.code).toBe(0);
    expect(fine.stderr).not.toContain('expired');
    const expired = await cliAt(AFTER_UNTIL, ['validate', '--config', join(dir, 'gwops.yaml')], dir);
    expect(expired.code).toBe(0);
    expect(expired.stderr).toContain('warning: drift.ignore entry virtual-host/example-shop keepAliveTimeout expired on 2026-12-31');
  });
});
