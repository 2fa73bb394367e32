/**
 * `gwops rollback <configuration-id | commit-sha-prefix>`: shows what activating an
 * earlier configuration would change against the active one (plan's renderers), asks for
 * consent as apply does, and activates it with the comment
 * `gwops rollback: to configuration <id> (<sha7> <subject>)`. The manifests are not
 * touched, so the output says how to make Git agree.
 */
import { commitOf, describeHistoryEntry } from '../../operations/history.js';
import { ValidatorRejectedError } from '../../engine/errors.js';
import type { RollbackPreview, RollbackResult } from '../../operations/rollback.js';
import { runRollback } from '../../operations/rollback.js';
import { renderJson, renderMarkdown, renderText } from '../../render/index.js';
import { renderValidatorMessages } from '../../render/run-report.js';
import { consent } from '../consent.js';
import { EXIT } from '../../exit-codes.js';
import { colorEnabled } from '../color.js';
import type { CliIO } from '../io.js';
import type { ConnectionFlags } from '../connection-flags.js';
import { gatewayInput } from '../connection-flags.js';
import { historyJson } from './history-run.js';

/** Flags of `gwops rollback`. */
export interface RollbackFlags extends ConnectionFlags {
  yes?: boolean;
  format: 'text' | 'markdown' | 'json';
}

/** The heading of the preview: which configuration replaces which. */
function heading(preview: RollbackPreview): string {
  const active = preview.active ? describeHistoryEntry(preview.active) : 'no configuration is marked active';
  return `Rollback to ${describeHistoryEntry(preview.target)}\nActive now: ${active}\n`;
}

/** The preview in the output format. */
function renderPreview(preview: RollbackPreview, format: RollbackFlags['format'], io: CliIO): string {
  switch (format) {
    case 'json':
      return (
        JSON.stringify(
          {
            target: historyJson(preview.target),
            active: preview.active ? historyJson(preview.active) : null,
            comment: preview.comment,
            changes: JSON.parse(renderJson(preview.plan)) as unknown,
          },
          null,
          2,
        ) + '\n'
      );
    case 'markdown':
      return renderMarkdown(preview.plan, { title: `gwops rollback to configuration ${preview.target.id}` });
    case 'text':
      return `${heading(preview)}\nActivating it would make these changes to the active configuration:\n\n${renderText(preview.plan, { color: colorEnabled(io) })}`;
  }
}

/** What to tell after the activation: the manifests now disagree with the gateway, and how Git can agree. */
export function afterRollback(result: Pick<RollbackResult, 'target' | 'active'>): string {
  const target = commitOf(result.target)?.sha;
  // Only a configuration `gwops apply` activated names the commit that Git is at now.
  const active = result.active?.apply?.sha;
  const lines = ['The manifests in Git were not changed: gwops drift now reports the gateway as drifted from Git.'];
  if (target !== undefined && active !== undefined && active !== target) {
    lines.push(
      `To make Git agree, revert what was applied after ${target}: git revert ${active}` +
        ` (or, for several commits, git revert --no-edit ${target}..${active}); gwops drift then reports no drift.`,
    );
  } else if (target !== undefined) {
    lines.push(`To make Git agree, revert the commits after ${target} (git revert <sha>, newest first); gwops drift then reports no drift.`);
  } else {
    lines.push(`To make Git agree, revert the commits applied after configuration ${result.target.id} (git revert <sha>); gwops drift then reports no drift.`);
  }
  return lines.join('\n') + '\n';
}

/** `gwops rollback`. @returns the exit code */
export async function rollbackAction(ref: string, flags: RollbackFlags, io: CliIO): Promise<number> {
  const color = colorEnabled(io);
  const result = await runRollback({
    ...gatewayInput(flags, io),
    ref,
    onPreview: (preview) => void io.stdout.write(renderPreview(preview, flags.format, io)),
    confirm: (_preview, signal) =>
      consent(io, flags.yes, '\nDo you want to activate this configuration? Only "yes" is accepted: ', signal, 're-run with --yes to roll back'),
  }).catch((error: unknown) => {
    if (error instanceof ValidatorRejectedError) io.stderr.write(renderValidatorMessages(error.diagnostics, { color }));
    throw error;
  });
  // With --format json stdout holds only the JSON document: the outcome goes to stderr.
  const report = flags.format === 'json' ? io.stderr : io.stdout;
  switch (result.outcome) {
    case 'already-active':
      io.stderr.write(`Configuration ${result.target.id} is already the active configuration; nothing to do.\n`);
      return EXIT.ok;
    case 'cancelled':
      io.stderr.write('Rollback cancelled.\n');
      return EXIT.error;
    case 'activated':
      report.write(`\nRollback complete: configuration ${result.activation?.id ?? ''} activated with comment "${result.comment}".\n`);
      report.write(afterRollback(result));
      return EXIT.ok;
  }
}
