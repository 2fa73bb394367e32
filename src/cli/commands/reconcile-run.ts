/**
 * The actions of `gwops plan`, `gwops apply` and `gwops drift` (loaded only when one of
 * them runs; the wiring is in reconcile.ts): run the use case, print what it returns,
 * and answer the exit code.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { UsageError } from '../../errors.js';
import type { Variant } from '../../kinds/index.js';
import { formatDiagnostics } from '../../manifest/index.js';
import { activationComment, readCommitInfo } from '../../reconcile/commit-comment.js';
import type { LocatedValidatorMessage, RunInput } from '../../reconcile/run.js';
import { ApplyFailedError, ManifestError, ValidatorRejectedError, runApply, runDrift, runPlan } from '../../reconcile/run.js';
import type { Plan } from '../../reconcile/plan-types.js';
import { renderDrift, renderExecutionReport, renderValidatorMessages } from '../../render/run-report.js';
import { renderJson, renderMarkdown, renderText } from '../../render/index.js';
import { EXIT } from '../exit.js';
import type { CliIO } from '../io.js';

/** Output formats of plan, apply and drift. */
export type Format = 'text' | 'markdown' | 'json';

/** Flags shared by plan, apply and drift, as commander parses them. */
export interface CommonFlags {
  config?: string;
  target?: string;
  url?: string;
  apiKeyFile?: string;
  caFile?: string;
  insecure?: boolean;
  variant?: Variant;
  prune?: boolean;
  allowMassDelete?: boolean;
  format: Format;
}


function colorEnabled(io: CliIO): boolean {
  return io.isTTY && io.env.NO_COLOR === undefined && io.env.TERM !== 'dumb';
}

function runInput(paths: string[], flags: CommonFlags, io: CliIO): RunInput {
  return {
    paths,
    cwd: io.cwd,
    env: io.env,
    stdin: io.stdin,
    configFile: flags.config,
    target: flags.target,
    url: flags.url,
    apiKeyFile: flags.apiKeyFile,
    caFile: flags.caFile,
    insecure: flags.insecure,
    variant: flags.variant,
    prune: flags.prune,
    allowMassDelete: flags.allowMassDelete,
    warn: (message) => void io.stderr.write(`Warning: ${message}\n`),
  };
}

function renderPlan(plan: Plan, format: Format, io: CliIO, messages: readonly LocatedValidatorMessage[] | undefined): string {
  switch (format) {
    case 'json':
      return renderJson(plan);
    case 'markdown':
      return renderMarkdown(plan, messages ? { validatorMessages: messages } : {});
    case 'text':
      return renderText(plan, { color: colorEnabled(io) }) + (messages ? renderValidatorMessages(messages, { color: colorEnabled(io) }) : '');
  }
}

/** Prints what a typed failure carries (diagnostics, validator messages, step report), then rethrows it for the exit code. */
function explain(error: unknown, io: CliIO): never {
  if (error instanceof ManifestError) {
    io.stderr.write(formatDiagnostics(error.diagnostics, 'text', { color: colorEnabled(io) }));
    io.stderr.write('\n');
  } else if (error instanceof ValidatorRejectedError) {
    io.stderr.write(renderValidatorMessages(error.messages, { color: colorEnabled(io) }));
  } else if (error instanceof ApplyFailedError) {
    io.stderr.write(renderExecutionReport(error.plan, error.report));
  }
  throw error;
}

async function ask(io: CliIO, question: string): Promise<string> {
  const rl = createInterface({ input: io.stdin, output: io.stdout as NodeJS.WritableStream, terminal: false });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

/** `gwops plan`. @returns the exit code */
export async function planAction(paths: string[], flags: CommonFlags & { out?: string; detailedExitcode?: boolean; serverCheck: boolean }, io: CliIO): Promise<number> {
  const result = await runPlan({ ...runInput(paths, flags, io), serverCheck: flags.serverCheck }).catch((e: unknown) => explain(e, io));
  io.stdout.write(renderPlan(result.plan, flags.format, io, result.messages));
  if (flags.out) await writeFile(resolve(io.cwd, flags.out), renderJson(result.plan));
  if (result.messages?.some((m) => m.severity === 'ERROR')) return EXIT.validatorErrors;
  return flags.detailedExitcode && result.plan.steps.length > 0 ? EXIT.changes : EXIT.ok;
}

/** `gwops apply`. @returns the exit code */
export async function applyAction(paths: string[], flags: CommonFlags & { plan?: string; comment?: string; yes?: boolean }, io: CliIO): Promise<number> {
  const interactive = io.isTTY && io.env.CI !== 'true' && !flags.yes;
  const comment = flags.comment ?? activationComment(readCommitInfo(io.env, io.cwd));
  const color = colorEnabled(io);
  const result = await runApply({
    ...runInput(paths, flags, io),
    planFile: flags.plan,
    comment,
    onPlan: (plan) => void io.stdout.write(renderPlan(plan, flags.format, io, undefined)),
    confirm: async () => {
      if (!interactive) return true;
      const answer = await ask(io, '\nDo you want to apply these changes? Only "yes" is accepted: ');
      return answer.trim() === 'yes';
    },
    onProgress: io.isTTY
      ? ({ step, phase, total }) => {
          if (phase === 'done') io.stderr.write(`  [${step.index}/${total}] ${step.action} ${step.kind} '${step.name}' done\n`);
        }
      : undefined,
  }).catch((e: unknown) => explain(e, io));
  if (result.messages.length > 0) io.stdout.write(renderValidatorMessages(result.messages, { color }));
  if (result.activated) {
    io.stdout.write(`\nApply complete: configuration activated with comment "${result.comment ?? ''}".\n`);
  } else if (result.plan.steps.length > 0) {
    io.stdout.write('\nApply cancelled: nothing was changed.\n');
  }
  return EXIT.ok;
}

/** `gwops drift`. @returns the exit code */
export async function driftAction(paths: string[], flags: CommonFlags, io: CliIO): Promise<number> {
  if (flags.prune) throw new UsageError('drift never changes anything; --prune belongs to plan and apply');
  const result = await runDrift(runInput(paths, flags, io)).catch((e: unknown) => explain(e, io));
  io.stdout.write(
    flags.format === 'text' ? renderDrift(result.plan, { color: colorEnabled(io) }) : renderPlan(result.plan, flags.format, io, undefined),
  );
  return result.drifted ? EXIT.changes : EXIT.ok;
}
