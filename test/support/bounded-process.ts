/**
 * A real gwops process watched from outside, for input that used to make it grow or hang
 * for ever: its peak resident memory (the child's own resource usage, written as it exits),
 * a watchdog that kills it with SIGKILL when its resident memory passes a bound or when a
 * generous time limit passes (a real hang, not a slow shared machine), and optionally a
 * signal sent after a delay.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGwops } from '../e2e/spawn.js';
import { REPO } from '../e2e/harness.js';

/** How a bounded run ended. */
export interface BoundedRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Peak resident set size of the process in bytes, as it reported when exiting (undefined when it was killed). */
  readonly maxRssBytes: number | undefined;
  /** Why the watchdog killed the process, if it did. */
  readonly killed: 'memory' | 'time' | undefined;
  /** Milliseconds from the signal (when one was sent) to the exit. */
  readonly afterSignalMs: number | undefined;
}

/** Options of {@link runBounded}. */
export interface BoundOptions {
  readonly env?: Record<string, string | undefined>;
  readonly cwd?: string;
  /** Resident memory above which the process is killed (default 512 MiB). */
  readonly memoryBytes?: number;
  /** Time after which the process is killed as hung (default 30 s). */
  readonly timeMs?: number;
  /** A signal to send `afterMs` after the start. */
  readonly signal?: { readonly name: 'SIGTERM' | 'SIGINT'; readonly afterMs: number };
}

/** Writes the process's peak RSS (KiB) to the file named by GWOPS_TEST_RUSAGE_FILE as it exits. */
const REPORT_PEAK =
  'data:text/javascript,' +
  encodeURIComponent(
    "import { writeFileSync } from 'node:fs';" +
      "process.on('exit', () => { const f = process.env.GWOPS_TEST_RUSAGE_FILE; if (f) writeFileSync(f, String(process.resourceUsage().maxRSS)); });",
  );

/** The resident memory of a process in bytes, from /proc (undefined where there is none). */
async function residentBytes(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  const kib = status?.match(/^VmRSS:\s+(\d+) kB/m)?.[1];
  return kib === undefined ? undefined : Number(kib) * 1024;
}

/**
 * Runs `gwops ...args` under the bounds of `options`.
 * @returns the exit code (128 + n when killed by signal n), the outputs, the peak memory and what the watchdog did
 */
export async function runBounded(args: readonly string[], options: BoundOptions = {}): Promise<BoundedRun> {
  const dir = await mkdtemp(join(tmpdir(), 'gwops-bounded-'));
  const report = join(dir, 'maxrss');
  const memoryBytes = options.memoryBytes ?? 512 * 1024 * 1024;
  const proc = startGwops(args, { ...options.env, GWOPS_TEST_RUSAGE_FILE: report }, options.cwd ?? REPO, ['--import', REPORT_PEAK]);
  let killed: BoundedRun['killed'];
  let signalledAt: number | undefined;
  let exited = false;
  const kill = (why: 'memory' | 'time'): void => {
    if (exited || killed) return;
    killed = why;
    proc.child.kill('SIGKILL');
  };
  const timer = setTimeout(() => kill('time'), options.timeMs ?? 30_000);
  const signal = options.signal;
  const signalTimer = signal ? setTimeout(() => ((signalledAt = Date.now()), proc.child.kill(signal.name)), signal.afterMs) : undefined;
  const watch = setInterval(() => {
    const pid = proc.child.pid;
    if (pid === undefined) return;
    void residentBytes(pid).then((bytes) => {
      if (bytes !== undefined && bytes > memoryBytes) kill('memory');
    });
  }, 50);
  try {
    const code = await proc.exited;
    exited = true;
    const endedAt = Date.now();
    const kib = Number(await readFile(report, 'utf8').catch(() => 'NaN'));
    return {
      code,
      stdout: proc.stdout,
      stderr: proc.stderr,
      maxRssBytes: Number.isFinite(kib) ? kib * 1024 : undefined,
      killed,
      afterSignalMs: signalledAt === undefined ? undefined : endedAt - signalledAt,
    };
  } finally {
    clearTimeout(timer);
    clearTimeout(signalTimer);
    clearInterval(watch);
    await rm(dir, { recursive: true, force: true });
  }
}
