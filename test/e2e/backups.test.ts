/**
 * `apply --backup-dir`: the backup holds the active configuration's export, private keys
 * included, so it is written for its owner only (mode 0600); and two gateways whose active
 * configurations have the same id, backed up into one directory in the same second, get a
 * file each instead of one apply failing.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Harness } from './harness.js';
import { REPO, leakedSecrets, startHarness, writeManifests } from './harness.js';

const BACKEND = 'apiVersion: gwops/v1\nkind: back-end-group\nname: backup-backend\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: backup.internal, port: 8080 }]\n';

/** `apply --yes --backup-dir dir` of `manifests` against `h`, at a fixed clock. */
async function applyAt(h: Harness, manifests: string, dir: string, now: Date): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const code = await main(['node', 'gwops', 'apply', '--yes', ...h.connection, manifests, '--backup-dir', dir], {
    stdout: { write: (s: string) => h.outputs.push(s) },
    stderr: { write: (s: string) => ((stderr += s), h.outputs.push(s)) },
    env: h.env,
    cwd: REPO,
    isTTY: false,
    stdin: Readable.from([]),
    now: () => now,
  });
  return { code, stderr };
}

describe('apply --backup-dir', () => {
  it('writes each backup with mode 0600, one file per gateway even for the same configuration id in the same second', async () => {
    const one = await startHarness();
    const two = await startHarness();
    try {
      const manifests = await writeManifests(one, 'backup', { 'backend.yaml': BACKEND });
      const dir = join(one.dir, 'backups');
      const now = new Date('2026-11-25T12:00:00.400Z');
      const first = await applyAt(one, manifests, dir, now);
      expect(first.code, first.stderr).toBe(0);
      const second = await applyAt(two, manifests, dir, now);
      expect(second.code, second.stderr).toBe(0);
      const files = await readdir(dir);
      expect(files).toHaveLength(2);
      for (const file of files) {
        expect(file).toMatch(/^1-20261125T120000Z-[0-9a-f]{8}\.zip$/);
        expect((await stat(join(dir, file))).mode & 0o777).toBe(0o600);
      }
      expect(leakedSecrets(one)).toEqual([]);
      expect(leakedSecrets(two)).toEqual([]);
    } finally {
      await one.close();
      await two.close();
    }
  });
});
