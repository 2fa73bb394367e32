/**
 * Replacing files so that an interruption never leaves a mix of old and new ones
 * (docs/architecture.md "Writing files"): a single file is written to a temporary file
 * beside it and renamed over it ({@link writeFileAtomic}); a set of files and folders (an
 * export) is written into a hidden staging folder inside the folder it goes to, and only
 * when every file is there are the old entries swapped for the new ones, one rename each
 * ({@link commitStaging}). A signal (SIGINT, SIGTERM, SIGHUP) while the files are written
 * discards the staging folder, so the old files stay as they were; during the swap it is
 * held until the swap is done ({@link guardInterrupts}). Only a SIGKILL (or a power cut)
 * during the swap itself can leave the folder half swapped: the staging folder then holds a
 * commit marker, the next export completes the swap ({@link recoverStaging}), and reading
 * manifests from that folder says so (src/manifest/sources.ts).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { WriteInterruptedError } from './errors.js';
import { FILE_LIMITS, readTextBounded } from './files.js';
import type { InterruptSignal } from './interrupts.js';
import { INTERRUPT_SIGNALS, signalSource } from './interrupts.js';

/** The name of every staging folder starts with this (a dot: manifest scans skip it). */
export const STAGING_PREFIX = '.gwops-staging-';

/** The file in a staging folder that says its swap has begun: a JSON list of the entries to swap. */
export const COMMIT_MARKER = '.commit';

/** Where the old entries go during the swap, inside the staging folder. */
const OLD = '.old';

/** A temporary file's path in the folder of `file`: a short hidden name of its own (a name after `file` could be longer than a file name may be). */
function tempBeside(file: string): string {
  return join(dirname(file), `.gwops-${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * Writes `data` to `file` so that it holds either its old or its new bytes, never a part:
 * a temporary file beside it (`.gwops-<random>.tmp`), flushed to disk, renamed over
 * `file`. The temporary file is removed when writing fails.
 * @throws the file system's error (the old file is then intact)
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array | Iterable<string> | AsyncIterable<string>): Promise<void> {
  const temp = tempBeside(file);
  try {
    await writeFile(temp, data, { mode: 0o644, flush: true });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** {@link writeFileAtomic} for the generators' synchronous scripts (src/core/generated-files.ts). */
export function writeFileAtomicSync(file: string, data: string | Uint8Array): void {
  const temp = tempBeside(file);
  try {
    writeFileSync(temp, data, { flush: true });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Signals caught while files are written ({@link guardInterrupts}). */
export interface InterruptGuard {
  /** The first signal that came, if any. */
  readonly signal: InterruptSignal | undefined;
  /** Aborted when the first signal comes. */
  readonly aborted: AbortSignal;
  /** @throws WriteInterruptedError (`discarded`) when a signal came */
  check(): void;
  /** Stops catching signals. */
  release(): void;
}

/**
 * Catches SIGINT, SIGTERM and SIGHUP (through the CLI's signal hub, src/core/interrupts.ts) until
 * `release`: the first one is recorded and aborts `aborted`, and the process goes on, so that
 * the writer can discard or finish its files and then end with the signal's exit code
 * ({@link WriteInterruptedError}).
 * @param what what is written, for the error's message (e.g. `the export into out`)
 */
export function guardInterrupts(what: string): InterruptGuard {
  const source = signalSource();
  const controller = new AbortController();
  let caught: InterruptSignal | undefined;
  const listeners = INTERRUPT_SIGNALS.map((signal) => {
    const listener = (): void => {
      caught ??= signal;
      controller.abort();
    };
    source.on(signal, listener);
    return [signal, listener] as const;
  });
  return {
    get signal() {
      return caught;
    },
    aborted: controller.signal,
    check() {
      if (caught !== undefined) throw new WriteInterruptedError(caught, 'discarded', what);
    },
    release() {
      for (const [signal, listener] of listeners) source.off(signal, listener);
    },
  };
}

/**
 * Runs `work` (writes of files that each replace their file atomically) with signals held
 * until it is done ({@link guardInterrupts}), so that a SIGINT, SIGTERM or SIGHUP never
 * leaves some files new and others old: afterwards the signal ends the run.
 * @param what what is written, for the message (e.g. `the plan file p.json`)
 * @throws WriteInterruptedError (`complete`) when a signal came, once every file is written
 */
export async function writeHoldingSignals<T>(what: string, work: () => Promise<T>): Promise<T> {
  const guard = guardInterrupts(what);
  try {
    const result = await work();
    if (guard.signal !== undefined) throw new WriteInterruptedError(guard.signal, 'complete', what);
    return result;
  } finally {
    guard.release();
  }
}

/**
 * A new staging folder inside `target` (created when missing): `.gwops-staging-<pid>-<random>`.
 * @returns its absolute path
 */
export async function startStaging(target: string): Promise<string> {
  await mkdir(target, { recursive: true });
  const staging = join(target, `${STAGING_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(staging);
  return staging;
}

/** Removes a staging folder whole, once nothing writes into it any more (synchronous; retried a few times, for a file system slow to let go). */
export function discardStaging(staging: string): void {
  rmSync(staging, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
}

/**
 * Swaps the `entries` (names directly inside `target`) for the ones of the same name in
 * `staging`: first the commit marker, then for each entry the old one (when there is one)
 * is moved into the staging folder and the new one renamed into place; then the staging
 * folder, with the old entries, is removed.
 */
export async function commitStaging(staging: string, target: string, entries: readonly string[]): Promise<void> {
  await writeFileAtomic(join(staging, COMMIT_MARKER), JSON.stringify(entries));
  await mkdir(join(staging, OLD));
  await swapEntries(staging, target, entries);
  await rm(staging, { recursive: true, force: true });
}

/** Moves each entry still in `staging` into `target`, the old one first out of the way (into `staging/.old`). */
async function swapEntries(staging: string, target: string, entries: readonly string[]): Promise<void> {
  for (const entry of entries) {
    const fresh = join(staging, entry);
    if (!existsSync(fresh)) continue; // swapped before an interruption
    const current = join(target, entry);
    const old = join(staging, OLD, entry);
    if (existsSync(current) && !existsSync(old)) await rename(current, old);
    else if (existsSync(current)) await rm(current, { recursive: true, force: true });
    await rename(fresh, current);
  }
}

/** True when the process `pid` still runs. */
function running(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A staging folder whose writer is gone: whether its swap had begun, and which entries it swaps (when it had). */
export interface LeftStaging {
  readonly path: string;
  readonly committing: boolean;
  readonly entries: readonly string[];
}

/** The entries a commit marker lists, or [] when it cannot be read or holds anything else than plain names. */
function markedEntries(staging: string): string[] {
  try {
    const entries: unknown = JSON.parse(readTextBounded(join(staging, COMMIT_MARKER), FILE_LIMITS.bundled));
    return Array.isArray(entries) && entries.every((e): e is string => typeof e === 'string' && e !== '' && e !== '.' && e !== '..' && !/[/\\]/.test(e)) ? entries : [];
  } catch {
    return [];
  }
}

/**
 * The staging folders among `names` (the entries of `target`) whose process is gone;
 * `committing` when the swap had begun.
 */
export function leftStagingIn(target: string, names: readonly string[]): LeftStaging[] {
  return names
    .filter((name) => name.startsWith(STAGING_PREFIX))
    .filter((name) => !running(Number(name.slice(STAGING_PREFIX.length).split('-')[0])))
    .map((name) => {
      const path = join(target, name);
      const committing = existsSync(join(path, COMMIT_MARKER));
      return { path, committing, entries: committing ? markedEntries(path) : [] };
    });
}

/**
 * Cleans up after a writer that was killed (SIGKILL, power cut) inside `target`: a staging
 * folder without a commit marker is removed (the files in `target` are the old ones); one
 * whose swap had begun is completed (every file in it was written before the swap began).
 * @returns one line per completed swap, for the caller to show
 */
export async function recoverStaging(target: string): Promise<string[]> {
  const done: string[] = [];
  for (const left of leftStagingIn(target, await readdir(target).catch(() => [] as string[]))) {
    if (left.committing && left.entries.length > 0) {
      await mkdir(join(left.path, OLD), { recursive: true });
      await swapEntries(left.path, target, left.entries);
      done.push(`an earlier export that was killed while swapping in its files left ${left.entries.join(', ')} half replaced: the swap was completed`);
    }
    await rm(left.path, { recursive: true, force: true });
  }
  return done;
}
