/**
 * Files written by two threads (src/export/shared-writes.ts), run from the compiled dist/ so
 * that the worker's module exists and the worker takes part: every file holds exactly its
 * text, whatever its name, text and count; a file that cannot be written rejects with its
 * system error (code and path) from whichever thread met it, once both stopped.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from '../e2e/harness.js';
import type * as SharedWritesModule from '../../src/export/shared-writes.js';

const compiled = (await import(pathToFileURL(join(REPO, 'dist', 'export', 'shared-writes.js')).href)) as typeof SharedWritesModule;
const { SHARED_WRITES_FROM, writeFilesShared } = compiled;

const root = mkdtempSync(join(tmpdir(), 'gwops-shared-writes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let runs = 0;
const freshDir = (): string => {
  const dir = join(root, String(runs++));
  mkdirSync(dir);
  return dir;
};

/** A file name of any characters a file name may hold (no `/`, no NUL), made unique by its index. */
const fileName = fc.string({ unit: 'grapheme', maxLength: 12 }).map((s) => s.replace(/[/\0]/g, '_'));

describe('writeFilesShared', () => {
  it('writes every file with exactly its text, below and above the count that starts the worker', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: SHARED_WRITES_FROM + 700 }),
        fc.array(fc.tuple(fileName, fc.string({ unit: 'binary', maxLength: 40 })), { minLength: 1, maxLength: 30 }),
        async (count, samples) => {
          const dir = freshDir();
          const files = Array.from({ length: count }, (_, i): [string, string] => {
            const [name, text] = samples[i % samples.length] as [string, string];
            return [join(dir, `${i}-${name}`), `${text}${i}`];
          });
          await writeFilesShared(files);
          expect(readdirSync(dir).length).toBe(count);
          for (const [path, text] of files) expect(readFileSync(path, 'utf8')).toBe(Buffer.from(text, 'utf8').toString('utf8'));
        },
      ),
      { numRuns: 6 },
    );
  });

  it('rejects with the system error of a file it cannot write, wherever that file is among many', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: SHARED_WRITES_FROM * 2 - 1 }), async (bad) => {
        const dir = freshDir();
        const files = Array.from({ length: SHARED_WRITES_FROM * 2 }, (_, i): [string, string] => [join(dir, `f${i}.yaml`), `text ${i}\n`]);
        // A folder where the file should be: no thread can write it.
        mkdirSync(join(dir, `f${bad}.yaml`));
        const error = await writeFilesShared(files).then(
          () => undefined,
          (caught: unknown) => caught as { code?: unknown; path?: unknown },
        );
        expect(error).toMatchObject({ code: 'EISDIR', path: join(dir, `f${bad}.yaml`) });
      }),
      { numRuns: 5 },
    );
  });
});
