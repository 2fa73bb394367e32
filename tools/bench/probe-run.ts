/**
 * Runs bench work in a fresh process (tools/bench/probe.ts) and times it from outside, as a
 * user would time a command: start-up, imports and the work itself. Used by the export
 * bench (tools/bench/export.ts) and the scale bench (tools/bench/scale.ts) for gwops's runs
 * and for the bare client's beside them.
 */
import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { Shape } from './scenario.js';

/** What the probe process does (see tools/bench/probe.ts). */
export type ProbeWork =
  /** `gwops ARGS --url URL`, e.g. `['plan', '--no-server-check', '-q']`. */
  | { readonly mode: 'cli'; readonly args: readonly string[] }
  /** A bare client's fetch and parse of these collections, e.g. `mappings`. */
  | { readonly mode: 'fetch'; readonly collections: readonly string[] }
  /** A bare client's calls of `gwops apply` / `gwops plan` for the mappings `existing` .. `shape.mappings - 1`. */
  | { readonly mode: 'calls'; readonly command: 'apply' | 'plan'; readonly shape: Shape; readonly existing: number };

/** One probe run, measured. */
export interface ProbeRun {
  /** From fork to exit, ms. */
  readonly wallMs: number;
  /** CPU time of the probe process (user and system), ms. */
  readonly cpuMs: number;
  /** Peak RSS of the probe process, MB (node itself included). */
  readonly rssMb: number;
  /** The CLI's exit code (0 for the bare client's work, which throws on failure). */
  readonly exitCode: number;
  /** The last lines the process wrote to stderr (for the message of a failed run). */
  readonly stderrTail: string;
}

/**
 * Runs `work` in a fresh process against the gateway at `gateway.url`, in `cwd` (default:
 * this process's).
 * @throws Error when the probe process ends without reporting (the bare client failed)
 */
export async function runProbe(gateway: { readonly url: string; readonly apiKey: string }, work: ProbeWork, cwd?: string): Promise<ProbeRun> {
  const t0 = performance.now();
  const child = fork(fileURLToPath(new URL('./probe.js', import.meta.url)), [], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    ...(cwd === undefined ? {} : { cwd }),
    env: { ...process.env, GWOPS_BENCH_URL: gateway.url, GWOPS_BENCH_KEY: gateway.apiKey, GWOPS_BENCH_WORK: JSON.stringify(work) },
  });
  let stderrTail = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderrTail = (stderrTail + text).slice(-2000)));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const result = await new Promise<{ exitCode: number; maxRssKb: number; cpuMs: number }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { exitCode: number; maxRssKb: number; cpuMs: number }));
    child.once('exit', (code) => reject(new Error(`${work.mode} probe exited with ${String(code)} without reporting: ${stderrTail.trim()}`)));
  });
  await exited;
  return { wallMs: performance.now() - t0, cpuMs: result.cpuMs, rssMb: result.maxRssKb / 1024, exitCode: result.exitCode, stderrTail };
}

/** The median of `values` (upper median for even counts; NaN when empty). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}
