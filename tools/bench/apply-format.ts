/**
 * The apply-at-latency bench's report as text and table rows (tools/bench/apply.ts measures;
 * tools/bench/report-doc.ts writes the rows into docs/performance.md).
 */
import type { ApplyBenchReport, ScenarioResult } from './apply.js';
import { APPLY_RSS_TARGET_MB, FLOOR_FACTOR_TARGET } from './apply.js';

const n = (value: number): string => value.toLocaleString('en-US');
const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const verdict = (met: boolean): string => (met ? 'pass' : 'FAIL');

/** A scenario's label, e.g. `2,000 new` or `2,000 of 20,000 changed`. */
export function scenarioLabel(s: ScenarioResult): string {
  return s.scenario === 'new' ? `${n(s.shape.mappings)} new` : `${n(s.changes)} of ${n(s.shape.mappings)} changed`;
}

/** The rows of the apply table: one per gwops run. */
export function applyRows(report: ApplyBenchReport): string[][] {
  const rows: string[][] = [];
  for (const s of report.scenarios) {
    for (const [command, r] of [['apply', s.apply], ['plan', s.plan]] as const) {
      if (!r) continue;
      rows.push([
        scenarioLabel(s),
        command,
        n(r.requests),
        `${n(r.minimum.total)} (${n(r.minimum.objects)} + ${n(r.minimum.linkGroups)} + ${n(r.minimum.session)})`,
        `${(r.requests / r.minimum.total).toFixed(2)}x`,
        seconds(r.wallMs),
        seconds(r.emulatorMs),
        `${r.roundTripMs.toFixed(2)} ms`,
        seconds(r.listsMs),
        seconds(r.floorMs),
        `${r.floorRatio.toFixed(2)}x`,
        seconds(r.nominalFloorMs),
        `${(r.wallMs / r.nominalFloorMs).toFixed(2)}x`,
        r.rssMb === null ? 'n/a' : `${r.rssMb.toFixed(0)} MB`,
        verdict(r.requestsMet),
        verdict(r.timeMet),
      ]);
    }
  }
  return rows;
}

export const APPLY_HEADER = [
  'scenario',
  'command',
  'requests',
  'minimum (objects + link groups + session)',
  'req/min',
  'wall',
  'emulator',
  'round trip',
  'lists',
  'floor',
  '(wall - emulator) / floor',
  'nominal floor',
  'wall / nominal floor',
  'peak RSS',
  'requests = min',
  `(wall - emulator) <= ${FLOOR_FACTOR_TARGET}x floor`,
];

/** The rows of the baseline table: one per scenario. */
export function baselineRows(report: ApplyBenchReport): string[][] {
  return report.scenarios.map((s) => [
    scenarioLabel(s),
    n(s.baseline.requests),
    n(s.apply.requests),
    `${(s.baseline.requests / s.apply.requests).toFixed(2)}x`,
    seconds(s.baseline.wallMs),
    seconds(s.apply.wallMs),
    `${(s.baseline.wallMs / s.apply.wallMs).toFixed(2)}x`,
  ]);
}

export const BASELINE_HEADER = ['scenario', 'baseline requests', 'gwops requests', 'requests ratio', 'baseline wall', 'gwops wall', 'time ratio'];

/** Plain-text table, columns right-aligned except the first. */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const fmt = (cells: readonly string[]): string => cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ');
  return [fmt(header), ...rows.map(fmt)];
}

/** The report as printable lines. */
export function formatApplyBench(report: ApplyBenchReport): string[] {
  const groups = report.scenarios[0]?.shape;
  return [
    `apply at ${report.latencyMs} ms latency per call (emulator in a child process; mappings linked to ${groups?.groups ?? 0} back-end groups and ${groups?.hosts ?? 0} virtual hosts; gwops ${report.runner === 'child' ? 'in a process of its own per run' : 'in this process'})`,
    ...textTable(APPLY_HEADER, applyRows(report)),
    `floor = the lists' time + the other minimum requests x the round trip, both as a bare client measured them just before the run; nominal floor = minimum requests x ${report.latencyMs} ms;`,
    'emulator = its processing time beyond the latency (a gateway\'s work, not gwops\'s); plan = gwops plan with the server check (executed in a throw-away session)',
    `target: peak RSS under ${APPLY_RSS_TARGET_MB} MB at the largest size: ${report.rssMet === null ? 'n/a' : verdict(report.rssMet)}`,
    '',
    'baseline: a hand-written script through GatewaySession (GET by name before each change, one link per call), same apply',
    ...textTable(BASELINE_HEADER, baselineRows(report)),
  ];
}
