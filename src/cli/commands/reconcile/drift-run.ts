/**
 * The action of `gwops drift` (loaded only when it runs; the wiring is in command.ts):
 * the drift report in the output format, and with `--adopt` the manifests brought in line
 * with the gateway (src/operations/drift.ts `adoptDriftRun`). Exit 2 when anything drifted (ignored differences do not
 * count), 0 otherwise.
 */
import { UsageError } from '../../../core/errors.js';
import { adoptDriftRun, prepareDrift, runDriftReport } from '../../../operations/drift.js';
import { EXIT } from '../../../core/exit-codes.js';
import type { CliIO } from '../../io.js';
import type { ProgressReporter } from '../../../engine/progress.js';
import type { CommonFlags } from './run.js';
import { runInput, shownWarnings } from './run.js';
import { driftView } from './drift-view.js';

/** Flags of `gwops drift`. */
export interface DriftFlags extends CommonFlags {
  adopt?: boolean;
  adoptDeletions?: boolean;
  /** `any` (default): exit 2 for any difference; `gateway`: only for changes on the gateway since the last apply (drift-report.ts `gatewayDrifted`). */
  failOn?: 'any' | 'gateway';
}

/** `gwops drift`. @returns the exit code */
export async function driftAction(paths: string[], flags: DriftFlags, io: CliIO, progress?: ProgressReporter): Promise<number> {
  if (flags.prune) throw new UsageError('drift never changes the gateway; --prune belongs to plan and apply');
  if (flags.adoptDeletions && !flags.adopt) throw new UsageError('--adopt-deletions works with --adopt; add --adopt');
  const now = io.now?.() ?? new Date();
  // Only --adopt asks where each object is declared (LoadResult.origins).
  const input = { ...runInput(paths, flags, io, progress), keepOrigins: flags.adopt === true };
  const view = driftView(flags.format, io, { verbose: flags.verbose });
  const prepared = await prepareDrift(input).catch((e: unknown) => view.failure(e, []));
  const warnings = shownWarnings(prepared.diagnostics, io);
  const run = await runDriftReport(input, prepared.result, now, { adoptAdded: flags.adopt === true }).catch((e: unknown) => view.failure(e, warnings));
  view.report(run);
  if (flags.adopt === true) {
    const adopted = await adoptDriftRun(run, { paths, cwd: io.cwd, adoptDeletions: flags.adoptDeletions === true, target: flags.target, url: flags.url });
    if (adopted) view.adopted(adopted.result, adopted.kept);
  }
  const drifted = flags.failOn === 'gateway' ? run.report.gatewayDrifted : run.report.drifted;
  return drifted ? EXIT.changes : EXIT.ok;
}
