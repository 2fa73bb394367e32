/**
 * The worker of src/export/shared-writes.ts: writes the batches it claims of the files it is
 * given (`workerData`, a SharedWrites), then answers a SharedWritesDone.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { SharedWrites, SharedWritesDone } from './shared-writes.js';
import { writeClaimed } from './shared-writes.js';

let answer: SharedWritesDone = {};
try {
  writeClaimed(workerData as SharedWrites);
} catch (error) {
  const { path, code, message } = error as { path?: unknown; code?: unknown; message?: unknown };
  answer = { failed: { path: String(path), code: typeof code === 'string' ? code : undefined, message: String(message) } };
}
parentPort?.postMessage(answer);
