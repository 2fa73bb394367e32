/**
 * The action of `gwops drift` (loaded only when it runs; the wiring is in reconcile.ts):
 * the drift report in the output format, and with `--adopt` the manifests brought in line
 * with the gateway (src/adopt/). Exit 2 when anything drifted (ignored differences do not
 * count), 0 otherwise.
 */
import { UsageError } from '../../../errors.js';
import { adoptDrift } from '../../../adopt/index.js';
import { prepareDrift, runDriftReport } from '../../../operations/drift.js';
import { EXIT } from '../../../exit-codes.js';
import type { CliIO } from '../../io.js';
import type { ProgressReporter } from '../../../engine/progress.js';
import type { CommonFlags } from './run.js';
import { runInput, shownWarnings } from './run.js';
import { driftView } from './drift-view.js';
import { adoptableReport } from '../../../engine/drift-base.js';
import { trimTrailing } from '../../../linear-text.js';

/** Flags of `gwops drift`. */
export interface DriftFlags extends CommonFlags {
  adopt?: boolean;
  adoptDeletions?: boolean;
  /** `any` (default): exit 2 for any difference; `gateway`: only for changes on the gateway since the last apply (drift-report.ts `gatewayDrifted`). */
  failOn?: 'any' | 'gateway';
}

/**
 * The target the run is for: `--target`, else the project's only target when no `--url` is
 * given (as the connection is resolved), else the target whose URL `--url` names.
 */
function currentTarget(targets: Readonly<Record<string, { readonly url: string }>>, flags: DriftFlags): string | undefined {
  if (flags.target !== undefined) return flags.target;
  const names = Object.keys(targets);
  const trimmed = (url: string): string => trimTrailing(url, '/');
  if (flags.url === undefined) return names.length === 1 ? names[0] : undefined;
  const url = trimmed(flags.url);
  return names.find((name) => trimmed(targets[name]?.url ?? '') === url);
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
  // Only the gateway's changes are adopted: a change in Git not applied yet, or a conflict, is never written over (drift-base.ts).
  const { report: adoptable, kept } = adoptableReport(run.report);
  if (flags.adopt && adoptable.drifted) {
    const manifestPaths = paths.length > 0 ? paths : run.prepared.loaded.project.manifests;
    const loaded = run.prepared.loaded;
    const result = await adoptDrift(
      {
        report: adoptable,
        desired: run.prepared.desired,
        live: run.live,
        cwd: io.cwd,
        adoptDeletions: flags.adoptDeletions === true,
        origins: (kind, name) => loaded.origins(kind, name),
        targets: loaded.project.targets,
        current: currentTarget(loaded.project.targets, flags),
      },
      manifestPaths,
      (run.added?.documents ?? []).filter((d) => adoptable.entries.some((e) => e.direction === 'added' && e.kind === d.kind && e.name === d.name)),
      run.added?.variables ?? [],
    );
    view.adopted(result, kept);
  } else if (flags.adopt && kept.length > 0) {
    view.adopted({ edited: [], created: [], removed: [], skipped: [], secretVariables: [] }, kept);
  }
  const drifted = flags.failOn === 'gateway' ? run.report.gatewayDrifted : run.report.drifted;
  return drifted ? EXIT.changes : EXIT.ok;
}
