/**
 * A real gwops process watched from outside, for input that used to make it grow or hang
 * for ever: its peak resident memory (the child's own resource usage, written as it exits),
 * and a watchdog that kills it with SIGKILL when it passes a bound of what it does, never
 * of wall-clock time (a shared machine slows a process down, it does not make it hang):
 *
 * - memory: its resident set passes `memoryBytes`;
 * - CPU: the CPU time it has used (user + system, all threads) passes `cpuMs` (a busy loop);
 * - stall: in `idleSamples` consecutive samples of its state, every thread of it was
 *   asleep and it used no CPU time and read or wrote no byte (a wait for something that
 *   never comes, such as a FIFO's writer). A process that waits for its turn on a busy
 *   machine is runnable, not asleep, and the samples are taken by this process's own
 *   timer, which a busy machine delays alike; so only a real stall adds up.
 *
 * Optionally a signal is sent after a delay. Linux only (it reads /proc).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startGwops } from '../e2e/spawn.js';
import { REPO } from '../e2e/harness.js';

/** Why the watchdog killed a process. */
export type KillReason = 'memory' | 'cpu' | 'stalled';

/** How a bounded run ended. */
export interface BoundedRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Peak resident set size of the process in bytes, as it reported when exiting (undefined when it was killed). */
  readonly maxRssBytes: number | undefined;
  /** Why the watchdog killed the process, if it did. */
  readonly killed: KillReason | undefined;
  /** CPU time (user + system, milliseconds) the process had used at the last sample. */
  readonly cpuMs: number;
  /** Milliseconds from the signal (when one was sent) to the exit. */
  readonly afterSignalMs: number | undefined;
}

/** Options of {@link runBounded}. */
export interface BoundOptions {
  readonly env?: Record<string, string | undefined>;
  readonly cwd?: string;
  /** Resident memory above which the process is killed (default 512 MiB). */
  readonly memoryBytes?: number;
  /** CPU time (milliseconds, user + system) above which the process is killed as spinning (default 30 s). */
  readonly cpuMs?: number;
  /**
   * Consecutive samples (one each {@link SAMPLE_MS} of this process's timer) without any
   * progress after which the process is killed as stalled (default 40). Raise it for a
   * process that sleeps on purpose (a retry's back-off).
   */
  readonly idleSamples?: number;
  /** A signal to send `afterMs` after the start. */
  readonly signal?: { readonly name: 'SIGTERM' | 'SIGINT'; readonly afterMs: number };
  /** Modules (URLs) node imports before gwops starts, after the watchdog's own (to test the watchdog). */
  readonly imports?: readonly string[];
}

/** The watchdog's sampling interval, in milliseconds of this process's timer. */
export const SAMPLE_MS = 50;
const DEFAULT_CPU_MS = 30_000;
const DEFAULT_IDLE_SAMPLES = 40;

/** The hang bounds of `options` in words, for a drill's description. */
export function hangBoundsText(options: Pick<BoundOptions, 'cpuMs' | 'idleSamples'> = {}): string {
  const idle = options.idleSamples ?? DEFAULT_IDLE_SAMPLES;
  return (
    `use at most ${(options.cpuMs ?? DEFAULT_CPU_MS) / 1000} s of CPU time and never stall (${idle} samples of its state in a row, ` +
    `one per ${SAMPLE_MS} ms of the watchdog's timer, with every thread asleep and no CPU time used nor byte read or written)`
  );
}

/** Clock ticks per second of the CPU times in /proc (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = ((): number => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** What one sample of a process shows. */
interface ProcessSample {
  readonly residentBytes: number | undefined;
  readonly cpuMs: number;
  /** Bytes read and written through system calls (`rchar` + `wchar` of /proc/<pid>/io). */
  readonly ioBytes: number;
  /** True when every thread is asleep (state S: waiting for an event, not for the CPU or a disk). */
  readonly asleep: boolean;
}

/** The fields of a /proc stat line after the command name (field 3, the state, first). */
const statFields = (stat: string): string[] => stat.slice(stat.lastIndexOf(')') + 2).split(' ');

/** Samples process `pid` from /proc (undefined once it is gone). */
async function sampleProcess(pid: number): Promise<ProcessSample | undefined> {
  const read = (file: string): Promise<string | undefined> => readFile(`/proc/${pid}/${file}`, 'utf8').catch(() => undefined);
  const [stat, status, io, tasks] = await Promise.all([read('stat'), read('status'), read('io'), readdir(`/proc/${pid}/task`).catch(() => undefined)]);
  if (stat === undefined || tasks === undefined) return undefined;
  const fields = statFields(stat);
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the state.
  const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  const kib = status?.match(/^VmRSS:\s+(\d+) kB/m)?.[1];
  const counter = (name: string): number => Number(io?.match(new RegExp(`^${name}: (\\d+)`, 'm'))?.[1] ?? 0);
  const states = await Promise.all(tasks.map((task) => readFile(`/proc/${pid}/task/${task}/stat`, 'utf8').then((t) => statFields(t)[0], () => undefined)));
  return {
    residentBytes: kib === undefined ? undefined : Number(kib) * 1024,
    cpuMs,
    ioBytes: counter('rchar') + counter('wchar'),
    asleep: states.every((state) => state === 'S'),
  };
}

/** Writes the process's peak RSS (KiB, as tools/bench/peak-memory.ts reads it) to the file named by GWOPS_TEST_RUSAGE_FILE as it exits. */
const REPORT_PEAK =
  'data:text/javascript,' +
  encodeURIComponent(
    "import { writeFileSync } from 'node:fs';" +
      `import { peakResidentKib } from ${JSON.stringify(pathToFileURL(join(REPO, 'dist-tools', 'bench', 'peak-memory.js')).href)};` +
      "process.on('exit', () => { const f = process.env.GWOPS_TEST_RUSAGE_FILE; if (f) writeFileSync(f, String(peakResidentKib())); });",
  );

/** True when `now` shows no progress since `before`: every thread asleep, no CPU time used, no byte read or written. */
function stalledSince(before: ProcessSample | undefined, now: ProcessSample): boolean {
  return before !== undefined && now.asleep && now.cpuMs === before.cpuMs && now.ioBytes === before.ioBytes;
}

/**
 * Waits until process `pid` shows no progress in `samples` samples in a row (see
 * {@link stalledSince}): a process waiting for input (or for a writer, a signal) that does
 * not come, however busy the machine is. Use it instead of a sleep before sending a signal
 * to a process that must have started, or to bound a wait for a process that may be deaf.
 * @returns 'stalled', or 'gone' when the process ended first
 */
export async function untilStalled(pid: number, samples = DEFAULT_IDLE_SAMPLES): Promise<'stalled' | 'gone'> {
  let last: ProcessSample | undefined;
  let quiet = 0;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    const now = await sampleProcess(pid);
    if (now === undefined) return 'gone';
    quiet = stalledSince(last, now) ? quiet + 1 : 0;
    last = now;
    if (quiet >= samples) return 'stalled';
  }
}

/**
 * Runs `gwops ...args` under the bounds of `options`.
 * @returns the exit code (128 + n when killed by signal n), the outputs, the peak memory, the CPU time and what the watchdog did
 */
export async function runBounded(args: readonly string[], options: BoundOptions = {}): Promise<BoundedRun> {
  const dir = await mkdtemp(join(tmpdir(), 'gwops-bounded-'));
  const report = join(dir, 'maxrss');
  const memoryBytes = options.memoryBytes ?? 512 * 1024 * 1024;
  const proc = startGwops(args, { ...options.env, GWOPS_TEST_RUSAGE_FILE: report }, options.cwd ?? REPO, ['--import', REPORT_PEAK, ...(options.imports ?? []).flatMap((url) => ['--import', url])]);
  let killed: KillReason | undefined;
  let signalledAt: number | undefined;
  let exited = false;
  let last: ProcessSample | undefined;
  let quiet = 0;
  let sampling = false;
  const kill = (why: KillReason): void => {
    if (exited || killed) return;
    killed = why;
    proc.child.kill('SIGKILL');
  };
  const signal = options.signal;
  const signalTimer = signal ? setTimeout(() => ((signalledAt = Date.now()), proc.child.kill(signal.name)), signal.afterMs) : undefined;
  const watch = setInterval(() => {
    const pid = proc.child.pid;
    if (pid === undefined || sampling) return;
    sampling = true;
    void sampleProcess(pid)
      .then((now) => {
        if (now === undefined || exited) return;
        quiet = stalledSince(last, now) ? quiet + 1 : 0;
        last = now;
        if (now.residentBytes !== undefined && now.residentBytes > memoryBytes) kill('memory');
        else if (now.cpuMs > (options.cpuMs ?? DEFAULT_CPU_MS)) kill('cpu');
        else if (quiet >= (options.idleSamples ?? DEFAULT_IDLE_SAMPLES)) kill('stalled');
      })
      .finally(() => (sampling = false));
  }, SAMPLE_MS);
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
      cpuMs: last?.cpuMs ?? 0,
      afterSignalMs: signalledAt === undefined ? undefined : endedAt - signalledAt,
    };
  } finally {
    clearTimeout(signalTimer);
    clearInterval(watch);
    await rm(dir, { recursive: true, force: true });
  }
}
