/**
 * A signal at any moment of writing an export leaves the folder either exactly as it was
 * (the signal came while the files were written) or exactly as the new export (it came
 * during the swap, which is finished first), never a mix, never a staging folder, and
 * never an error thrown from a signal listener. The signal is delivered through the CLI's
 * signal hub after a generated number of event-loop turns, so that it lands in every phase:
 * the staging folder made, files written by the threads, content files in flight, the swap.
 */
import { EventEmitter } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { fileTree } from '../support/file-tree.js';
import { WriteInterruptedError } from '../../src/core/errors.js';
import type { ExportedDocument } from '../../src/export/build.js';
import { writeExport } from '../../src/export/write.js';
import type { ExportLayout } from '../../src/export/write.js';
import type { InterruptSignal } from '../../src/core/interrupts.js';
import { SignalHub, useSignalHub } from '../../src/core/interrupts.js';

/** Objects in the new export: enough that writing them takes many turns of the event loop. */
const NEW = 1500;

function groups(prefix: string, count: number): ExportedDocument[] {
  return Array.from({ length: count }, (_, i) => ({
    kind: 'back-end-group',
    name: `${prefix}-${String(i).padStart(4, '0')}`,
    attributes: { name: `${prefix}-${i}` },
    relationships: {},
  }));
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Resolves after `count` turns of the event loop once a staging folder is in `dir` (or when `done` settles). */
async function turnsIntoWriting(dir: string, count: number, done: Promise<unknown>): Promise<void> {
  let settled = false;
  void done.then(() => (settled = true));
  while (!settled && !(await readdir(dir)).some((name) => name.startsWith('.gwops-staging-'))) await turn();
  for (let i = 0; i < count && !settled; i++) await turn();
}

describe('an export interrupted at any moment', () => {
  afterEach(() => useSignalHub(undefined));

  it('leaves the old files or the new ones, whole, and no staging folder (property)', async () => {
    const base = await mkdtemp(join(tmpdir(), 'gwops-interrupted-write-'));
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom<ExportLayout>('per-object', 'per-kind'),
          fc.integer({ min: 0, max: 400 }),
          fc.constantFrom<InterruptSignal>('SIGINT', 'SIGTERM', 'SIGHUP'),
          async (layout, delay, signal) => {
            const dir = join(base, `run-${run++}`);
            await writeExport(dir, groups('old', 5), layout, [], 'project: old\n', []);
            const before = await fileTree(dir);
            const fallback: InterruptSignal[] = [];
            const hub = new SignalHub(new EventEmitter(), (s) => fallback.push(s));
            useSignalHub(hub);
            const fresh = groups('new', NEW);
            const writing = writeExport(dir, fresh, layout, [], 'project: new\n', layout === 'per-object' ? ['back-end-group'] : []);
            const outcome = writing.then(
              () => undefined,
              (error: unknown) => error,
            );
            await turnsIntoWriting(dir, delay, outcome);
            hub.dispatch(signal);
            const error = await outcome;
            useSignalHub(undefined);
            const after = await fileTree(dir);
            expect(Object.keys(after).filter((path) => path.includes('.gwops-'))).toEqual([]);
            const text = Object.values(after).join('\n');
            const whollyNew = (): void => {
              expect(text).not.toContain('old-000');
              for (const name of ['new-0000', `new-${String(NEW - 1).padStart(4, '0')}`]) expect(text).toContain(`name: ${name}`);
            };
            if (error === undefined) {
              // Finished before the signal: nobody was listening any more, the fallback took it.
              expect(fallback).toEqual([signal]);
              whollyNew();
              return;
            }
            expect(error).toBeInstanceOf(WriteInterruptedError);
            const interrupted = error as WriteInterruptedError;
            expect(interrupted.signal).toBe(signal);
            if (interrupted.outcome === 'discarded') expect(after).toEqual(before);
            else whollyNew();
          },
        ),
        { numRuns: 40, seed: 7 },
      );
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  }, 120_000);
});
