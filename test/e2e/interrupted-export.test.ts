/**
 * Ctrl-C during `export --force` keeps the previous export: the new files are written
 * beside the old ones and swapped in only when all are there (src/core/staged-files.ts). The
 * real process (bin/gwops.js over dist/) gets SIGINT as soon as it starts writing files
 * into the output folder; afterwards the folder holds exactly the old export, which still
 * validates, and the message says that nothing was written.
 */
import { cp, mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileTree } from '../support/file-tree.js';
import { useHarness, writeManifests } from './harness.js';
import { groupName, manyBackEndGroups } from './many-objects.js';
import { startGwops } from './spawn.js';

/**
 * Resolves once the output folder `out` starts changing: a staging folder appears in it, or
 * the listing of `folder` inside it is no longer `before` (polled every millisecond or so).
 */
async function writingStarts(out: string, folder: string, before: readonly string[]): Promise<void> {
  for (;;) {
    const top = await readdir(out).catch(() => [] as string[]);
    if (top.some((e) => e.startsWith('.gwops-staging-'))) return;
    const now = await readdir(join(out, folder)).catch(() => [] as string[]);
    if (now.length !== before.length || now.some((e, i) => e !== before[i])) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** Back-end groups of the new export: enough files that writing them outlasts the signal's way to the process. */
const NEW_OBJECTS = 1000;

describe('export --force interrupted while writing', () => {
  const t = useHarness();

  it('SIGINT as the files are written: the old export is intact and validates, and the run says nothing was written', async () => {
    const dir = await writeManifests(t.h, 'interrupted', manyBackEndGroups('old', 3));
    expect((await t.h.cli(['apply', '--yes', 'groups.yaml', ...t.h.connection], { cwd: dir })).code).toBe(0);
    const out = join(dir, 'out');
    expect((await t.h.cli(['export', '--out', out, '--kind', 'back-end-group', ...t.h.connection], { cwd: dir })).code).toBe(0);
    const before = await fileTree(out);
    const listing = (await readdir(join(out, 'back-end-group'))).sort();
    expect(listing).toHaveLength(3);

    // A large new export: writing it takes long enough to be interrupted half-way.
    await t.h.raw(async (s) => {
      const create = (i: number): Promise<unknown> =>
        s.create('back-end-groups', { type: 'back-end-group', attributes: { name: groupName('new', i), backendHosts: [{ protocol: 'HTTP', hostName: 'new.internal', port: 8080 }] } });
      for (let i = 0; i < NEW_OBJECTS; i += 10) await Promise.all(Array.from({ length: Math.min(10, NEW_OBJECTS - i) }, (_, j) => create(i + j)));
    }, 'many new groups');

    const proc = startGwops(['export', '--out', out, '--force', '--kind', 'back-end-group', ...t.h.connection], { CI: 'true' }, dir);
    await writingStarts(out, 'back-end-group', listing);
    proc.child.kill('SIGINT');
    const code = await proc.exited;
    expect(proc.stderr).toContain(`interrupted by SIGINT while writing the export into ${out}: nothing was written or removed`);
    expect(code).toBe(130);
    expect(await fileTree(out)).toEqual(before);
    expect(await readdir(out)).not.toContainEqual(expect.stringMatching(/^\.gwops-staging-/));
    const validate = await t.h.cli(['validate'], { cwd: out });
    expect(validate.code).toBe(0);
  }, 120_000);

  it('a folder left half swapped by a killed export: validate says it is incomplete, the next export completes it', async () => {
    const dir = await writeManifests(t.h, 'killed-swap', manyBackEndGroups('swap', 2));
    expect((await t.h.cli(['apply', '--yes', 'groups.yaml', ...t.h.connection], { cwd: dir })).code).toBe(0);
    const out = join(dir, 'out');
    expect((await t.h.cli(['export', '--out', out, '--kind', 'back-end-group', ...t.h.connection], { cwd: dir })).code).toBe(0);
    const complete = await fileTree(out);
    // As a process killed between the two renames of its swap leaves it (src/core/staged-files.ts): the old folder moved
    // into the staging folder, the new one not yet in place.
    const staging = join(out, '.gwops-staging-2147483646-dead');
    await mkdir(join(staging, '.old'), { recursive: true });
    await cp(join(out, 'back-end-group'), join(staging, 'back-end-group'), { recursive: true });
    await writeFile(join(staging, '.commit'), JSON.stringify(['back-end-group']));
    await rename(join(out, 'back-end-group'), join(staging, '.old', 'back-end-group'));

    const validate = await t.h.cli(['validate'], { cwd: out });
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain("is incomplete: an export into it was killed while swapping in its files (back-end-group may be missing or old)");

    const again = await t.h.cli(['export', '--out', out, '--force', '--kind', 'back-end-group', ...t.h.connection], { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('an earlier export that was killed while swapping in its files left back-end-group half replaced: the swap was completed');
    expect(await readdir(out)).not.toContainEqual(expect.stringMatching(/^\.gwops-staging-/));
    expect(await fileTree(out)).toEqual(complete);
    expect((await t.h.cli(['validate'], { cwd: out })).code).toBe(0);
  });
});
