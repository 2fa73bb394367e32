/**
 * The report of `npm run bench:emulator` (tools/bench/emulator.ts): its JSON shape
 * (`--json`, `formatVersion` 1) and its table rendering.
 */
import type { ScaleReport } from './emulator-scale.js';

/** One timed list call, repeated. */
export interface ListTiming {
  /** `filter` query value, or null for the unfiltered list. */
  readonly filter: string | null;
  /** Objects in the answer (checked against the expected count). */
  readonly matched: number;
  /** Median wall time of the runs, request sent to body fully received, in ms. */
  readonly medianMs: number;
  readonly runsMs: readonly number[];
}

export interface SizeResult {
  readonly mappings: number;
  readonly lists: readonly ListTiming[];
}

export interface MemoryFigures {
  readonly mappings: number;
  /** After a full garbage collection, when the runtime allows forcing one. */
  readonly gcForced: boolean;
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
  readonly heapUsedBeforeLoadBytes: number;
  readonly externalBytes: number;
}

/** In-process cost of the pure model parts over the same mappings (no HTTP). */
export interface ModelTiming {
  readonly mappings: number;
  /** Median ms of one `matchesFilter` pass over every mapping, per filter. */
  readonly filters: readonly { readonly filter: string; readonly matched: number; readonly medianMs: number }[];
  /** Median ms of one `validatorMessages` call over a content holding the mappings (unlinked: two messages each). */
  readonly validatorMs: number;
  readonly validatorMessages: number;
}

export interface BenchReport {
  readonly formatVersion: 1;
  readonly node: string;
  readonly variant: 'latest';
  /** `http` (default) or `https` (`--tls`). */
  readonly transport: 'http' | 'https';
  readonly creation: { readonly mappings: number; readonly seconds: number };
  readonly sizes: readonly SizeResult[];
  readonly memory: MemoryFigures | null;
  readonly model: ModelTiming | null;
  /** The emulator in a child process grown to each size (tools/bench/emulator-scale.ts); null when skipped. */
  readonly scale: ScaleReport | null;
  readonly targets: {
    readonly filteredListMs: number;
    readonly memoryBytes: number;
    /** Worst filtered median at the largest size, and whether it met the target. */
    readonly filteredListMet: boolean | null;
    readonly memoryMet: boolean | null;
    /** Handling time of a create at the largest scale size, ms, and whether it was met. */
    readonly createMs: number;
    readonly createMet: boolean | null;
    /** Whether the emulator child's peak RSS stayed under `memoryBytes` through the scale part. */
    readonly scaleMemoryMet: boolean | null;
  };
}

/** Median of a list of numbers (0 for an empty one). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const mb = (bytes: number): string =>
  bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : `${(bytes / 1024 ** 2).toFixed(0)} MB`;
const ms = (value: number): string => `${value.toFixed(1)} ms`;
const count = (n: number): string => n.toLocaleString('en-US');
const verdict = (met: boolean | null): string => (met === null ? 'n/a' : met ? 'met' : 'MISSED');

/** The slowest median among the filtered list calls of one size (NaN without any). */
export function slowestFilteredMs(size: SizeResult): number {
  const filtered = size.lists.filter((l) => l.filter !== null).map((l) => l.medianMs);
  return filtered.length > 0 ? Math.max(...filtered) : NaN;
}

/** The report as a readable table (one line per size, targets beside the figures). */
export function formatReport(report: BenchReport): string {
  const lines: string[] = [];
  lines.push(`gwops emulator benchmark (node ${report.node}, variant ${report.variant}, ${report.transport === 'https' ? 'HTTPS' : 'plain HTTP'}, emulator in-process)`);
  const rate = report.creation.seconds > 0 ? report.creation.mappings / report.creation.seconds : 0;
  lines.push(`created ${count(report.creation.mappings)} mappings over HTTP in ${report.creation.seconds.toFixed(1)} s (${count(Math.round(rate))}/s)`);
  lines.push('');
  const header = ['mappings', ...(report.sizes[0]?.lists ?? []).map((l) => (l.filter === null ? 'list (no filter)' : `filter ${l.filter}`))];
  const rows = report.sizes.map((s) => [count(s.mappings), ...s.lists.map((l) => `${ms(l.medianMs)} (${count(l.matched)})`)]);
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const fmt = (cells: readonly string[]): string => cells.map((cell, c) => cell.padStart(widths[c] ?? 0)).join('   ');
  lines.push(fmt(header));
  for (const row of rows) lines.push(fmt(row));
  lines.push('(median of several runs; objects returned in parentheses)');
  lines.push('');
  const largest = report.sizes[report.sizes.length - 1];
  const worst = largest ? slowestFilteredMs(largest) : NaN;
  lines.push(
    `target: filtered list of ${count(largest?.mappings ?? 0)} under ${report.targets.filteredListMs} ms: slowest filter ${ms(worst)}: ${verdict(report.targets.filteredListMet)}`,
  );
  if (report.memory) {
    const m = report.memory;
    lines.push(
      `target: memory under ${mb(report.targets.memoryBytes)} for ${count(m.mappings)} mappings: RSS ${mb(m.rssBytes)}, heap used ${mb(m.heapUsedBytes)} (${mb(m.heapUsedBytes - m.heapUsedBeforeLoadBytes)} more than before loading)${m.gcForced ? ', after a full GC' : ''}: ${verdict(report.targets.memoryMet)}`,
    );
  }
  if (report.model) {
    const m = report.model;
    lines.push('');
    lines.push(`model only, in-process over ${count(m.mappings)} stored mappings (no HTTP, no serialisation):`);
    for (const f of m.filters) lines.push(`  matchesFilter ${f.filter}: ${ms(f.medianMs)} (${count(f.matched)} matched)`);
    lines.push(`  validatorMessages: ${ms(m.validatorMs)} (${count(m.validatorMessages)} messages)`);
  }
  if (report.scale) formatScale(lines, report);
  return lines.join('\n');
}

/** The scale part's table and verdicts, appended to `lines`. */
function formatScale(lines: string[], report: BenchReport): void {
  const scale = report.scale;
  if (!scale) return;
  lines.push('');
  lines.push('scale: emulator in a child process on a state file, mappings linked in their create calls:');
  const header = ['mappings', 'create (emulator CPU)', 'create (handling)', 'create (wall)', 'list (no filter)', 'filter name==…', 'activate', 'delete (emulator CPU)', 'peak RSS'];
  const rows = scale.rows.map((r) => [
    count(r.mappings),
    `${r.createMs.toFixed(3)} ms`,
    `${r.createHandlingMs.toFixed(3)} ms`,
    `${r.createWallMs.toFixed(3)} ms`,
    `${ms(r.listMs)} (${mb(r.listBytes)})`,
    ms(r.filteredListMs),
    ms(r.activateMs),
    `${r.deleteMs.toFixed(3)} ms`,
    mb(r.peakRssBytes),
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const fmt = (cells: readonly string[]): string => cells.map((cell, c) => cell.padStart(widths[c] ?? 0)).join('   ');
  lines.push(fmt(header));
  for (const row of rows) lines.push(fmt(row));
  lines.push('(create: per call over the last creates before the size, sent one at a time; peak RSS: the emulator process since its start)');
  if (scale.transfer) {
    const t = scale.transfer;
    lines.push(
      `export and import of ${count(t.mappings)} mappings: export ${ms(t.exportMs)} (${mb(t.archiveBytes)} archive), import ${ms(t.importMs)}, filtered list after ${ms(t.filteredListMs)}, peak RSS ${mb(t.peakRssBytes)}`,
    );
  }
  if (scale.restart) {
    const r = scale.restart;
    lines.push(`restart on the state file of ${count(r.mappings)} mappings: listening after ${ms(r.startMs)}, filtered list ${ms(r.filteredListMs)}, peak RSS ${mb(r.peakRssBytes)}`);
  }
  const largest = scale.rows[scale.rows.length - 1];
  if (largest) {
    lines.push(
      `target: a create handled in at most ${report.targets.createMs} ms of emulator CPU at ${count(largest.mappings)}: ${largest.createMs.toFixed(3)} ms: ${verdict(report.targets.createMet)}`,
    );
  }
  lines.push(`target: emulator peak RSS under ${mb(report.targets.memoryBytes)} through the scale part: ${verdict(report.targets.scaleMemoryMet)}`);
}

