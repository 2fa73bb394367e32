/**
 * The thread that writes an export's files (src/export/file-writer.ts): every file queued
 * holds its text, whatever the name and text; the first file that cannot be written is
 * reported with its errno code and path, and nothing queued after it is written.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileWriteError, startFileWriter } from '../../src/export/file-writer.js';
import { errnoWords } from '../../src/core/files.js';

describe('startFileWriter', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gwops-file-writer-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes every file queued with its text, in batches of any size', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 200 }), { maxLength: 700 }),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).filter((s) => !/[/\\\0]/.test(s) && s !== '.' && s !== '..' && Buffer.byteLength(s) < 200),
        async (texts, stem) => {
          const folder = await mkdtemp(join(dir, `run-${(run += 1)}-`));
          const writer = startFileWriter();
          const paths = texts.map((_, i) => join(folder, `${i}-${stem}.yaml`));
          texts.forEach((text, i) => writer.write(paths[i] ?? '', text));
          await writer.close();
          expect(paths.map((path) => readFileSync(path, 'utf8'))).toEqual(texts);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('reports the first file it cannot write, with its code and path, and writes none after it', async () => {
    const writer = startFileWriter();
    const before = join(dir, 'before.yaml');
    const missing = join(dir, 'no-such-folder', 'failing.yaml');
    const after = join(dir, 'after.yaml');
    writer.write(before, 'a: 1\n');
    writer.write(missing, 'b: 2\n');
    writer.write(after, 'c: 3\n');
    const failure = await writer.close().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(FileWriteError);
    expect((failure as FileWriteError).path).toBe(missing);
    expect(errnoWords(failure)).toMatch(/\(ENOENT\)$/);
    expect(readFileSync(before, 'utf8')).toBe('a: 1\n');
    expect(existsSync(after)).toBe(false);
  });
});
