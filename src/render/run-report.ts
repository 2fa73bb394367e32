/**
 * Reports of a run that are not the plan itself: validator messages, the outcome of an
 * apply that failed (the drift report is drift.ts). Each is a function of data returning a string.
 */
import { createColors } from 'picocolors';
import type { Diagnostic } from '../manifest/diagnostics.js';
import { formatDiagnostics } from '../manifest/diagnostics.js';
import type { ExecutionReport } from '../reconcile/execute.js';
import type { Plan } from '../reconcile/plan-types.js';

/**
 * The gateway validator's messages (diagnostics, src/reconcile/run.ts `locateMessages`)
 * under a heading, in the text format of every diagnostic (`formatDiagnostics`): one line
 * each, `file:line:col: severity: message [CODE]`, then the counts.
 */
export function renderValidatorMessages(messages: readonly Diagnostic[], options: { color: boolean }): string {
  if (messages.length === 0) return '';
  const c = createColors(options.color);
  return `\n${c.bold('Gateway validator messages:')}\n${formatDiagnostics(messages, 'text', { color: options.color })}`;
}

/** What an apply that failed did: steps applied in the (terminated) session, the failed one, the skipped ones. */
export function renderExecutionReport(plan: Plan, report: ExecutionReport): string {
  const byIndex = new Map(plan.steps.map((s) => [s.index, s]));
  const lines = ['', 'Steps of this run (all discarded: nothing was activated):'];
  for (const outcome of report.outcomes) {
    const step = byIndex.get(outcome.step);
    const label = step ? `${step.action} ${step.kind} '${step.name}'${'related' in step ? ` ${step.relationship} → ${step.related.kind} '${step.related.name}'` : ''}` : '';
    const extra = outcome.status === 'failed' ? `: ${outcome.error}` : '';
    lines.push(`  ${String(outcome.step).padStart(3)} ${outcome.status.padEnd(7)} ${label}${extra}`);
  }
  return lines.join('\n') + '\n';
}
