/**
 * `gwops history`, `gwops rollback` and `apply --backup-dir` with the real CLI against the
 * emulator: two applies from two commits (the commit as CI variables name it, and as a
 * comment in the gwops format), the history that names both, a rollback to the first by
 * SHA prefix, the restored attributes read through the raw API, and drift that now
 * reports the gateway as drifted from Git.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { ConfigurationEntry } from '../../src/gateway/index.js';
import { findRollbackTarget, historyEntries } from '../../src/operations/history.js';
import { useHarness, writeManifests } from './harness.js';
import { RollbackTargetError } from '../../src/engine/errors.js';

const SHA1 = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const SHA2 = 'a1b2f9e8d7c6b5a4938271605f4e3d2c1b0a9988';

/** Commit 1 routes the shop to /v1/; commit 2 to /v2/ and adds a back-end group. */
function manifests(path: string, extra = false): Record<string, string> {
  return {
    ...(extra ? { 'extra.yaml': 'apiVersion: gwops/v1\nkind: back-end-group\nname: hist-extra\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: extra.internal, port: 8080 }]\n' } : {}),
    'backend.yaml': 'apiVersion: gwops/v1\nkind: back-end-group\nname: hist-backend\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: shop.internal, port: 8080 }]\n',
    'mapping.yaml': `apiVersion: gwops/v1\nkind: mapping\nname: hist-shop\nattributes:\n  entryPath: { value: /hist/ }\n  backendPath: ${path}\nrelationships:\n  back-end-groups: [hist-backend]\n`,
  };
}

interface HistoryJson {
  configurations: { id: string; configType: string; comment: string | null; writtenBy: string | null; commit: { sha: string | null; subject: string | null } | null }[];
}

describe('history, rollback and backups', () => {
  const t = useHarness();
  let v1 = '';
  let v2 = '';
  const activeId = (): string => (t.h.emulator.activeSnapshot() as { id: string }).id;
  const backendPath = async (): Promise<unknown> =>
    t.h.raw(async (s) => (await s.list('mappings', ['name==hist-shop']))[0]?.attributes.backendPath);

  it('applies two commits: one named by the CI variables, one by a comment in the gwops format (with --backup-dir)', async () => {
    v1 = await writeManifests(t.h, 'v1', manifests('/v1/'));
    v2 = await writeManifests(t.h, 'v2', manifests('/v2/', true));
    const first = await t.h.cli(['apply', '--yes', ...t.h.connection, v1], {
      cwd: t.h.dir, // not a Git repository: the SHA comes from GITHUB_SHA alone
      env: { GITHUB_SHA: SHA1, GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/gw', GITHUB_RUN_ID: '7' },
    });
    expect(first.code).toBe(0);
    // The project trailer names the project by its ownership scope (commit-comment.ts projectId).
    expect(t.h.emulator.activeSnapshot()).toHaveProperty('comment', expect.stringMatching(/^gwops apply: a1b2c3d https:\/\/github\.com\/acme\/gw\/actions\/runs\/7 gwops-project=[0-9a-f]{12}$/));

    const backups = join(t.h.dir, 'backups', 'nested');
    const before = activeId();
    const second = await t.h.cli(['apply', '--yes', ...t.h.connection, v2, '--backup-dir', backups, '--comment', `gwops apply: ${SHA2.slice(0, 7)} Move the shop to v2 (Tess Ter)`]);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`Backup of the active configuration ${before} written to`);
    const files = await readdir(backups);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(new RegExp(`^${before}-\\d{8}T\\d{6}Z-[0-9a-f]{8}\\.zip$`));
    const archive = await readFile(join(backups, files[0] ?? ''));
    expect(archive.subarray(0, 4)).toEqual(Buffer.from('PK\x03\x04', 'latin1'));

    // The emulator's import accepts the archive, and it holds the configuration of commit 1.
    const agent = new Agent({ connect: { ca: t.h.emulator.caCertificate } });
    try {
      const created = await request(`${t.h.emulator.url}/session/create`, { method: 'POST', headers: { authorization: `Bearer ${t.h.emulator.apiKey}` }, dispatcher: agent });
      await created.body.dump();
      const setCookie = created.headers['set-cookie'];
      const cookie = (Array.isArray(setCookie) ? setCookie[0] : setCookie)?.split(';')[0] ?? '';
      const imported = await request(`${t.h.emulator.url}/configuration/configurations/import`, {
        method: 'PUT',
        headers: { cookie, 'content-type': 'application/zip' },
        body: archive,
        dispatcher: agent,
      });
      await imported.body.dump();
      expect(imported.statusCode).toBe(200);
      const mappings = await request(`${t.h.emulator.url}/configuration/mappings?filter=name%3D%3Dhist-shop`, { headers: { cookie }, dispatcher: agent });
      const body = (await mappings.body.json()) as { data: { attributes: { backendPath: string } }[] };
      expect(body.data[0]?.attributes.backendPath).toBe('/v1/');
      await (await request(`${t.h.emulator.url}/session/terminate`, { method: 'POST', headers: { cookie }, dispatcher: agent })).body.dump();
    } finally {
      await agent.close();
    }
    expect(await backendPath()).toBe('/v2/');
  });

  it('history lists both applies, newest first, with their SHAs and subjects', async () => {
    const json = await t.h.cli(['history', ...t.h.connection, '--format', 'json']);
    expect(json.code).toBe(0);
    expect(Object.entries(JSON.parse(json.stdout) as object)[0]).toEqual(['formatVersion', '1.0']);
    const { configurations } = JSON.parse(json.stdout) as HistoryJson;
    const gwops = configurations.filter((c) => c.writtenBy === 'gwops apply');
    expect(gwops.map((c) => c.commit?.sha)).toEqual(['a1b2f9e', 'a1b2c3d']);
    expect(gwops[0]).toMatchObject({ configType: 'CURRENTLY_ACTIVE', commit: { subject: 'Move the shop to v2' } });
    const text = await t.h.cli(['history', ...t.h.connection, '--limit', '2']);
    expect(text.code).toBe(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^ID\s+TYPE\s+CREATED\s+BY\s+COMMIT\s+COMMENT$/);
    expect(lines[1]).toContain('a1b2f9e');
    expect(lines[2]).toContain('a1b2c3d');
    expect((await t.h.cli(['history', ...t.h.connection, '--limit', '0'])).code).toBe(1);
  });

  it('rollback without --yes and without a terminal shows the difference and exits 1 before activating', async () => {
    const before = activeId();
    t.h.emulator.requestLog.length = 0;
    const r = await t.h.cli(['rollback', '--whole-configuration', ...t.h.connection, 'a1b2c3d']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('hist-shop');
    expect(r.stdout).toContain('backendPath');
    expect(r.stderr).toContain('--yes');
    expect(activeId()).toBe(before);
    const json = await t.h.cli(['rollback', '--whole-configuration', ...t.h.connection, 'a1b2c3d', '--format', 'json']);
    expect(json.code).toBe(1);
    const preview = JSON.parse(json.stdout) as { target: { id: string }; comment: string; changes: { summary: { create: number; update: number; delete: number } } };
    expect(Object.entries(preview)[0]).toEqual(['formatVersion', '1.0']);
    expect(Object.entries(preview.changes)[0]).toEqual(['formatVersion', '7.0']);
    expect(preview.changes.summary).toMatchObject({ create: 0, update: 1, delete: 1 });
    expect(r.stdout).toContain('hist-extra');
    expect(preview.comment).toBe(`gwops rollback: to configuration ${preview.target.id} (a1b2c3d)`);
    expect(activeId()).toBe(before);
    expect(t.h.emulator.requestLog.filter((e) => e.path.endsWith('/activate'))).toEqual([]);
  });

  it('an unknown or ambiguous reference is an error that lists the candidates', async () => {
    const unknown = await t.h.cli(['rollback', '--yes', '--whole-configuration', ...t.h.connection, 'ffff999']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("unknown configuration or commit 'ffff999'");
    expect(unknown.stderr).toContain('a1b2c3d');
    expect(unknown.stderr).toContain('a1b2f9e');
    const ambiguous = await t.h.cli(['rollback', '--yes', '--whole-configuration', ...t.h.connection, 'a1b2']);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain('prefix of 2 commits');
    expect(ambiguous.stderr).toContain('a1b2c3d');
    expect(ambiguous.stderr).toContain('a1b2f9e');
  });

  it('rolls back to the first commit by SHA prefix; drift then reports the gateway as drifted from Git', async () => {
    const history = JSON.parse((await t.h.cli(['history', ...t.h.connection, '--format', 'json'])).stdout) as HistoryJson;
    const first = history.configurations.find((c) => c.writtenBy === 'gwops apply' && c.commit?.sha === 'a1b2c3d');
    const before = activeId();
    const r = await t.h.cli(['rollback', '--yes', '--whole-configuration', ...t.h.connection, 'a1b2c3']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Rollback to configuration ${first?.id ?? '?'} a1b2c3d`);
    expect(r.stdout).toContain('Rollback complete');
    expect(r.stdout).toContain('git revert --no-commit a1b2f9e');
    expect(r.stdout).toContain('gwops drift');
    const active = t.h.emulator.activeSnapshot() as { id: string; comment?: string };
    expect(active.id).not.toBe(before);
    expect(active.comment).toBe(`gwops rollback: to configuration ${first?.id ?? '?'} (a1b2c3d)`);
    expect(await backendPath()).toBe('/v1/');

    expect(await t.h.raw(async (s) => s.list('back-end-groups', ['name==hist-extra']))).toEqual([]);

    const drift = await t.h.cli(['drift', ...t.h.connection, v2]);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('hist-shop');
    expect(drift.stdout).toContain('hist-extra');
    expect((await t.h.cli(['drift', ...t.h.connection, v1])).code).toBe(0);

    const again = await t.h.cli(['rollback', '--yes', '--whole-configuration', ...t.h.connection, active.id]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('already the active configuration');
  });
});

describe('findRollbackTarget', () => {
  const entry = (id: string, comment?: string, configType = 'PREVIOUSLY_ACTIVE'): ConfigurationEntry => ({ id, configType, comment, createdAt: undefined, createdBy: undefined });
  const entries = historyEntries([
    entry('12', 'gwops apply: 1234abc again (A)', 'CURRENTLY_ACTIVE'),
    entry('11', 'manual'),
    entry('10', 'gwops apply: 1234abc first (A)'),
    entry('9', 'gwops apply: 9999999 other (B)'),
    entry('1234', 'gwops rollback: to configuration 9 (9999999 other)'),
  ]);
  const errorOf = (ref: string): RollbackTargetError => {
    try {
      findRollbackTarget(entries, ref);
    } catch (error) {
      if (error instanceof RollbackTargetError) return error;
      throw error;
    }
    throw new Error(`'${ref}' was found`);
  };

  it('finds an id, and the newest configuration applied from a commit by prefix or full SHA', () => {
    expect(findRollbackTarget(entries, '11').id).toBe('11');
    expect(findRollbackTarget(entries, '1234a').id).toBe('12');
    expect(findRollbackTarget(entries, '1234abcdef0123456789').id).toBe('12');
    expect(findRollbackTarget(entries, '99999').id).toBe('9');
  });

  it('refuses prefixes shorter than 4 digits and commits no comment names, listing what gwops applied', () => {
    expect(errorOf('1234abd').candidates.map((e) => e.id)).toEqual(['12', '10', '9']);
    expect(errorOf('1234abd').message).toContain('unknown');
    expect(errorOf('123').message).toContain('unknown');
  });

  it('an id that is also a commit prefix is ambiguous', () => {
    expect(errorOf('1234').candidates.map((e) => e.id)).toEqual(['1234', '12', '10']);
  });
});
