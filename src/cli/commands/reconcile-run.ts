/**
 * The actions of `gwops plan`, `gwops apply` and `gwops drift` (loaded only when one of
 * them runs; the wiring is in reconcile.ts): run the use case, print what it returns,
 * and answer the exit code.
 */
import { constants } from 'node:fs';
import { access, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { ConfigError, UsageError } from '../../errors.js';
import type { Variant } from '../../kinds/index.js';
import { formatDiagnostics } from '../../manifest/index.js';
import { activationComment, readCommitInfo } from '../../reconcile/commit-comment.js';
import type { LocatedValidatorMessage, RunInput } from '../../reconcile/run.js';
import { ApplyFailedError, ManifestError, ValidatorRejectedError, runDrift, runPlan } from '../../reconcile/run.js';
import { ConsentRequiredError, runApply } from '../../reconcile/apply.js';
import type { Plan } from '../../reconcile/plan-types.js';
import { renderDrift, renderExecutionReport, renderValidatorMessages } from '../../render/run-report.js';
import { renderJson, renderMarkdown, renderText } from '../../render/index.js';
import { EXIT } from '../exit.js';
import { timeoutOption } from '../../gateway/connection.js';
import type { CliIO } from '../io.js';
import { redactText } from '../io.js';

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
  /** `--timeout`, in seconds (text as given). */
  timeout?: string;
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
    // Checked here, before anything is read: an invalid value is a one-line UsageError.
    timeout: flags.timeout === undefined ? undefined : timeoutOption(flags.timeout),
    variant: flags.variant,
    prune: flags.prune,
    allowMassDelete: flags.allowMassDelete,
    warn: (message) => void io.stderr.write(`Warning: ${message}\n`),
    secrets: io.secrets,
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

/**
 * Asks `question` on stderr and reads one line from stdin. End of input (Ctrl+D) is no
 * answer: undefined. Rejects when `signal` aborts.
 */
async function ask(io: CliIO, question: string, signal: AbortSignal): Promise<string | undefined> {
  const rl = createInterface({ input: io.stdin, output: io.stderr as NodeJS.WritableStream, terminal: false });
  try {
    return await new Promise<string | undefined>((resolveAnswer, reject) => {
      // The callback form answers within the 'line' event, before a 'close' that the same input's end may bring.
      rl.question(question, { signal }, resolveAnswer);
      rl.once('close', () => resolveAnswer(undefined));
      signal.addEventListener('abort', () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted')), { once: true });
    });
  } finally {
    rl.close();
  }
}

/**
 * The consent rule of every command that changes a gateway: `--yes` gives it; otherwise
 * it is asked for when a question can be asked and answered on a terminal (stdin and
 * stderr), and only "yes" gives it. With no terminal and no `--yes` the command stops
 * before any write call (`CI=true` does not imply consent).
 * @returns true when consent was given
 * @throws ConsentRequiredError when it cannot be asked for
 */
async function consent(io: CliIO, yes: boolean | undefined, question: string, signal: AbortSignal): Promise<boolean> {
  if (yes) return true;
  if (!io.canPrompt) {
    throw new ConsentRequiredError('no terminal to ask for approval and --yes not given: nothing was changed; re-run with --yes to apply these changes');
  }
  const answer = await ask(io, question, signal);
  return answer?.trim() === 'yes';
}

function errnoCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'unwritable';
}

/**
 * Checks, before anything is sent to a gateway, that `file` can be written: its directory
 * exists and is writable, and it is not itself a directory.
 * @returns the absolute path
 * @throws ConfigError naming the option and what is wrong
 */
async function writableFile(cwd: string, file: string, option: string): Promise<string> {
  const full = resolve(cwd, file);
  const dir = dirname(full);
  const dirStat = await stat(dir).catch(() => undefined);
  if (!dirStat?.isDirectory()) throw new ConfigError(`${option} ${file}: the directory ${dir} does not exist; create it first`);
  if ((await stat(full).catch(() => undefined))?.isDirectory()) throw new ConfigError(`${option} ${file} is a directory; name a file`);
  await access(dir, constants.W_OK).catch((error: unknown) => {
    throw new ConfigError(`${option} ${file}: the directory ${dir} is not writable (${errnoCode(error)})`);
  });
  return full;
}

/** `gwops plan`. @returns the exit code */
export async function planAction(paths: string[], flags: CommonFlags & { out?: string; detailedExitcode?: boolean; serverCheck: boolean }, io: CliIO): Promise<number> {
  const out = flags.out === undefined ? undefined : await writableFile(io.cwd, flags.out, '--out');
  const result = await runPlan({ ...runInput(paths, flags, io), serverCheck: flags.serverCheck }).catch((e: unknown) => explain(e, io));
  io.stdout.write(renderPlan(result.plan, flags.format, io, result.messages));
  if (out !== undefined) {
    await writeFile(out, redactText(io, renderJson(result.plan))).catch((error: unknown) => {
      throw new ConfigError(`cannot write the plan file ${flags.out ?? ''} (${errnoCode(error)})`, { cause: error });
    });
  }
  if (result.messages?.some((m) => m.severity === 'ERROR')) return EXIT.validatorErrors;
  return flags.detailedExitcode && result.plan.steps.length > 0 ? EXIT.changes : EXIT.ok;
}

/** `gwops apply`. @returns the exit code */
export async function applyAction(paths: string[], flags: CommonFlags & { plan?: string; comment?: string; yes?: boolean }, io: CliIO): Promise<number> {
  const comment = flags.comment ?? activationComment(readCommitInfo(io.env, io.cwd));
  const color = colorEnabled(io);
  const result = await runApply({
    ...runInput(paths, flags, io),
    planFile: flags.plan,
    comment,
    onPlan: (plan) => void io.stdout.write(renderPlan(plan, flags.format, io, undefined)),
    confirm: (_plan, signal) => consent(io, flags.yes, '\nDo you want to apply these changes? Only "yes" is accepted: ', signal),
    onProgress: io.isTTY
      ? ({ step, phase, total }) => {
          if (phase === 'done') io.stderr.write(`  [${step.index}/${total}] ${step.action} ${step.kind} '${step.name}' done\n`);
        }
      : undefined,
  }).catch((e: unknown) => explain(e, io));
  if (result.messages.length > 0) io.stdout.write(renderValidatorMessages(result.messages, { color }));
  switch (result.outcome) {
    case 'activated':
      // The outcome is the report of a text or markdown apply; with --format json stdout holds only the plan.
      (flags.format === 'json' ? io.stderr : io.stdout).write(`\nApply complete: configuration ${result.activation?.id ?? ''} activated with comment "${result.comment ?? ''}".\n`);
      return EXIT.ok;
    case 'cancelled':
      io.stderr.write('Apply cancelled.\n');
      return EXIT.error;
    case 'no-changes':
      return EXIT.ok;
  }
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
