/**
 * Reports of a run that are not the plan itself: validator messages, the outcome of an
 * apply that failed (the drift report is drift.ts). Each is a function of data returning a string.
 */
import { createColors } from 'picocolors';
import type { Diagnostic } from '../core/diagnostics.js';
import { formatDiagnostics } from '../core/diagnostics-format.js';
import type { ExecutionReport } from '../engine/plan-types.js';
import type { Plan } from '../engine/plan-types.js';

/**
 * The gateway validator's messages (diagnostics, src/operations/steps/pipeline.ts `locateMessages`)
 * under a heading, in the text format of every diagnostic (`formatDiagnostics`): one line
 * each, `file:line:col: severity: message [CODE]`, then the counts.
 */
export function renderValidatorMessages(messages: readonly Diagnostic[], options: { color: boolean }): string {
  if (messages.length === 0) return '';
  const c = createColors(options.color);
  return `\n${c.bold('Gateway validator messages:')}\n${formatDiagnostics(messages, 'text', { color: options.color })}`;
}

/**
 * Whether a plan went through the server check (`gwops plan` executes it in a session that
 * is then discarded and reads the gateway validator's messages; README.md "Commands"):
 * `checked`; `skipped` with `--no-server-check`; `not-needed` for a plan that changes nothing.
 */
export type ServerCheck = 'checked' | 'skipped' | 'not-needed';

/**
 * What came of a plan's server check, as `plan --format json` says it in `serverCheck`:
 * `passed` (checked, no message), `passed-with-messages` (warnings or notes, no error),
 * `failed` (an error: apply would not activate), `skipped`, `not-needed`.
 */
export type ServerCheckOutcome = 'passed' | 'passed-with-messages' | 'failed' | 'skipped' | 'not-needed';

/** The outcome of a server check from whether it ran and the validator's messages. */
export function serverCheckOutcome(check: ServerCheck, messages: readonly Diagnostic[]): ServerCheckOutcome {
  if (check !== 'checked') return check;
  if (messages.some((m) => m.severity === 'error')) return 'failed';
  return messages.length > 0 ? 'passed-with-messages' : 'passed';
}

const count = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * One sentence on the server check of a plan, for the text and markdown plans: that the
 * gateway's validator found nothing, what it found, or that it was not asked.
 */
export function serverCheckSentence(check: ServerCheck, messages: readonly Diagnostic[]): string {
  const errors = messages.filter((m) => m.severity === 'error').length;
  switch (serverCheckOutcome(check, messages)) {
    case 'passed':
      return "Server check: the gateway's validator checked this plan (in a session that was then discarded) and reported no messages.";
    case 'passed-with-messages':
      return `Server check: the gateway's validator checked this plan and reported ${count(messages.length, 'message')}, none an error.`;
    case 'failed':
      return `Server check: the gateway's validator checked this plan and reported ${count(errors, 'error')} (of ${count(messages.length, 'message')}): apply would not activate it.`;
    case 'skipped':
      return "Server check: skipped (--no-server-check): the gateway's validator has not checked this plan.";
    case 'not-needed':
      return 'Server check: not needed, the plan changes nothing.';
  }
}

/** `create mapping 'x'`, or for a link step `link mapping 'x' virtualHost → virtual-host 'y'`. */
function stepLabel(step: Plan['steps'][number] | undefined): string {
  if (!step) return '';
  return `${step.action} ${step.kind} '${step.name}'${'related' in step ? ` ${step.relationship} → ${step.related.kind} '${step.related.name}'` : ''}`;
}

/**
 * What a run whose execution failed did, in a few lines: the counts of applied, failed
 * and skipped steps (the failed step, its error and the outcome are the error's own
 * message, printed once after this). With `verbose`, every step with its status.
 */
export function renderExecutionReport(plan: Plan, report: ExecutionReport, options: { verbose?: boolean } = {}): string {
  const count = (status: string): number => report.outcomes.filter((o) => o.status === status).length;
  const applied = count('applied');
  const lines = [
    '',
    `Steps: ${applied} applied${applied > 0 ? ' (in the session, then discarded with it)' : ''}, ${count('failed')} failed, ${count('skipped')} skipped` +
      (options.verbose === true ? '.' : '; --verbose lists every step.'),
  ];
  if (options.verbose === true) {
    const byIndex = new Map(plan.steps.map((s) => [s.index, s]));
    for (const outcome of report.outcomes) {
      const extra = outcome.status === 'failed' ? `: ${outcome.error}` : '';
      lines.push(`  ${String(outcome.step).padStart(3)} ${outcome.status.padEnd(7)} ${stepLabel(byIndex.get(outcome.step))}${extra}`);
    }
  }
  return lines.join('\n') + '\n';
}
