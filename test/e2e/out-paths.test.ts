/**
 * Ordinary mistakes in the paths gwops writes to (`init`, `export --out`, `plan --out`): a
 * regular file where a directory should be, a dangling `.gitignore` symbolic link, a name
 * too long for a file name. Each gets exit 1 and one line saying what is wrong (never
 * "Internal error"), and nothing is written, deleted or sent to the gateway before the check.
 */
import { mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errnoWords } from '../../src/core/files.js';
import { writeProblem } from '../../src/core/out-paths.js';
import { useHarness, writeManifests } from './harness.js';
import type { CliResult } from './harness.js';

const backendGroup = 'apiVersion: gwops/v1\nkind: back-end-group\nname: out-paths\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: app.internal, port: 8080 }]\n';

/** The run failed with exit 1 and exactly one line on stderr (progress lines aside), not an internal error. */
function oneLine(run: CliResult): string {
  expect(run.code).toBe(1);
  expect(run.stderr).not.toMatch(/Internal error| {4}at /);
  const errors = run.stderr.split('\n').filter((l) => l.startsWith('Error: '));
  expect(errors).toHaveLength(1);
  return errors[0] ?? '';
}

describe('paths gwops writes to: one line on an ordinary mistake, nothing written first', () => {
  const t = useHarness();

  it('init afile (a regular file): says it is a file, writes nothing', async () => {
    const dir = await writeManifests(t.h, 'init-file', { afile: 'x' });
    const line = oneLine(await t.h.cli(['init', 'afile'], { cwd: dir }));
    expect(line).toBe(`Error: gwops init cannot write into afile: ${join(dir, 'afile')} is a file, not a directory; nothing was written`);
    expect(await readdir(dir)).toEqual(['afile']);
  });

  it('init inside a path under a regular file (afile/sub): names the file', async () => {
    const dir = await writeManifests(t.h, 'init-under-file', { afile: 'x' });
    const line = oneLine(await t.h.cli(['init', 'afile/sub'], { cwd: dir }));
    expect(line).toContain(`${join(dir, 'afile')} is a file, not a directory`);
    expect(await readdir(dir)).toEqual(['afile']);
  });

  it('init where .github is a regular file: names it, writes nothing', async () => {
    const dir = await writeManifests(t.h, 'init-github-file', { '.github': 'x' });
    const line = oneLine(await t.h.cli(['init', '.'], { cwd: dir }));
    expect(line).toContain(`${join(dir, '.github')} is a file, not a directory`);
    expect(await readdir(dir)).toEqual(['.github']);
  });

  it('init beside a dangling .gitignore symlink: refuses naming .gitignore before writing anything', async () => {
    const dir = await writeManifests(t.h, 'init-dangling', {});
    await symlink(join(dir, 'nowhere'), join(dir, '.gitignore'));
    const line = oneLine(await t.h.cli(['init', '.'], { cwd: dir }));
    expect(line).toBe(`Error: gwops init cannot add its lines to ${join(dir, '.gitignore')}: no such file or directory (ENOENT); nothing was written`);
    expect(await readdir(dir)).toEqual(['.gitignore']);
  });

  it('export --out afile: says it is a file (not "not empty"), sends nothing', async () => {
    const dir = await writeManifests(t.h, 'export-file', { afile: 'x' });
    t.h.emulator.requestLog.length = 0;
    const line = oneLine(await t.h.cli(['export', '--out', 'afile', ...t.h.connection], { cwd: dir }));
    expect(line).toBe(`Error: cannot export into afile: ${join(dir, 'afile')} is a file, not a directory; nothing was written`);
    expect(t.h.emulator.requestLog).toEqual([]);
  });

  it('export --out afile/sub: names the file in the path, sends nothing', async () => {
    const dir = await writeManifests(t.h, 'export-under-file', { afile: 'x' });
    t.h.emulator.requestLog.length = 0;
    const line = oneLine(await t.h.cli(['export', '--out', 'afile/sub', ...t.h.connection], { cwd: dir }));
    expect(line).toBe(`Error: cannot export into afile/sub: ${join(dir, 'afile')} is a file, not a directory; nothing was written`);
    expect(t.h.emulator.requestLog).toEqual([]);
    expect(await readdir(dir)).toEqual(['afile']);
  });

  it('export --force meeting a name too long for a file name: the file gets a shorter name, and the run says which', async () => {
    const dir = await writeManifests(t.h, 'export-long', {});
    const out = join(dir, 'out');
    await t.h.raw(
      (s) => s.create('back-end-groups', { type: 'back-end-group', attributes: { name: 'short', backendHosts: [{ protocol: 'HTTP', hostName: 'short.internal', port: 8080 }] } }),
      'a back-end group to export',
    );
    const first = await t.h.cli(['export', '--out', out, '--kind', 'back-end-group', ...t.h.connection], { cwd: dir });
    expect(first.code).toBe(0);
    const before = await readdir(join(out, 'back-end-group'));
    expect(before.length).toBeGreaterThan(0);
    const long = `long-${'x'.repeat(300)}`;
    await t.h.raw(
      (s) => s.create('back-end-groups', { type: 'back-end-group', attributes: { name: long, backendHosts: [{ protocol: 'HTTP', hostName: 'long.internal', port: 8080 }] } }),
      'a name too long for a file name',
    );
    const run = await t.h.cli(['export', '--out', out, '--force', '--kind', 'back-end-group', ...t.h.connection], { cwd: dir });
    expect(run.code).toBe(0);
    const after = await readdir(join(out, 'back-end-group'));
    const shortened = after.find((f) => f.startsWith('long-'));
    expect(shortened).toMatch(/^long-x+~[0-9a-f]{8}\.yaml$/);
    expect(Buffer.byteLength(shortened ?? '')).toBeLessThanOrEqual(255);
    expect(run.stderr).toContain(`the manifest of back-end-group "${long}" is written to back-end-group/${shortened}: the name back-end-group/${long}.yaml is longer than the 255 bytes a file name may have`);
    expect(after.filter((f) => f !== shortened)).toEqual(before);
    const plan = await t.h.cli(['plan', '--detailed-exitcode', ...t.h.connection], { cwd: out });
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    await t.h.raw(async (s) => {
      const found = await s.list('back-end-groups', [`name==${long}`]);
      for (const r of found) await s.remove('back-end-groups', r.id);
    }, 'remove the long name');
  });

  it('plan --out afile/p.json: says afile is a file (not "does not exist"), sends nothing', async () => {
    const dir = await writeManifests(t.h, 'plan-under-file', { afile: 'x', 'm.yaml': backendGroup });
    t.h.emulator.requestLog.length = 0;
    const line = oneLine(await t.h.cli(['plan', 'm.yaml', '--out', 'afile/p.json', ...t.h.connection], { cwd: dir }));
    expect(line).toBe(`Error: --out afile/p.json: ${join(dir, 'afile')} is a file, not a directory`);
    expect(t.h.emulator.requestLog).toEqual([]);
  });

  it('plan --out into a missing directory still says to create it', async () => {
    const dir = await writeManifests(t.h, 'plan-missing-dir', { 'm.yaml': backendGroup });
    const line = oneLine(await t.h.cli(['plan', 'm.yaml', '--out', 'nope/p.json', ...t.h.connection], { cwd: dir }));
    expect(line).toBe(`Error: --out nope/p.json: the directory ${join(dir, 'nope')} does not exist; create it first`);
  });
});

describe('the words of a failed write (what root cannot be made to meet end to end)', () => {
  it('errno codes read as words with the code', () => {
    expect(errnoWords(Object.assign(new Error('x'), { code: 'EACCES' }))).toBe('permission denied (EACCES)');
    expect(errnoWords(Object.assign(new Error('x'), { code: 'EROFS' }))).toBe('the file system is read-only (EROFS)');
    expect(errnoWords(Object.assign(new Error('x'), { code: 'ENOSPC' }))).toBe('no space left on the device (ENOSPC)');
    expect(errnoWords(Object.assign(new Error('x'), { code: 'EWHATEVER' }))).toBe('EWHATEVER');
    expect(errnoWords(new Error('no code'))).toBe('unreadable');
  });

  it('writeProblem: a directory where a file is wanted, a file where a directory is, a dangling link', async () => {
    const t = await writeProblem('/', 'file');
    expect(t).toBe('/ is a directory; name a file');
    const base = await mkdtemp(join(tmpdir(), 'gwops-out-paths-'));
    try {
      await writeFile(join(base, 'f'), 'x');
      await symlink(join(base, 'nowhere'), join(base, 'dangling'));
      expect(await writeProblem(join(base, 'f', 'x', 'y'), 'directory')).toBe(`${join(base, 'f')} is a file, not a directory`);
      expect(await writeProblem(join(base, 'dangling'), 'file')).toBe(`${join(base, 'dangling')} is a symbolic link to nothing`);
      expect(await writeProblem(join(base, 'new', 'deeper'), 'directory')).toBeUndefined();
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
