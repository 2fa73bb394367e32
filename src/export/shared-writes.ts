/**
 * Many small files written by two threads at once: this one and a worker
 * (src/export/shared-writes-thread.ts). Creating a file costs the kernel tens of
 * microseconds (a new inode, a directory entry, a page to zero), and two threads creating
 * files in one folder get through a fifth to a quarter more of them than one thread alone;
 * once the lists are read, the second core has nothing else to do.
 *
 * Both threads take the next batch of files from one counter in shared memory, so neither
 * waits for the other and a slower one simply takes fewer batches.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** One file to write: absolute path (its folder exists) and its text (written as UTF-8). */
export type FileText = readonly [path: string, text: string];

/** What the worker is given: the files, and the claim counter and stop flag both threads share. */
export interface SharedWrites {
  readonly files: readonly FileText[];
  /** `[0]`: the index of the next unclaimed file; `[1]`: 1 once either thread failed. */
  readonly claims: Int32Array;
}

/** What the worker answers once it is done: nothing, or the file it could not write and the system error's code and message. */
export interface SharedWritesDone {
  readonly failed?: { readonly path: string; readonly code: string | undefined; readonly message: string };
}

/** Files one claim takes. */
const BATCH = 64;

/** Below this many files starting the worker (tens of milliseconds) costs more than it saves. */
export const SHARED_WRITES_FROM = 2000;

/** The worker's module, beside this one once compiled (absent when run from the TypeScript sources). */
const THREAD_MODULE = new URL('./shared-writes-thread.js', import.meta.url);

/**
 * Writes claimed batches of `work.files` until none is left or the other thread failed.
 * @throws the failed write's error, its `path` set to the file (after raising the stop flag)
 */
export function writeClaimed(work: SharedWrites): void {
  const { files, claims } = work;
  while (Atomics.load(claims, 1) === 0) {
    const from = Atomics.add(claims, 0, BATCH);
    if (from >= files.length) return;
    for (let i = from; i < Math.min(from + BATCH, files.length); i++) {
      const [path, text] = files[i] as FileText;
      try {
        writeFileSync(path, text);
      } catch (error) {
        Atomics.store(claims, 1, 1);
        throw Object.assign(error instanceof Error ? error : new Error(String(error)), { path });
      }
    }
  }
}

/**
 * Writes every file of `files` (each created or replaced), with a worker thread beside this
 * one from {@link SHARED_WRITES_FROM} files on (see the module comment). The order in which
 * the files are created is not defined.
 * @throws the error of a write that failed (a Node.js system error: `code`, and `path` the
 *   file), once both threads stopped; files of other batches may have been written
 */
export async function writeFilesShared(files: readonly FileText[]): Promise<void> {
  const work: SharedWrites = { files, claims: new Int32Array(new SharedArrayBuffer(8)) };
  if (files.length < SHARED_WRITES_FROM || !existsSync(fileURLToPath(THREAD_MODULE))) {
    writeClaimed(work);
    return;
  }
  const worker = new Worker(THREAD_MODULE, { workerData: work });
  const answer = new Promise<SharedWritesDone>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', () => reject(new Error('the file writing thread ended before it answered')));
  });
  let failedHere: Error | undefined;
  try {
    writeClaimed(work);
  } catch (error) {
    failedHere = error as Error; // writeClaimed throws Errors only
  }
  // The worker stops at its next claim once a write here failed; its answer is awaited either way.
  const done = await answer.finally(() => worker.terminate());
  if (failedHere !== undefined) throw failedHere;
  // An error does not cross threads whole (its `code` would be lost): it is built again from what the worker sent.
  if (done.failed !== undefined) throw Object.assign(new Error(done.failed.message), { code: done.failed.code, path: done.failed.path });
}
