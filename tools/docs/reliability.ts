/**
 * docs/reliability.md: the figures of the reliability drills (`test/drills/`), one table
 * per drill, rendered from the JSON files the drills write (`DrillResult` of
 * test/drills/record.ts; this module reads any file of that shape, so a new drill appears
 * without a change here). `npm run drills` (tools/docs/drills.ts) runs the drills and then
 * this renderer.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { FILE_LIMITS, readTextBoundedAsync } from '#src/core/files.js';
import { cell, code, headingAnchor, table } from './markdown.js';

/** The command that writes docs/reliability.md, named in its header. */
export const DRILLS_COMMAND = 'npm run drills';

/** One drill's figures: one table of the report (test/drills/record.ts writes them as `<id>.json`). */
export interface DrillTable {
  /** File name and anchor, e.g. `faults-every-call` (lower case, digits, hyphens). */
  readonly id: string;
  /** The table's heading, e.g. `Every call, every fault`. */
  readonly title: string;
  /** One paragraph: what was tried and what counts as success. */
  readonly description: string;
  /** The seed the trials were drawn with (printed so a run can be repeated). */
  readonly seed: number;
  /** Column headings. */
  readonly columns: readonly string[];
  /** One row per case; cells are text or counts. */
  readonly rows: readonly (readonly (string | number)[])[];
  /**
   * Columns whose every figure must be 0 (corrupted activations, lost activations,
   * leaked secrets, crashes, hangs). The report marks a non-zero figure and the drill
   * fails on it.
   */
  readonly mustBeZero: readonly string[];
}

/** Where and how the drills ran, for the report's header. */
export interface DrillRun {
  /** ISO 8601 date of the run, e.g. `2026-11-23`. */
  readonly date: string;
  /** e.g. `2 × Intel(R) Xeon(R) CPU @ 2.20GHz, 7.8 GiB, linux 6.1` */
  readonly machine: string;
  /** e.g. `v20.19.4` */
  readonly node: string;
  /** How long the drills took, in seconds (undefined when only rendered). */
  readonly seconds?: number | undefined;
  /** `sample`: the figures are those of the seeded samples `npm test` runs (`npm run drills -- --sample`), not of the full matrix. */
  readonly matrix?: 'full' | 'sample' | undefined;
}

/**
 * The order of the drills in the report: these first, in this order, then any other id
 * alphabetically (a new drill needs no change here).
 */
export const DRILL_ORDER: readonly string[] = [
  'faults-every-call',
  'session-expiry',
  'races',
  'signals',
  'hostile-gateway',
  'hostile-input',
  'hostile-files',
  'secrets',
  'convergence',
  'convergence-coverage',
];

/** Sorts drills by {@link DRILL_ORDER}, then by id. */
export function sortDrills(drills: readonly DrillTable[]): DrillTable[] {
  const rank = (id: string): number => {
    const i = DRILL_ORDER.indexOf(id);
    return i < 0 ? DRILL_ORDER.length : i;
  };
  return [...drills].sort((a, b) => rank(a.id) - rank(b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The cells of `mustBeZero` columns that are not 0, as `"<drill>: <row label>: <column> = <n>"`. */
export function zeroViolations(drill: DrillTable): string[] {
  const out: string[] = [];
  for (const name of drill.mustBeZero) {
    const index = drill.columns.indexOf(name);
    for (const row of drill.rows) {
      const value = index < 0 ? undefined : row[index];
      if (value !== 0) out.push(`${drill.id}: ${String(row[0])}: ${name} = ${String(value)}`);
    }
  }
  return out;
}

function isCell(value: unknown): value is string | number {
  return typeof value === 'string' || typeof value === 'number';
}

/**
 * Checks that `value` (parsed JSON) has the shape of a {@link DrillTable}.
 * @throws Error naming `source` and the first problem
 */
export function asDrillTable(value: unknown, source: string): DrillTable {
  const fail = (what: string): never => {
    throw new Error(`${source}: not a drill result: ${what}`);
  };
  if (typeof value !== 'object' || value === null) return fail('not an object');
  const v = value as Record<string, unknown>;
  for (const key of ['id', 'title', 'description'] as const) if (typeof v[key] !== 'string') fail(`"${key}" must be a string`);
  if (typeof v.seed !== 'number') fail('"seed" must be a number');
  const strings = (key: string): readonly string[] => {
    const list = v[key];
    if (!Array.isArray(list) || !list.every((x): x is string => typeof x === 'string')) return fail(`"${key}" must be a list of strings`);
    return list;
  };
  const columns = strings('columns');
  const mustBeZero = strings('mustBeZero');
  const rows = v.rows;
  if (!Array.isArray(rows) || !rows.every((r): r is (string | number)[] => Array.isArray(r) && r.every(isCell))) return fail('"rows" must be a list of lists of strings and numbers');
  return { id: v.id as string, title: v.title as string, description: v.description as string, seed: v.seed as number, columns, mustBeZero, rows };
}

/** Every `*.json` drill result in `dir`, checked and sorted ({@link sortDrills}). */
export async function readDrillTables(dir: string): Promise<DrillTable[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  const drills: DrillTable[] = [];
  for (const file of files) drills.push(asDrillTable(JSON.parse(await readTextBoundedAsync(path.join(dir, file), FILE_LIMITS.bundled)) as unknown, file));
  return sortDrills(drills);
}

/** `n` with a mark when it breaks a must-be-zero column. */
function figure(value: string | number, mustBeZero: boolean): string {
  if (!mustBeZero) return cell(String(value));
  return value === 0 ? '0' : `**${cell(String(value))}** ✗`;
}

/**
 * docs/reliability.md for `drills`: a header naming the command, the date, the machine and
 * the Node version; a summary of the must-be-zero figures; then one section per drill
 * (in {@link sortDrills} order) with its description, seed and table, must-be-zero
 * columns marked "= 0 required" and non-zero figures in them flagged.
 */
export function reliabilityMarkdown(drills: readonly DrillTable[], run: DrillRun): string {
  const sorted = sortDrills(drills);
  const violations = sorted.flatMap(zeroViolations);
  const checked = sorted.reduce((n, d) => n + d.rows.length * d.mustBeZero.length, 0);
  const lines: string[] = [
    '<!-- Generated by `npm run drills` (tools/docs/drills.ts, tools/docs/reliability.ts): do not edit. -->',
    '# Reliability drills',
    '',
    `Written by ${code(run.matrix === 'sample' ? `${DRILLS_COMMAND} -- --sample` : DRILLS_COMMAND)} on ${run.date}, on ${run.machine}, with Node.js ${run.node}` +
      (run.seconds !== undefined ? ` (the drills took ${Math.round(run.seconds)} s).` : '.'),
    '',
    ...(run.matrix === 'sample'
      ? [
          '**These figures are those of the seeded samples that `npm test` runs, not of the full matrix**: the sizes in each table ' +
            'say how many trials ran. `npm run drills` (without `--sample`) runs the full matrix and replaces them.',
          '',
        ]
      : []),
    'Each drill (a test under `test/drills/`) tries one reliability promise many times against the emulator. ' +
      '`npm test` runs a seeded sample of each; `npm run drills` runs the full matrix (`GWOPS_DRILLS=full`) and writes ' +
      'this page from their results. Columns marked "= 0 required" count failures of a promise: any figure other than 0 ' +
      'fails the drill. To repeat a run, set `GWOPS_DRILLS_SEED` to the seed shown with its table.',
    '',
    violations.length === 0
      ? `**All ${checked} figures that must be 0 are 0.**`
      : `**${violations.length} of ${checked} figures that must be 0 are not:**\n\n${violations.map((v) => `- ${cell(v)}`).join('\n')}`,
    '',
    ...sorted.map((d) => `- [${cell(d.title)}](#${headingAnchor(cell(d.title))}) (${code(d.id)})`),
    '',
  ];
  for (const drill of sorted) {
    const zero = new Set(drill.mustBeZero);
    lines.push(
      `## ${cell(drill.title)}`,
      '',
      drill.description,
      '',
      `Seed ${drill.seed}, ${drill.rows.length} ${drill.rows.length === 1 ? 'row' : 'rows'}.`,
      '',
      table(
        drill.columns.map((c) => cell(zero.has(c) ? `${c} (= 0 required)` : c)),
        drill.rows.map((row) => drill.columns.map((c, i) => figure(row[i] ?? '', zero.has(c)))),
      ),
    );
  }
  return lines.join('\n');
}
