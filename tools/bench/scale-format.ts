/**
 * The scale bench's results (tools/bench/scale.ts measures them): their types, the targets
 * and their verdicts, the table as text and as rows for docs/performance.md
 * (tools/bench/report-doc.ts), and its plot. Pure: numbers in, text out.
 */
import { textTable } from './apply-format.js';
import type { Series } from './svg.js';
import { chart, svgDocument } from './svg.js';

/** The commands measured at each size. */
export type ScaleCommand = 'plan-no-check' | 'plan-json' | 'drift' | 'export' | 'plan' | 'apply' | 'plan-all-new' | 'apply-all-new';
export const SCALE_COMMANDS: readonly ScaleCommand[] = ['plan-no-check', 'plan-json', 'drift', 'export', 'plan', 'apply', 'plan-all-new', 'apply-all-new'];

/** How each command is named in the table. */
export const SCALE_LABELS: Readonly<Record<ScaleCommand, string>> = {
  'plan-no-check': 'plan --no-server-check',
  'plan-json': 'plan --no-server-check --format json --out',
  drift: 'drift',
  export: 'export',
  plan: 'plan (server check)',
  apply: 'apply',
  'plan-all-new': 'plan (server check), all new',
  'apply-all-new': 'apply, all new',
};

/** What the bare client does beside each command. */
export const SCALE_BARE_WORK: Readonly<Record<ScaleCommand, string>> = {
  'plan-no-check': 'fetch + parse',
  'plan-json': 'fetch + parse',
  drift: 'fetch + parse',
  export: 'fetch + parse',
  plan: 'same calls',
  apply: 'same calls',
  'plan-all-new': 'same calls',
  'apply-all-new': 'same calls',
};

/** gwops's wall time may be at most this multiple of the bare client's, at each of the command's {@link SCALE_TARGET_SIZES}. */
export const SCALE_RATIO_TARGETS: Readonly<Record<ScaleCommand, number>> = {
  'plan-no-check': 1.2,
  'plan-json': 1.2,
  drift: 1.2,
  export: 1.5,
  plan: 1.1,
  apply: 1.1,
  'plan-all-new': 1.1,
  'apply-all-new': 1.1,
};
/** Every gwops process and the emulator stay under this peak RSS, at every size. */
export const SCALE_RSS_TARGET_MB = 1024;
/** The size the ratio targets are set for: 100,000 mappings, an ordinary day. */
export const SCALE_TARGET_SIZE = 100_000;
/**
 * The sizes each command's ratio target holds at: 100,000 mappings, and for the export
 * 10,000 as well (at 10,000 it once took ten times its fetch).
 */
export const SCALE_TARGET_SIZES: Readonly<Record<ScaleCommand, readonly number[]>> = {
  'plan-no-check': [SCALE_TARGET_SIZE],
  'plan-json': [SCALE_TARGET_SIZE],
  drift: [SCALE_TARGET_SIZE],
  export: [10_000, SCALE_TARGET_SIZE],
  plan: [SCALE_TARGET_SIZE],
  apply: [SCALE_TARGET_SIZE],
  'plan-all-new': [SCALE_TARGET_SIZE],
  'apply-all-new': [SCALE_TARGET_SIZE],
};

/** One side of a row (gwops or the bare client): medians over the runs, RSS the largest. */
export interface ScaleSide {
  /** From fork to exit, ms. */
  readonly wallMs: number;
  /** CPU time of the process, ms (the emulator's not included). */
  readonly cpuMs: number;
  /** Peak RSS of the process, MB (node itself included). */
  readonly rssMb: number;
  /** Requests the emulator handled during one run. */
  readonly requests: number;
  /** The wall time of each run, ms, in the order run (paired with the other side's runs of the same index). */
  readonly wallRunsMs: readonly number[];
}

/** One command at one size. */
export interface ScaleRow {
  /** The size measured: mappings on the gateway before the command (for the "all new" rows, the mappings it creates on a gateway holding none). */
  readonly size: number;
  /** Objects on the gateway (mappings, back-end groups, virtual hosts): the divisor of ms per object. */
  readonly objects: number;
  readonly command: ScaleCommand;
  /** Mappings changed (plan --no-server-check, drift) or new (the JSON plan, plan, apply) in the manifests; 0 for export. */
  readonly changes: number;
  readonly gwops: ScaleSide;
  readonly bare: ScaleSide;
  /** Peak RSS of the emulator process serving the command, MB. */
  readonly emulatorRssMb: number;
}

export interface ScaleBenchReport {
  readonly rows: readonly ScaleRow[];
  /** Back-end groups and virtual hosts the mappings are linked to. */
  readonly groups: number;
  readonly hosts: number;
  /** Seeding time per size (populate over HTTP, then the activation), ms. */
  readonly seeding: readonly { readonly size: number; readonly ms: number }[];
}

/** A row's ratio and verdicts. */
export interface ScaleVerdict {
  /** gwops's wall time / the bare client's. */
  readonly ratio: number;
  readonly target: number;
  readonly ratioMet: boolean;
  /** gwops's process and the emulator under {@link SCALE_RSS_TARGET_MB}. */
  readonly rssMet: boolean;
}

export function scaleVerdict(row: ScaleRow): ScaleVerdict {
  const ratio = row.gwops.wallMs / row.bare.wallMs;
  const target = SCALE_RATIO_TARGETS[row.command];
  return { ratio, target, ratioMet: ratio <= target, rssMet: row.gwops.rssMb < SCALE_RSS_TARGET_MB && row.emulatorRssMb < SCALE_RSS_TARGET_MB };
}

/**
 * Per command: the ratio target's verdict at its {@link SCALE_TARGET_SIZES} (null: one of
 * them not measured) and the RSS target's over every size measured (null: none).
 */
export function scaleSummary(rows: readonly ScaleRow[]): { command: ScaleCommand; ratioMet: boolean | null; rssMet: boolean | null }[] {
  return SCALE_COMMANDS.map((command) => {
    const own = rows.filter((r) => r.command === command);
    const sizes = SCALE_TARGET_SIZES[command];
    const atTarget = own.filter((r) => sizes.includes(r.size));
    return {
      command,
      ratioMet: sizes.every((size) => atTarget.some((r) => r.size === size)) ? atTarget.every((r) => scaleVerdict(r).ratioMet) : null,
      rssMet: own.length > 0 ? own.every((r) => scaleVerdict(r).rssMet) : null,
    };
  });
}

const n = (value: number): string => value.toLocaleString('en-US');
const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const perObject = (ms: number, objects: number): string => (ms / objects).toFixed(3);
const mb = (value: number): string => `${value.toFixed(0)} MB`;
const word = (met: boolean): string => (met ? 'pass' : 'FAIL');

export const SCALE_HEADER = [
  'mappings',
  'command',
  'changes',
  'gwops wall',
  'gwops ms/object',
  'bare client',
  'bare wall',
  'bare ms/object',
  'ratio',
  'ratio per run',
  'ratio <= target',
  'gwops RSS',
  'bare RSS',
  'emulator RSS',
  `RSS < ${n(SCALE_RSS_TARGET_MB)} MB`,
  'requests (gwops / bare)',
];

/**
 * The lowest and highest ratio of the runs paired by index (gwops's run over the bare
 * client's run just before it), `1.05-1.31x`: how far the machine's noise moved one run's ratio.
 */
export function runRatios(row: Pick<ScaleRow, 'gwops' | 'bare'>): string {
  const ratios = row.gwops.wallRunsMs.flatMap((ms, i) => {
    const bare = row.bare.wallRunsMs[i];
    return bare !== undefined && bare > 0 ? [ms / bare] : [];
  });
  if (ratios.length === 0) return 'n/a';
  return `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}x`;
}

/** The rows of the scale table, one per command and size. */
export function scaleRows(report: ScaleBenchReport): string[][] {
  return report.rows.map((r) => {
    const v = scaleVerdict(r);
    return [
      n(r.size),
      SCALE_LABELS[r.command],
      n(r.changes),
      seconds(r.gwops.wallMs),
      perObject(r.gwops.wallMs, r.objects),
      SCALE_BARE_WORK[r.command],
      seconds(r.bare.wallMs),
      perObject(r.bare.wallMs, r.objects),
      `${v.ratio.toFixed(2)}x`,
      runRatios(r),
      `${word(v.ratioMet)} (${v.target}x)`,
      mb(r.gwops.rssMb),
      mb(r.bare.rssMb),
      mb(r.emulatorRssMb),
      word(v.rssMet),
      `${n(r.gwops.requests)} / ${n(r.bare.requests)}`,
    ];
  });
}

/**
 * The verdict lines under the table; `verdict` words a met (true), missed (false) or
 * unmeasured (null) target.
 */
export function scaleTargetLines(report: ScaleBenchReport, verdict: (met: boolean | null) => string): string[] {
  return scaleSummary(report.rows).map(
    (s) =>
      `${SCALE_LABELS[s.command]}: at most ${SCALE_RATIO_TARGETS[s.command]}x the bare client (${SCALE_BARE_WORK[s.command]}) at ${SCALE_TARGET_SIZES[s.command].map(n).join(' and ')} mappings: ${verdict(s.ratioMet)}; ` +
      `gwops and the emulator under ${n(SCALE_RSS_TARGET_MB)} MB peak RSS: ${verdict(s.rssMet)}`,
  );
}

/** The scale bench as printable lines. */
export function formatScaleBench(report: ScaleBenchReport): string[] {
  return [
    `scale: each command against one emulator (child process) seeded to the size, mappings linked to ${report.groups} back-end groups and ${report.hosts} virtual hosts; gwops and the bare client side by side, each a fresh process timed from outside`,
    ...textTable(SCALE_HEADER, scaleRows(report)),
    'ms/object: wall time / objects on the gateway; RSS: peak resident memory in MB, node itself included; the emulator serves plan, drift, export and the server-checked plan in turn (its peak so far), each apply run and each run of the "all new" rows has its own',
    `seeding: ${report.seeding.map((s) => `${n(s.size)} mappings in ${seconds(s.ms)}`).join(', ')}`,
    ...scaleTargetLines(report, (met) => (met === null ? 'n/a (a size not measured)' : word(met))).map((line) => `target: ${line}`),
  ];
}

export const SCALE_SVG = 'performance-scale.svg';

const COMMAND_COLORS: Readonly<Record<ScaleCommand, string>> = {
  'plan-no-check': '#1f6feb',
  'plan-json': '#54aeff',
  drift: '#8250df',
  export: '#2da44e',
  plan: '#bf8700',
  apply: '#d1242f',
  'plan-all-new': '#fb8f44',
  'apply-all-new': '#8c959f',
};

/** docs/performance-scale.svg: ms per object (gwops solid, bare client dashed) and peak RSS against mappings, log scale on mappings. */
export function scaleSvg(report: ScaleBenchReport): string {
  const width = 1200;
  const height = 560;
  const half = width / 2;
  const of = (command: ScaleCommand): ScaleRow[] => report.rows.filter((r) => r.command === command).sort((a, b) => a.size - b.size);
  const time: Series[] = SCALE_COMMANDS.flatMap((c) => [
    { name: `gwops ${SCALE_LABELS[c]}`, color: COMMAND_COLORS[c], points: of(c).map((r) => ({ x: r.size, y: r.gwops.wallMs / r.objects })) },
    { name: `bare client (${SCALE_BARE_WORK[c]})`, color: COMMAND_COLORS[c], dashed: true, marker: 'square' as const, points: of(c).map((r) => ({ x: r.size, y: r.bare.wallMs / r.objects })) },
  ]);
  const sizes = [...new Set(report.rows.map((r) => r.size))].sort((a, b) => a - b);
  const emulatorPeak = (size: number): number => Math.max(...report.rows.filter((r) => r.size === size).map((r) => r.emulatorRssMb));
  const memory: Series[] = [
    ...SCALE_COMMANDS.map((c) => ({ name: `gwops ${SCALE_LABELS[c]}`, color: COMMAND_COLORS[c], points: of(c).map((r) => ({ x: r.size, y: r.gwops.rssMb })) })),
    { name: 'emulator (largest of the commands)', color: '#6e7781', marker: 'diamond', points: sizes.map((size) => ({ x: size, y: emulatorPeak(size) })) },
    { name: `target: under ${n(SCALE_RSS_TARGET_MB)} MB`, color: '#6e7781', dashed: true, points: sizes.map((size) => ({ x: size, y: SCALE_RSS_TARGET_MB })) },
  ];
  const title = 'Scale: time per object and peak RSS against mappings';
  return svgDocument(width, height, title, [
    chart({ title: 'wall time per object', xLabel: 'mappings (log)', yLabel: 'ms per object (log)', xLog: true, yLog: true, series: time, width: half, height }),
    chart({ title: 'peak RSS', xLabel: 'mappings (log)', yLabel: 'MB', xLog: true, series: memory, width: half, height }, half, 0),
  ]);
}
