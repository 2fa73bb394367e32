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
import type { DrillTable } from '../../tools/docs/reliability.js';
import { zeroViolations } from '../../tools/docs/reliability.js';

/** One drill's figures: one table of the report (the shape the report generator reads). */
export type DrillResult = DrillTable;

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
 * `"<drill>: <row label>: <column> = <n>"` lines (the report's own check), so the caller can
 * fail the test on them.
 * @throws Error when `mustBeZero` names a column that `columns` lacks
 */
export function recordDrill(result: DrillResult): string[] {
  const unknown = result.mustBeZero.find((name) => !result.columns.includes(name));
  if (unknown !== undefined) throw new Error(`drill ${result.id}: mustBeZero names an unknown column "${unknown}"`);
  const dir = process.env.GWOPS_DRILLS_OUT;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${result.id}.json`), `${JSON.stringify(result, null, 2)}\n`);
  }
  return zeroViolations(result);
}
