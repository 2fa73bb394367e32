/**
 * The scale bench (tools/bench/scale.ts): that its bare client makes the very calls gwops
 * makes for the same apply and server-checked plan, and the pure pieces (targets and their
 * verdicts, the table, the plot, its section of docs/performance.md). Never timing
 * targets (CONTRIBUTING.md: speed targets are checked only by the benchmarks).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { populate, writeProject } from '../../tools/bench/apply-data.js';
import { runMinimumCalls } from '../../tools/bench/minimum-calls.js';
import { scaleSizes } from '../../tools/bench/scale.js';
import { machineInfo, performanceMarkdown } from '../../tools/bench/report-doc.js';
import type { ScaleBenchReport, ScaleCommand, ScaleRow } from '../../tools/bench/scale-format.js';
import {
  runRatios,
  SCALE_COMMANDS,
  SCALE_HEADER,
  SCALE_RSS_TARGET_MB,
  SCALE_SVG,
  formatScaleBench,
  scaleRows,
  scaleSummary,
  scaleSvg,
  scaleVerdict,
} from '../../tools/bench/scale-format.js';
import type { Shape } from '../../tools/bench/scenario.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { runCli } from '../support/in-process-cli.js';

describe('the bare client of the scale bench', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const done of cleanup.splice(0)) await done();
  });

  /** An emulator holding `existing` mappings of `shape`, its request log cleared. */
  async function seeded(shape: Shape, existing: number): Promise<RunningEmulator> {
    const emulator = await startEmulator({ port: 0, tls: false, variant: 'latest' });
    cleanup.push(() => emulator.close());
    await populate(emulator, { ...shape, mappings: existing });
    emulator.requestLog.length = 0;
    return emulator;
  }

  const calls = (emulator: RunningEmulator): string[] =>
    emulator.requestLog.map((e) => `${e.method} ${e.path.replace(/\/\d+(?=\/|$)/g, '/:id')}${e.query ? `?${e.query}` : ''}`).sort();

  it.each([
    ['apply', ['apply', '--yes', '-q']],
    ['plan', ['plan', '-q']],
  ] as const)('makes the calls of gwops %s for new mappings, one for one', async (command, args) => {
    const shape: Shape = { mappings: 10, groups: 2, hosts: 2, changeEvery: 0 };
    const existing = 6;
    const dir = await mkdtemp(path.join(tmpdir(), 'gwops-scale-test-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    await writeProject(dir, shape);

    const gwopsSide = await seeded(shape, existing);
    const result = await runCli([...args, '--url', gwopsSide.url], { GWOPS_API_KEY: gwopsSide.apiKey }, dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);

    const bareSide = await seeded(shape, existing);
    await runMinimumCalls(command, shape, existing, bareSide);

    expect(calls(bareSide)).toEqual(calls(gwopsSide));
    expect(calls(bareSide).filter((c) => c === 'POST /configuration/mappings')).toHaveLength(shape.mappings - existing);
    expect(calls(bareSide).includes('POST /configuration/configurations/activate')).toBe(command === 'apply');
  }, 30_000);
});

const side = (wallMs: number, rssMb = 200, requests = 7): ScaleRow['gwops'] => ({ wallMs, cpuMs: wallMs / 2, rssMb, requests, wallRunsMs: [wallMs * 0.9, wallMs, wallMs * 1.2] });

function row(size: number, command: ScaleCommand, gwopsMs: number, bareMs: number, emulatorRssMb = 300, gwopsRssMb = 200): ScaleRow {
  return { size, objects: size + 15, command, changes: size / 10, gwops: side(gwopsMs, gwopsRssMb), bare: side(bareMs, 90), emulatorRssMb };
}

const report: ScaleBenchReport = {
  groups: 10,
  hosts: 5,
  seeding: [
    { size: 1000, ms: 2000 },
    { size: 100_000, ms: 200_000 },
  ],
  rows: [
    ...SCALE_COMMANDS.map((c) => row(1000, c, 3000, 1000)),
    row(10_000, 'export', 1400, 1000),
    row(100_000, 'plan-no-check', 12_000, 10_000),
    row(100_000, 'plan-json', 11_000, 10_000),
    row(100_000, 'drift', 12_500, 10_000),
    row(100_000, 'export', 14_000, 10_000),
    row(100_000, 'plan', 20_000, 19_000, 1100),
    row(100_000, 'apply', 22_000, 19_000, 900, 1024),
    row(100_000, 'plan-all-new', 54_000, 50_000),
    row(100_000, 'apply-all-new', 60_000, 50_000),
  ],
};

describe('scale targets', () => {
  it('gives the lowest and highest ratio of the runs paired by index, n/a without a pair', () => {
    const at = (gwops: number[], bare: number[]): string => runRatios({ gwops: { ...side(0), wallRunsMs: gwops }, bare: { ...side(0), wallRunsMs: bare } });
    expect(at([10, 20, 30], [10, 10, 20])).toBe('1.00-2.00x');
    expect(at([12, 11], [10])).toBe('1.20-1.20x');
    expect(at([10], [0])).toBe('n/a');
    expect(at([], [])).toBe('n/a');
  });

  it('compares the wall times with the command\'s ratio target and both processes with the RSS target', () => {
    expect(scaleVerdict(row(100_000, 'plan-no-check', 12_000, 10_000))).toEqual({ ratio: 1.2, target: 1.2, ratioMet: true, rssMet: true });
    expect(scaleVerdict(row(100_000, 'drift', 12_500, 10_000)).ratioMet).toBe(false);
    expect(scaleVerdict(row(100_000, 'export', 15_000, 10_000)).ratioMet).toBe(true);
    expect(scaleVerdict(row(100_000, 'apply', 11_100, 10_000)).ratioMet).toBe(false);
    expect(scaleVerdict(row(1000, 'plan', 1000, 1000, SCALE_RSS_TARGET_MB)).rssMet).toBe(false);
    expect(scaleVerdict(row(1000, 'plan', 1000, 1000, 10, SCALE_RSS_TARGET_MB)).rssMet).toBe(false);
  });

  it('judges the ratios at 100,000 mappings only and the memory at every size', () => {
    expect(scaleSummary(report.rows)).toEqual([
      { command: 'plan-no-check', ratioMet: true, rssMet: true },
      { command: 'plan-json', ratioMet: true, rssMet: true },
      { command: 'drift', ratioMet: false, rssMet: true },
      { command: 'export', ratioMet: true, rssMet: true },
      { command: 'plan', ratioMet: true, rssMet: false },
      { command: 'apply', ratioMet: false, rssMet: false },
      { command: 'plan-all-new', ratioMet: true, rssMet: true },
      { command: 'apply-all-new', ratioMet: false, rssMet: true },
    ]);
    // the ratios of 3x at 1,000 mappings do not count: without 100,000 there is no verdict
    const small = scaleSummary(report.rows.filter((r) => r.size === 1000));
    expect(small.map((s) => s.ratioMet)).toEqual(SCALE_COMMANDS.map(() => null));
    expect(small.every((s) => s.rssMet === true)).toBe(true);
    expect(scaleSummary([]).every((s) => s.ratioMet === null && s.rssMet === null)).toBe(true);
  });

  it('judges the export at 10,000 mappings as well: both must pass, and without either there is no verdict', () => {
    const exportVerdict = (rows: readonly ScaleRow[]): boolean | null => scaleSummary(rows).find((s) => s.command === 'export')?.ratioMet ?? null;
    const others = report.rows.filter((r) => r.command !== 'export');
    expect(exportVerdict([...others, row(10_000, 'export', 1400, 1000), row(100_000, 'export', 14_000, 10_000)])).toBe(true);
    expect(exportVerdict([...others, row(10_000, 'export', 1600, 1000), row(100_000, 'export', 14_000, 10_000)])).toBe(false);
    expect(exportVerdict([...others, row(10_000, 'export', 1400, 1000), row(100_000, 'export', 16_000, 10_000)])).toBe(false);
    expect(exportVerdict([...others, row(100_000, 'export', 14_000, 10_000)])).toBeNull();
    expect(exportVerdict([...others, row(10_000, 'export', 1400, 1000)])).toBeNull();
    expect(formatScaleBench({ ...report, rows: [...others, row(10_000, 'export', 1600, 1000), row(100_000, 'export', 14_000, 10_000)] }).join('\n')).toContain(
      'target: export: at most 1.5x the bare client (fetch + parse) at 10,000 and 100,000 mappings: FAIL',
    );
  });
});

describe('scale sizes', () => {
  it('are the ladder, the quick ladder, or the sizes of --sizes=N,M, whose bad values are refused', () => {
    expect(scaleSizes(false)).toEqual([1000, 10_000, 100_000]);
    expect(scaleSizes(true)).toEqual([200, 1000]);
    expect(scaleSizes(false, '100000')).toEqual([100_000]);
    expect(scaleSizes(true, '50000, 1000')).toEqual([50_000, 1000]);
    for (const bad of ['', '0', '1e5', '10k', '100000,']) expect(() => scaleSizes(false, bad)).toThrow(/--sizes=/);
  });
});

describe('scale report', () => {
  it('prints one row per command and size, with ms per object, ratio and verdicts', () => {
    const rows = scaleRows(report);
    expect(rows).toHaveLength(2 * SCALE_COMMANDS.length + 1);
    expect(rows.every((r) => r.length === SCALE_HEADER.length)).toBe(true);
    expect(rows[SCALE_COMMANDS.length + 1]).toEqual([
      '100,000',
      'plan --no-server-check',
      '10,000',
      '12.00 s',
      '0.120',
      'fetch + parse',
      '10.00 s',
      '0.100',
      '1.20x',
      '1.20-1.20x',
      'pass (1.2x)',
      '200 MB',
      '90 MB',
      '300 MB',
      'pass',
      '7 / 7',
    ]);
    const text = formatScaleBench(report).join('\n');
    expect(text).toMatch(/^100,000\s+apply\s/m);
    expect(text).toContain('seeding: 1,000 mappings in 2.00 s, 100,000 mappings in 200.00 s');
    expect(text).toContain('target: drift: at most 1.2x the bare client (fetch + parse) at 100,000 mappings: FAIL');
    expect(text).toContain('target: apply: at most 1.1x the bare client (same calls) at 100,000 mappings: FAIL; gwops and the emulator under 1,024 MB peak RSS: FAIL');
  });

  it('draws ms per object and peak RSS against mappings on a log scale, with the RSS target', () => {
    const svg = scaleSvg(report);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg).toContain('mappings (log)');
    expect(svg).toContain('ms per object (log)');
    expect(svg).toContain('target: under 1,024 MB');
    for (const tick of ['>1,000<', '>10,000<', '>100,000<']) expect(svg).toContain(tick);
    // every command twice in the time chart (gwops and the bare client), once in the memory chart
    expect(svg.match(/<polyline /g)).toHaveLength(SCALE_COMMANDS.length * 3 + 2);
  });

  it('is one more section of docs/performance.md, after the others', () => {
    const base = { startedAt: '2025-01-02T03:04:05.000Z', command: 'npm run bench -- scale --write-docs', quick: false, machine: machineInfo(), validate: null, plan: null, apply: null };
    const md = performanceMarkdown({ ...base, scale: report });
    expect(md.indexOf('## Scale')).toBeGreaterThan(md.indexOf('## Apply at latency'));
    expect(md).toContain(`](${SCALE_SVG})`);
    expect(md).toContain('| 100,000 | apply | 10,000 | 22.00 s | 0.220 | same calls | 19.00 s | 0.190 | 1.16x | 1.16-1.16x | FAIL (1.1x) |');
    expect(md).toContain('- drift: at most 1.2x the bare client (fetch + parse) at 100,000 mappings: **FAIL**');
    expect(performanceMarkdown({ ...base, scale: null })).toMatch(/## Scale\n\nNot measured in this run\./);
  });
});
