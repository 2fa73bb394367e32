/**
 * The view of `gwops drift`, chosen once from `--format` (text, markdown, json): the drift
 * report on stdout, expired `drift.ignore` entries and what `--adopt` wrote on stderr, and
 * a failed run as plan's view shows it (plan-view.ts).
 */
import type { AdoptResult } from '../../../adopt/index.js';
import { escapeInvisible } from '../../../core/display.js';
import { expiredWarning } from '../../../manifest/drift-ignore.js';
import type { DriftRun } from '../../../operations/drift.js';
import { driftBaseLine, renderDriftJson, renderDriftMarkdown, renderDriftText } from '../../../render/drift.js';
import type { DriftEntry } from '../../../engine/drift-report.js';
import { driftTopology } from '../../../render/index.js';
import { colorEnabled } from '../../color.js';
import type { CliIO } from '../../io.js';
import type { Format, RunView } from './plan-view.js';
import { planView } from './plan-view.js';

/** The view of `gwops drift`. */
export interface DriftView extends RunView {
  /** The drift report (after the warnings for expired `drift.ignore` entries on stderr). */
  report(run: DriftRun): void;
  /** What `--adopt` wrote into the manifest files, and the differences it kept out (Git's and conflicts), on stderr. */
  adopted(result: AdoptResult, kept?: readonly DriftEntry[]): void;
}

/** The lines of the differences `--adopt` kept out: conflicts, and changes in Git not applied yet. */
function keptLines(kept: readonly DriftEntry[]): string {
  const lines: string[] = [];
  const conflicts = kept.filter((e) => e.side === 'both');
  const git = kept.filter((e) => e.side === 'git');
  const what = (e: DriftEntry): string => `${e.kind} '${e.name}'${e.path !== undefined ? ` ${e.path}` : ''} (${e.direction})${e.source ? ` at ${e.source.file}:${e.source.line}` : ''}`;
  if (conflicts.length > 0) {
    lines.push(`Conflicts, not adopted (changed both in Git and on the gateway since the last apply; resolve them by hand):`);
    for (const e of conflicts) lines.push(`  ${what(e)}`);
  }
  if (git.length > 0) {
    lines.push(`Kept as Git has them (changed in Git, not applied yet; the next apply applies them):`);
    for (const e of git) lines.push(`  ${what(e)}`);
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** The lines of what `--adopt` did: the files edited, created and removed, what was not adopted, and the secrets the new files read. */
function adoptionLines(result: AdoptResult): string {
  const lines: string[] = [];
  const n = result.edited.length + result.created.length + result.removed.length;
  lines.push(n === 0 ? 'Adopted nothing: no manifest file needed a change.' : `Adopted the gateway's state into ${n} manifest file${n === 1 ? '' : 's'}:`);
  // File and object names escaped (src/core/display.ts): each stays on its line whatever the colour mode.
  for (const f of result.edited) lines.push(`  edited   ${escapeInvisible(f)}`);
  for (const f of result.created) lines.push(`  created  ${escapeInvisible(f)}`);
  for (const f of result.removed) lines.push(`  removed  ${escapeInvisible(f)}`);
  if (result.skipped.length > 0) {
    lines.push('Not adopted:');
    for (const s of result.skipped) lines.push(`  ${escapeInvisible(s)}`);
  }
  if (result.secretVariables.length > 0) lines.push(`The new files read secrets from: ${result.secretVariables.join(', ')} (set them before the next plan).`);
  return `${lines.join('\n')}\n`;
}

/** The report in one format. */
function reportText(format: Format, io: CliIO, fullCertificates: boolean): (run: DriftRun) => string {
  switch (format) {
    case 'text':
      return (run) => renderDriftText(run.report, { color: colorEnabled(io), fullCertificates });
    case 'markdown':
      return (run) => renderDriftMarkdown(run.report, { topology: driftTopology(run.report, run.prepared.desired, run.live), fullCertificates });
    case 'json':
      return (run) => renderDriftJson(run.report);
  }
}

/** The view of `gwops drift` in `format`. */
export function driftView(format: Format, io: CliIO, options: { verbose?: boolean | undefined } = {}): DriftView {
  const failure = planView(format, io, options);
  const render = reportText(format, io, options.verbose === true);
  return {
    failure: (error, warnings) => failure.failure(error, warnings),
    report(run) {
      for (const entry of run.report.expiredIgnores) io.stderr.write(`warning: ${expiredWarning(entry)}\n`);
      if (run.report.baseUnavailable !== undefined) io.stderr.write(`note: ${driftBaseLine(run.report)}\n`);
      io.stdout.write(render(run));
    },
    adopted: (result, kept = []) => void io.stderr.write(`\n${keptLines(kept)}${adoptionLines(result)}`),
  };
}
