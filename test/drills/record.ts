/**
 * The results of a drill, for the generated reliability report (docs/reliability.md).
 *
 * A drill is a test under `test/drills/` that tries one reliability promise many times
 * (faults, races, signals, hostile gateways and input, convergence). In `npm test` it runs a
 * seeded sample; `npm run drills` runs the full matrix with `GWOPS_DRILLS=full`. When
 * `GWOPS_DRILLS_OUT` names a directory, each drill writes its figures there as
 * `<id>.json` (a {@link DrillResult}); the report generator turns every such file into
 * one table of docs/reliability.md, so a drill never edits the report itself.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** One drill's figures: one table of the report. */
export interface DrillResult {
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

/** `full` under `npm run drills`, else `sample` (the seeded subset that `npm test` runs). */
export function drillMode(): 'full' | 'sample' {
  return process.env.GWOPS_DRILLS === 'full' ? 'full' : 'sample';
}

/** The seed of a run: `GWOPS_DRILLS_SEED` when set (to repeat a failure), else `fallback`. */
export function drillSeed(fallback: number): number {
  const raw = process.env.GWOPS_DRILLS_SEED;
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isInteger(n) ? n : fallback;
}

/**
 * Writes `result` to `$GWOPS_DRILLS_OUT/<id>.json` when that variable is set; does nothing
 * otherwise. Returns the cells of `mustBeZero` columns that are not 0, as
 * `"<row label>: <column> = <n>"` lines, so the caller can fail the test on them.
 * @throws Error when `mustBeZero` names a column that `columns` lacks
 */
export function recordDrill(result: DrillResult): string[] {
  const zeroIndexes = result.mustBeZero.map((name) => {
    const index = result.columns.indexOf(name);
    if (index < 0) throw new Error(`drill ${result.id}: mustBeZero names an unknown column "${name}"`);
    return { name, index };
  });
  const violations: string[] = [];
  for (const row of result.rows) {
    for (const { name, index } of zeroIndexes) {
      const cell = row[index];
      if (cell !== 0) violations.push(`${String(row[0])}: ${name} = ${String(cell)}`);
    }
  }
  const dir = process.env.GWOPS_DRILLS_OUT;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${result.id}.json`), `${JSON.stringify(result, null, 2)}\n`);
  }
  return violations;
}
