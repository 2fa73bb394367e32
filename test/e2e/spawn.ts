/**
 * The real `gwops` process (bin/gwops.js over the compiled dist/, which `npm test` builds
 * first), for what only a process shows: signals, exit codes, pipes, standard input.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from './harness.js';

/** A running gwops process and what it printed so far. */
export interface GwopsProcess {
  readonly child: ChildProcessWithoutNullStreams;
  stdout: string;
  stderr: string;
  /** Settles with the exit code (or 128 + n when killed by signal n) once the process ended. */
  readonly exited: Promise<number>;
  /** Resolves once `text` has appeared on stderr or stdout. */
  waitFor(text: string | RegExp): Promise<void>;
}

const SIGNAL_NUMBERS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/**
 * Starts `node ...nodeArgs bin/gwops.js ...args` with `env` (and nothing else of this
 * process's environment but PATH).
 */
export function startGwops(args: readonly string[], env: Record<string, string | undefined> = {}, cwd = REPO, nodeArgs: readonly string[] = []): GwopsProcess {
  const child = spawn(process.execPath, [...nodeArgs, join(REPO, 'bin', 'gwops.js'), ...args], {
    cwd,
    env: { PATH: process.env.PATH, ...env },
    stdio: 'pipe',
  });
  const waiters: { text: string | RegExp; resolve: () => void }[] = [];
  const proc: GwopsProcess = {
    child,
    stdout: '',
    stderr: '',
    exited: new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (code, signal) => resolve(code ?? 128 + (SIGNAL_NUMBERS[signal ?? ''] ?? 0)));
    }),
    waitFor: (text) =>
      new Promise<void>((resolve) => {
        waiters.push({ text, resolve });
        check();
      }),
  };
  function check(): void {
    const all = proc.stdout + proc.stderr;
    for (const w of waiters.splice(0)) {
      if (typeof w.text === 'string' ? all.includes(w.text) : w.text.test(all)) w.resolve();
      else waiters.push(w);
    }
  }
  child.stdout.on('data', (d: Buffer) => ((proc.stdout += d.toString()), check()));
  child.stderr.on('data', (d: Buffer) => ((proc.stderr += d.toString()), check()));
  return proc;
}
