/**
 * The view of `gwops rollback`, chosen once from `--format` (text, markdown, json): the
 * preview of what activating the earlier configuration changes (plan's renderers), the
 * outcome, and the validator's messages when the gateway refuses it. With `json` stdout
 * holds only the preview's document; the outcome goes to stderr.
 */
import { ValidatorRejectedError } from '../../../engine/errors.js';
import { describeHistoryEntry } from '../../../operations/history.js';
import type { RollbackPreview, RollbackResult } from '../../../operations/rollback.js';
import { planMembers, renderMarkdown, renderText } from '../../../render/index.js';
import { jsonDocumentChunks } from '../../../render/json-chunks.js';
import { renderValidatorMessages } from '../../../render/run-report.js';
import { fenced } from '../../../render/markdown.js';
import { colorEnabled } from '../../color.js';
import { escapeInvisible } from '../../../core/display.js';
import type { CliIO, TextSink } from '../../io.js';
import { historyJson } from '../history/view.js';

/** Version of the document of `rollback --format json` (src/core/json-document.ts). */
export const ROLLBACK_FORMAT_VERSION = '1.0';

/** The view of `gwops rollback`. */
export interface RollbackView {
  /** What activating the target changes against the active configuration, before consent. */
  preview(preview: RollbackPreview): void;
  /** The outcome of the rollback. */
  done(result: RollbackResult): void;
  /** Prints what a failure carries (the validator's messages), then rethrows it. @throws `error`, always */
  failure(error: unknown): never;
}

/** The heading of the preview: which configuration replaces which, and within what. */
function heading(preview: RollbackPreview): string {
  const active = preview.active ? describeHistoryEntry(preview.active) : 'no configuration is marked active';
  return `Rollback to ${describeHistoryEntry(preview.target)}\nActive now: ${active}\n${scopeLines(preview).join('\n')}\n`;
}

/**
 * What the rollback changes besides the plan: in scope mode, that objects outside the
 * scope stay as they are; in whole mode, every change outside the scope, listed first.
 */
function scopeLines(preview: RollbackPreview): string[] {
  if (preview.mode === 'scope') {
    const left = preview.leftAlone === 0 ? '' : ` (${preview.leftAlone} object(s) that differ outside it are left as they are)`;
    return [`Within this project's ownership scope only${left}; --whole-configuration activates the configuration whole.`];
  }
  if (preview.outsideScope.length === 0) return ['The whole configuration (--whole-configuration): nothing changes outside this project\'s ownership scope.'];
  return [
    `The whole configuration (--whole-configuration) changes ${preview.outsideScope.length} object(s) OUTSIDE this project's ownership scope (other teams' objects, or kinds the scope does not claim):`,
    ...preview.outsideScope.map((step) => `  ${step.action} ${step.kind} ${JSON.stringify(step.name)}`),
  ];
}

/** A command as the user types it: arguments with spaces or quotes in single quotes. */
function commandLine(args: readonly string[]): string {
  return args.map((a) => (/^[\w./:=@^-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(' ');
}

/**
 * What to tell after the activation: the manifests now disagree with the gateway, and how
 * Git can agree (`result.revert`, src/engine/revert-advice.ts): the commits the rollback
 * undid, and the `git revert` of every one of them.
 */
export function afterRollback(result: Pick<RollbackResult, 'target' | 'revert'>): string {
  const lines = ['The manifests in Git were not changed: gwops drift now reports the gateway as drifted from Git.'];
  const advice = result.revert;
  const commands = (list: readonly (readonly string[])[]): string[] => list.map((c) => `  ${commandLine(c)}`);
  switch (advice?.kind) {
    case undefined:
    case 'unknown-target':
      lines.push(`To make Git agree, revert the commits applied after configuration ${result.target.id} (git revert <sha>, newest first); gwops drift then reports no drift.`);
      break;
    case 'nothing':
      lines.push(`Nothing to revert in Git: no commit of this project after ${advice.target} was applied, so the manifests at ${advice.target} are what the gateway now holds.`);
      break;
    case 'range':
    case 'list': {
      // Subjects come from the gateway's comments: escaped (src/core/display.ts).
      const applied = advice.applied.map((c) => `${c.sha}${c.subject === undefined ? '' : ` ${escapeInvisible(JSON.stringify(c.subject))}`}`);
      lines.push(`The rollback undid what was applied after ${advice.target}, oldest first: ${applied.join(', ')}.`);
      lines.push(
        advice.kind === 'range'
          ? `To make Git agree, revert every commit from ${advice.target} up to the newest of them (the manifests become ${advice.target}'s), then gwops drift reports no drift:`
          : `To make Git agree, revert each of them, newest first (Git here could not show them on one line of history: check with git log), then gwops drift reports no drift:`,
      );
      lines.push(...commands(advice.commands));
      break;
    }
  }
  return lines.join('\n') + '\n';
}

/** The scope lines in markdown: the first as a paragraph, the listed changes (object names from the gateway) in a fenced block. */
function markdownScope(lines: readonly string[]): string[] {
  const [first = '', ...rest] = lines;
  return rest.length === 0 ? [first] : [first, '', ...fenced('text', rest)];
}

/**
 * The outcome member of the JSON document: `result` (one of `RollbackOutcome`, or `failed`),
 * the configuration activated, or the error's one-line message.
 */
type JsonOutcome = Readonly<Record<string, string>>;

/** The preview in one format; the JSON document ends with `outcome` when given. */
function previewText(format: 'text' | 'markdown' | 'json', io: CliIO): (preview: RollbackPreview, outcome?: JsonOutcome) => Iterable<string> {
  switch (format) {
    case 'json':
      // In chunks (src/render/json-chunks.ts): the changes between two configurations may be the whole gateway.
      return (preview, outcome) =>
        jsonDocumentChunks(ROLLBACK_FORMAT_VERSION, {
          target: historyJson(preview.target),
          active: preview.active ? historyJson(preview.active) : null,
          comment: preview.comment,
          mode: preview.mode,
          outsideScope: preview.outsideScope.map((step) => ({ action: step.action, kind: step.kind, name: step.name })),
          leftAlone: preview.leftAlone,
          changes: planMembers(preview.plan),
          ...(outcome !== undefined ? { outcome } : {}),
        });
    case 'markdown':
      return (preview) => [
        `${markdownScope(scopeLines(preview)).join('\n')}\n\n`,
        renderMarkdown(preview.plan, { title: `gwops rollback preview: configuration ${preview.target.id}` }),
      ];
    case 'text':
      return (preview) => [
        `${heading(preview)}\n${renderText(preview.plan, {
          color: colorEnabled(io),
          heading: `Rollback preview: what activating configuration ${preview.target.id} would change in the active configuration (attributes that differ; server defaults, the same on both sides, left out):`,
        })}`,
      ];
  }
}

/**
 * The view of `gwops rollback` in `format`. With `json` stdout holds one document, written
 * once the run ends: the preview and its `outcome` (`result`: `activated` with the
 * `configuration`, `already-active`, `no-changes`, `cancelled`, or `failed` with the
 * `error`); a failure before the preview is known leaves the document to the CLI
 * (src/cli/exit.ts `failureDocument`). The human lines go to stderr, and so does the preview
 * as text when a terminal is asked for consent.
 * @param options.yes `--yes`: nobody is asked
 */
export function rollbackView(format: 'text' | 'markdown' | 'json', io: CliIO, options: { yes?: boolean | undefined } = {}): RollbackView {
  const render = previewText(format, io);
  // With --format json stdout holds only the JSON document: the outcome goes to stderr.
  const report: TextSink = format === 'json' ? io.stderr : io.stdout;
  let previewed: RollbackPreview | undefined;
  const write = (chunks: Iterable<string>): void => {
    for (const chunk of chunks) io.stdout.write(chunk);
  };
  return {
    preview(preview) {
      previewed = preview;
      if (format !== 'json') write(render(preview));
      else if (options.yes !== true && io.canPrompt === true) for (const chunk of previewText('text', io)(preview)) io.stderr.write(chunk);
    },
    done(result) {
      if (format === 'json') write(render(result, { result: result.outcome, ...(result.activation ? { configuration: result.activation.id } : {}) }));
      switch (result.outcome) {
        case 'already-active':
          io.stderr.write(`Configuration ${result.target.id} is already the active configuration; nothing to do.\n`);
          return;
        case 'no-changes':
          io.stderr.write(`Within this project's ownership scope, configuration ${result.target.id} and the active configuration are the same; nothing to do.\n`);
          return;
        case 'cancelled':
          io.stderr.write('Rollback cancelled.\n');
          return;
        case 'activated':
          report.write(`\nRollback complete: configuration ${result.activation?.id ?? ''} activated with comment "${result.comment}".\n`);
          report.write(afterRollback(result));
          return;
      }
    },
    failure(error) {
      if (error instanceof ValidatorRejectedError) io.stderr.write(renderValidatorMessages(error.diagnostics, { color: colorEnabled(io) }));
      if (format === 'json' && previewed !== undefined) write(render(previewed, { result: 'failed', error: error instanceof Error ? error.message : String(error) }));
      throw error;
    },
  };
}
