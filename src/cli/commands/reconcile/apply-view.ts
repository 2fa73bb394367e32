/**
 * The view of `gwops apply`, chosen once from `--format`: text and markdown print the plan
 * when it is known and then the outcome; `json` prints one document at the end (the plan,
 * every diagnostic and the `outcome`), also when the run fails after planning.
 */
import type { Diagnostic } from '../../../core/diagnostics.js';
import { ApplyFailedError } from '../../../engine/errors.js';
import { isDiagnosticsError } from '../../../core/errors.js';
import type { State } from '../../../engine/model.js';
import type { Plan } from '../../../engine/plan-types.js';
import type { ApplyResult } from '../../../operations/apply.js';
import { renderApplyJsonChunks, renderText, renderTextLines } from '../../../render/index.js';
import type { Backlog } from '../../../operations/steps/execute.js';
import { writingBacklog } from '../../backlog.js';
import { renderExecutionReport, renderValidatorMessages } from '../../../render/run-report.js';
import { colorEnabled } from '../../color.js';
import type { CliIO } from '../../io.js';
import type { Format, RunView } from './plan-view.js';
import { planView } from './plan-view.js';
import { runFailure } from '../../exit.js';

/** The view of `gwops apply`. */
export interface ApplyView extends RunView {
  /**
   * The plan, once made and before consent is asked. Returns what it has yet to print
   * when it may be printed while the plan is applied (src/cli/backlog.ts): text with
   * `--yes` to a stdout that is no terminal.
   */
  planned(plan: Plan, states: { readonly desired: State; readonly live: State }, warnings: readonly Diagnostic[]): Backlog | undefined;
  /**
   * What the apply did: the validator's `messages` (the diagnostics the apply returned;
   * text, markdown) or the document (json, with the manifests' `warnings` first), and the outcome.
   */
  applied(result: ApplyResult, messages: readonly Diagnostic[], warnings: readonly Diagnostic[]): void;
}

/** The line that reports an activation. */
function completeLine(result: ApplyResult): string {
  return `\nApply complete: configuration ${result.activation?.id ?? ''} activated with comment "${result.comment ?? ''}".\n`;
}

/** The outcome lines every format shares: a cancelled apply says so on stderr. */
function cancelled(result: ApplyResult, io: CliIO): void {
  if (result.outcome === 'cancelled') io.stderr.write('Apply cancelled.\n');
}

/**
 * Text and markdown: the plan on stdout, then the validator's messages and the outcome, as
 * the report of the apply. With `--yes` (nobody to ask) and a stdout that is no terminal
 * (a file, a pipe: nobody watches it line by line), the text of the plan is written while
 * the calls wait for their answers, and what is left once they are done.
 */
function humanApplyView(format: 'text' | 'markdown', io: CliIO, options: ApplyViewOptions): ApplyView {
  const verbose = options.verbose === true;
  const plan = planView(format, io, { verbose });
  return {
    failure: (error, warnings) => plan.failure(error, warnings),
    planned(planned, states, warnings) {
      if (format === 'text' && options.yes === true && !io.isTTY) return writingBacklog(renderTextLines(planned, { color: colorEnabled(io), fullCertificates: verbose }), io.stdout);
      plan.plan(planned, { warnings, states });
      return undefined;
    },
    applied(result, messages) {
      // After the plan: the validator's messages.
      if (messages.length > 0) io.stdout.write(renderValidatorMessages(messages, { color: colorEnabled(io) }));
      if (result.outcome === 'activated') io.stdout.write(completeLine(result));
      cancelled(result, io);
    },
  };
}

/**
 * `json`: one document on stdout at the end. The person asked on a terminal sees what they
 * approve, as text on stderr; the outcome line goes to stderr too.
 */
function jsonApplyView(io: CliIO, options: ApplyViewOptions): ApplyView {
  const plan = planView('json', io, options);
  let known: Plan | undefined;
  return {
    planned(planned) {
      known = planned;
      if (options.yes !== true && io.canPrompt === true && planned.steps.length > 0) io.stderr.write(renderText(planned, { color: colorEnabled(io), fullCertificates: options.verbose === true }));
      return undefined;
    },
    applied(result, messages, warnings) {
      const outcome = {
        result: result.outcome,
        ...(result.activation ? { configuration: result.activation.id } : {}),
        ...(result.comment !== undefined ? { comment: result.comment } : {}),
      };
      for (const chunk of renderApplyJsonChunks(result.plan, [...warnings, ...messages], outcome)) io.stdout.write(chunk);
      if (result.outcome === 'activated') io.stderr.write(completeLine(result));
      cancelled(result, io);
    },
    failure(error, warnings) {
      // Before the plan is known, the document of a failed plan.
      if (known === undefined) return plan.failure(error, warnings);
      if (error instanceof ApplyFailedError) io.stderr.write(renderExecutionReport(error.plan, error.report, { verbose: options.verbose === true }));
      const carried = isDiagnosticsError(error) ? error.diagnostics : error instanceof ApplyFailedError ? (error.failure ? [error.failure] : []) : [runFailure(error)];
      const outcome = { result: 'failed', error: error instanceof Error ? error.message : String(error) };
      for (const chunk of renderApplyJsonChunks(known, [...warnings, ...carried], outcome)) io.stdout.write(chunk);
      throw error;
    },
  };
}

/** Options of {@link applyView}. */
export interface ApplyViewOptions {
  /** A failed step lists every step with its status (else the counts). */
  readonly verbose?: boolean | undefined;
  /** `--yes`: nobody is asked, so json shows no plan on stderr. */
  readonly yes?: boolean | undefined;
}

/** The view of `gwops apply` in `format`. */
export function applyView(format: Format, io: CliIO, options: ApplyViewOptions = {}): ApplyView {
  switch (format) {
    case 'text':
    case 'markdown':
      return humanApplyView(format, io, options);
    case 'json':
      return jsonApplyView(io, options);
  }
}
