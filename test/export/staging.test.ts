/**
 * Export creates the manifest files while the lists are read (src/export/staging.ts): whatever
 * objects arrive and whatever the documents built from them end up named, the output
 * directory holds exactly what writing without staging gives, byte for byte, and nothing of
 * the staging is left, also when the export stops before writing.
 */
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportedDocument } from '../../src/export/build.js';
import { ManifestStaging } from '../../src/export/staging.js';
import { writeExport } from '../../src/export/write.js';
import type { ResourceType } from '../../src/kinds/index.js';

/** Every file and folder under `dir` (relative paths, sorted) with the bytes of each file. */
async function tree(dir: string): Promise<[string, string | null][]> {
  const entries = await readdir(dir, { recursive: true });
  const out: [string, string | null][] = [];
  for (const entry of entries.sort()) {
    const full = join(dir, entry);
    out.push([entry, (await stat(full)).isDirectory() ? null : await readFile(full, 'latin1')]);
  }
  return out;
}

// Names from pieces that escaping changes (separators, dots at the ends, `%`, invisible characters) and plain ones.
const piece = fc.constantFrom('a', 'b', 'shop', '-', '.', ' ', '%', '/', ':', '\\', '\u200b', 'é', '*', '..');
const name = fc.array(piece, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(''));
const kind = fc.constantFrom<ResourceType>('mapping', 'virtual-host', 'back-end-group', 'ssl-certificate');
/** One arriving object: its kind, the name it arrives with, and the name its document ends up with (mostly the same). */
const arrival = fc.record({ kind, arrives: name, renamed: fc.option(name, { freq: 4 }), written: fc.boolean() });

describe('ManifestStaging', () => {
  let base = '';
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'gwops-export-staging-'));
  });
  afterAll(() => rm(base, { recursive: true, force: true }));
  let run = 0;

  it('leaves the output exactly as writing without staging does, whatever arrives and whatever is written (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arrival, { maxLength: 12 }), fc.boolean(), fc.boolean(), async (arrivals, existingFolder, force) => {
        run += 1;
        const staged = join(base, `staged-${run}`, 'out');
        const plain = join(base, `plain-${run}`, 'out');
        if (existingFolder) {
          // A folder of a kind that is there already is never staged, and --force clears its manifests.
          for (const dir of [staged, plain]) {
            await mkdir(join(dir, 'mapping'), { recursive: true });
            await writeFile(join(dir, 'mapping', 'old.yaml'), 'old\n');
          }
        }
        const staging = await ManifestStaging.start(staged, ['mapping', 'virtual-host', 'back-end-group', 'ssl-certificate']);
        const documents = new Map<string, ExportedDocument>();
        for (const a of arrivals) {
          staging?.add(a.kind, { name: a.arrives });
          const documentName = a.renamed ?? a.arrives;
          if (a.written) documents.set(`${a.kind}/${documentName}`, { kind: a.kind, name: documentName, attributes: { entry: a.arrives }, relationships: {} });
        }
        const list = [...documents.values()];
        const clear = force ? (['mapping'] as ResourceType[]) : [];
        try {
          await writeExport(staged, list, 'per-object', [], 'project\n', clear, staged, staging);
        } finally {
          await staging?.discard();
        }
        await writeExport(plain, list, 'per-object', [], 'project\n', clear, plain);
        expect(await tree(staged)).toEqual(await tree(plain));
      }),
      { numRuns: 60, seed: 7 },
    );
  });

  it('stages the files of the objects as they arrive, in a hidden folder of the output directory', async () => {
    const out = join(base, 'arriving');
    const staging = await ManifestStaging.start(out, ['mapping']);
    expect(staging).toBeDefined();
    staging?.add('mapping', { name: 'shop' });
    await staging?.publish(new Set());
    const [folder, ...others] = await readdir(out);
    expect(others).toEqual([]);
    expect(folder).toMatch(/^\.gwops-export-/);
    expect(await readdir(join(out, folder ?? ''), { recursive: true })).toEqual(['mapping', 'mapping/shop.yaml']);
    await staging?.discard();
  });

  it('removes everything it made when the export stops before writing, the output directory too when it made it', async () => {
    const parent = join(base, 'stopped');
    const out = join(parent, 'new', 'out');
    await mkdir(parent);
    const staging = await ManifestStaging.start(out, ['mapping', 'virtual-host']);
    expect(staging).toBeDefined();
    for (let i = 0; i < 50; i++) staging?.add('mapping', { name: `m${i}` });
    await staging?.discard();
    expect(await readdir(parent)).toEqual([]);
  });

  it('keeps an existing output directory, and stages nothing for a kind whose folder is there already', async () => {
    const out = join(base, 'existing');
    await mkdir(join(out, 'mapping'), { recursive: true });
    expect(await ManifestStaging.start(out, ['mapping'])).toBeUndefined();
    const staging = await ManifestStaging.start(out, ['mapping', 'virtual-host']);
    staging?.add('mapping', { name: 'shop' });
    staging?.add('virtual-host', { name: 'shop' });
    await staging?.discard();
    expect(await tree(out)).toEqual([['mapping', null]]);
  });
});
