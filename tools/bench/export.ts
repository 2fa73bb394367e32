/**
 * Export benchmark: `gwops export` of 1,000 and 10,000 mappings (100,000 with `--large`)
 * against the emulator, side by side in the same run with a bare client fetching the same
 * lists. Target: export at most 1.5x the fetch time at 10,000 and 100,000 mappings, and a
 * peak RSS under 1 GB at 100,000.
 *
 * Both run in fresh processes (tools/bench/probe-run.ts), timed from outside, as a user
 * would time them: the export is the real CLI (start-up, session, lists, building and
 * writing one file per object); the bare client opens a session, loads the active
 * configuration and GETs every collection export reads, parsing each body and keeping
 * nothing of it. The emulator runs in a child process of its own (tools/bench/apply-emulator.ts)
 * with the data of the apply bench (tools/bench/apply-data.ts): the mappings linked to 10
 * back-end groups and 10 virtual hosts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KINDS, kindExistsIn } from '#src/kinds/index.js';
import { populate } from './apply-data.js';
import type { BenchEmulator } from './apply-emulator.js';
import { childEmulator } from './apply-emulator.js';
import type { ProbeRun } from './probe-run.js';
import { median, runProbe } from './probe-run.js';

/** The ratio target (export time / bare fetch time) and the memory target at the largest size. */
export const EXPORT_RATIO_TARGET = 1.5;
export const EXPORT_RSS_TARGET_MB = 1024;
/** Sizes the ratio target applies to. */
export const EXPORT_TARGET_SIZES: readonly number[] = [10000, 100000];

/** One measured size. */
export interface ExportBenchRow {
  readonly mappings: number;
  /** Objects exported (mappings, groups and hosts). */
  readonly objects: number;
  /** Median wall time of the bare fetch and of the export, from outside (ms). */
  readonly fetchMs: number;
  readonly exportMs: number;
  /** Median CPU time of the processes (ms; the emulator's not included). */
  readonly fetchCpuMs: number;
  readonly exportCpuMs: number;
  /** Peak RSS of the processes (MB, node itself included). */
  readonly fetchRssMb: number;
  readonly exportRssMb: number;
}

/** The collections export reads: every kind of the latest variant. */
export const EXPORT_COLLECTIONS: readonly string[] = KINDS.filter((k) => kindExistsIn(k, 'latest')).map((k) => k.collection);

/**
 * The folder every export and every plan file of the bench is written into (a new name
 * each run, see {@link freshOutput}), made on first use. It is removed only when the whole
 * bench is done ({@link removeExportOutputs}): deleting tens of thousands of files made
 * creating files several times slower for minutes after (4 s instead of 1.6 s for an
 * export of 10,000 mappings; on a file system mounted with `discard`, as this machine's
 * is, each freed block is trimmed as the deletion is committed), and so does overwriting a
 * plan file of tens of megabytes; costs of the bench's own repetition that no user's run pays.
 */
export async function exportOutputs(): Promise<string> {
  outputs ??= await mkdtemp(path.join(tmpdir(), 'gwops-export-bench-'));
  return outputs;
}

let outputs: string | undefined;

/** A path in {@link exportOutputs} that no earlier run of the bench used: `<name>-<n>`. */
export async function freshOutput(name: string): Promise<string> {
  return path.join(await exportOutputs(), `${name}-${++outputRuns}`);
}

let outputRuns = 0;

/** Removes the folder of {@link exportOutputs} (at the end of the bench). */
export async function removeExportOutputs(): Promise<void> {
  if (outputs !== undefined) await rm(outputs, { recursive: true, force: true });
  outputs = undefined;
}

/**
 * One export (`gwops export --no-deny-rule-use --out` a new folder in {@link exportOutputs}) or one bare fetch
 * of {@link EXPORT_COLLECTIONS}, in a fresh process.
 * @throws Error when it fails
 */
export async function exportProbe(emulator: Pick<BenchEmulator, 'url' | 'apiKey'>, mode: 'export' | 'fetch'): Promise<ProbeRun> {
  const out = await freshOutput('export');
  // Without the deny rule use (one GET per mapping and entry): the same lists as the bare fetch.
  const run = await runProbe(emulator, mode === 'export' ? { mode: 'cli', args: ['export', '--out', out, '-q', '--no-deny-rule-use'] } : { mode: 'fetch', collections: EXPORT_COLLECTIONS });
  if (run.exitCode !== 0) throw new Error(`${mode} probe ended with exit code ${run.exitCode}: ${run.stderrTail.trim()}`);
  return run;
}

/** Runs the export benchmark for each size: after a warm-up of each, `runs` alternating runs, medians reported. */
export async function benchExport(sizes: readonly number[], progress: (line: string) => void, runs = 3): Promise<ExportBenchRow[]> {
  const rows: ExportBenchRow[] = [];
  for (const size of sizes) {
    const emulator = await childEmulator({ latencyMs: 0 });
    try {
      progress(`export bench: creating ${size} mappings...`);
      const shape = { mappings: size, groups: 10, hosts: 10, changeEvery: 0 };
      await populate(emulator, shape);
      const fetches: ProbeRun[] = [];
      const exports: ProbeRun[] = [];
      const warm = size <= 10000;
      if (warm) {
        await exportProbe(emulator, 'fetch');
        await exportProbe(emulator, 'export');
      }
      for (let run = 0; run < (warm ? runs : 1); run++) {
        progress(`export bench: ${size} mappings, run ${run + 1}`);
        fetches.push(await exportProbe(emulator, 'fetch'));
        exports.push(await exportProbe(emulator, 'export'));
      }
      rows.push({
        mappings: size,
        objects: size + shape.groups + shape.hosts,
        fetchMs: median(fetches.map((r) => r.wallMs)),
        exportMs: median(exports.map((r) => r.wallMs)),
        fetchCpuMs: median(fetches.map((r) => r.cpuMs)),
        exportCpuMs: median(exports.map((r) => r.cpuMs)),
        fetchRssMb: Math.max(...fetches.map((r) => r.rssMb)),
        exportRssMb: Math.max(...exports.map((r) => r.rssMb)),
      });
    } finally {
      await emulator.close();
    }
  }
  return rows;
}

/** Verdicts of the sizes measured among {@link EXPORT_TARGET_SIZES} (null when none was). */
export function exportVerdicts(rows: readonly ExportBenchRow[]): { ratioMet: boolean | null; rssMet: boolean | null } {
  const targeted = rows.filter((r) => EXPORT_TARGET_SIZES.includes(r.mappings));
  const largest = rows.find((r) => r.mappings === Math.max(...EXPORT_TARGET_SIZES));
  return {
    ratioMet: targeted.length > 0 ? targeted.every((r) => r.exportMs / r.fetchMs <= EXPORT_RATIO_TARGET) : null,
    rssMet: largest ? largest.exportRssMb < EXPORT_RSS_TARGET_MB : null,
  };
}

/** The export benchmark as printable lines. */
export function formatExportBench(rows: readonly ExportBenchRow[]): string[] {
  const lines = [
    'export against the emulator (one file per object), side by side with a bare client fetching the same lists; both fresh processes timed from outside (medians of 3 alternating runs after a warm-up; 1 run at 100,000)',
    `${'mappings'.padStart(9)} ${'objects'.padStart(8)} ${'fetch ms'.padStart(9)} ${'export ms'.padStart(10)} ${'ratio'.padStart(6)} ${'ms/object'.padStart(10)} ${'fetch cpu'.padStart(10)} ${'export cpu'.padStart(11)} ${'fetch RSS'.padStart(10)} ${'export RSS'.padStart(11)}`,
  ];
  for (const r of rows) {
    lines.push(
      `${String(r.mappings).padStart(9)} ${String(r.objects).padStart(8)} ${r.fetchMs.toFixed(0).padStart(9)} ${r.exportMs.toFixed(0).padStart(10)} ${(r.exportMs / r.fetchMs).toFixed(2).padStart(6)} ${(r.exportMs / r.objects).toFixed(3).padStart(10)} ${r.fetchCpuMs.toFixed(0).padStart(10)} ${r.exportCpuMs.toFixed(0).padStart(11)} ${r.fetchRssMb.toFixed(0).padStart(10)} ${r.exportRssMb.toFixed(0).padStart(11)}`,
    );
  }
  const v = exportVerdicts(rows);
  const word = (met: boolean | null, what: string): string => (met === null ? `n/a (${what} not measured)` : met ? 'pass' : 'FAIL');
  lines.push('ms/object: export wall time per exported object; cpu: CPU ms of the process (the emulator not included); RSS: peak resident memory of the process in MB, node itself included');
  lines.push(`target: export/fetch <= ${EXPORT_RATIO_TARGET} at ${EXPORT_TARGET_SIZES.join(' and ')} mappings: ${word(v.ratioMet, EXPORT_TARGET_SIZES.join('/'))}`);
  lines.push(`target: export peak RSS < ${EXPORT_RSS_TARGET_MB} MB at ${Math.max(...EXPORT_TARGET_SIZES)} mappings: ${word(v.rssMet, String(Math.max(...EXPORT_TARGET_SIZES)))} (run with --large)`);
  return lines;
}
