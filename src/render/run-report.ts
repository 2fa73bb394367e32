/**
 * Reports of a run that are not the plan itself: validator messages, the outcome of an
 * apply that failed (the drift report is drift.ts). Each is a function of data returning a string.
 */
import { createColors } from 'picocolors';
import type { Diagnostic } from '../diagnostics.js';
import { formatDiagnostics } from '../diagnostics-format.js';
import type { ExecutionReport } from '../engine/plan-types.js';
import type { Plan } from '../engine/plan-types.js';

/**
 * The gateway validator's messages (diagnostics, src/operations/plan.ts `locateMessages`)
 * under a heading, in the text format of every diagnostic (`formatDiagnostics`): one line
 * each, `file:line:col: severity: message [CODE]`, then the counts.
 */
export function renderValidatorMessages(messages: readonly Diagnostic[], options: { color: boolean }): string {
  if (messages.length === 0) return '';
  const c = createColors(options.color);
  return `\n${c.bold('Gateway validator messages:')}\n${formatDiagnostics(messages, 'text', { color: options.color })}`;
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
