/**
 * Files written on threads of their own while the calling thread makes the next ones:
 * creating a file is mostly the kernel's work (at 100,000 exported objects, about 3 s of
 * an export's 10), which other cores can do meanwhile.
 */
import { Worker } from 'node:worker_threads';

/**
 * A writing thread: each message is a batch (its number, and paths and texts in pairs),
 * written with `writeFileSync` (a create, one write, a close); `null` asks for the
 * outcome. After its first failure the thread writes nothing more, and the outcome names
 * it. Plain JavaScript, run with `eval`, so the thread loads nothing but `node:fs` (about
 * 20 ms to start).
 */
const WRITER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { writeFileSync } = require('node:fs');
let failed = null;
parentPort.on('message', (message) => {
  if (message === null) {
    parentPort.postMessage(failed);
    return;
  }
  const files = message.files;
  for (let i = 0; i < files.length && failed === null; i += 2) {
    try {
      writeFileSync(files[i], files[i + 1]);
    } catch (error) {
      failed = { batch: message.batch, index: i, path: files[i], code: typeof error?.code === 'string' ? error.code : undefined, message: String(error?.message ?? error) };
    }
  }
});
`;

/** What a thread reports of its first failure: where it was in the order queued, the file and the error. */
interface Failure {
  readonly batch: number;
  readonly index: number;
  readonly path: string;
  readonly code?: string | undefined;
  readonly message: string;
}

/** Files sent to a thread at once (a message per file costs more than its write). */
const BATCH_FILES = 256;

/** A failure of the writing thread: the errno `code` as `fs` gives it (absent when it gave none) and the file. */
export class FileWriteError extends Error {
  declare readonly code?: string;
  constructor(
    message: string,
    code: string | undefined,
    readonly path: string,
  ) {
    super(message);
    if (code !== undefined) Object.defineProperty(this, 'code', { value: code, enumerable: true });
  }
}

/** Writes files on threads of their own ({@link startFileWriter}). */
export interface FileWriter {
  /** Queues `text` (written as UTF-8) for `path` (absolute); each path is to be queued once. */
  write(path: string, text: string): void;
  /**
   * Waits for every queued file and ends the threads; when `abort` is aborted first, ends
   * them at once (the files queued may be written or not: the caller discards them).
   * @throws FileWriteError for the first file, in the order queued, that could not be
   *   written (a thread writes nothing after its first failure; the other thread may have
   *   written files queued after it)
   */
  close(abort?: AbortSignal): Promise<void>;
}

/**
 * Threads that write: two, as on the smallest machines gwops runs on. Creating files in one
 * folder is serialised by the file system (the folder is locked for each create), but the
 * rest of a write (the path, the data, the close) is not: two threads wrote 50,000 files
 * into one folder in 1.1-1.2 s where one took 1.5-2.1 s.
 */
const WRITER_THREADS = 2;

/** Starts the writing threads; {@link FileWriter.close} must follow (it ends them). */
export function startFileWriter(): FileWriter {
  const workers = Array.from({ length: WRITER_THREADS }, () => {
    const worker = new Worker(WRITER_SOURCE, { eval: true });
    // A thread that stops before `close` (out of memory) is reported by `close`, never as an uncaught 'error' event.
    const stopped = new Promise<never>((_, reject) => {
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`a thread writing the files stopped (exit code ${code})`)));
    });
    stopped.catch(() => undefined);
    return { worker, stopped };
  });
  let batch: string[] = [];
  let sent = 0;
  const send = (): void => {
    if (batch.length === 0) return;
    workers[sent % workers.length]?.worker.postMessage({ batch: sent, files: batch });
    sent += 1;
    batch = [];
  };
  const outcome = ({ worker, stopped }: (typeof workers)[number]): Promise<Failure | null> =>
    Promise.race([
      new Promise<Failure | null>((resolve) => {
        worker.once('message', resolve);
        worker.postMessage(null);
      }),
      stopped,
    ]);
  return {
    write(path, text) {
      batch.push(path, text);
      if (batch.length >= 2 * BATCH_FILES) send();
    },
    async close(abort) {
      send();
      try {
        const aborted = new Promise<(Failure | null)[]>((resolve) => {
          if (abort?.aborted === true) resolve([]);
          abort?.addEventListener('abort', () => resolve([]), { once: true });
        });
        const failures = (await Promise.race([Promise.all(workers.map(outcome)), aborted])).filter((f): f is Failure => f !== null);
        const first = failures.sort((a, b) => a.batch - b.batch || a.index - b.index)[0];
        if (first) throw new FileWriteError(first.message, first.code, first.path);
      } finally {
        await Promise.all(workers.map(({ worker }) => worker.terminate()));
      }
    },
  };
}
