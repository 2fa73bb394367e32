/**
 * The actions of `gwops plan`, `gwops apply` and `gwops drift` (loaded only when one of
 * them runs; the wiring is in reconcile.ts): run the use case, print what it returns,
 * and answer the exit code.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { ConfigError, UsageError, isDiagnosticsError } from '../../errors.js';
import { errnoCode, errnoWords } from '../../files.js';
import { writeProblem } from '../../out-paths.js';
import type { Diagnostic } from '../../diagnostics.js';
import { formatDiagnostics, hasErrors, objectDiagnostic } from '../../diagnostics.js';
import { readCommitInfo } from '../../operations/steps/commit-info.js';
import { ApplyFailedError, OutsideScopeError, ServerCheckForbiddenError, ValidatorRejectedError } from '../../engine/errors.js';
import type { RunInput } from '../../operations/plan.js';
import { runPlan } from '../../operations/plan.js';
import { runApply } from '../../operations/apply.js';
import { planFileOfRun } from '../../operations/steps/saved-plan.js';
import type { ConfigurationEntry } from '../../gateway/index.js';
import type { Plan } from '../../engine/plan-types.js';
import type { ProgressReporter } from '../../engine/progress.js';
import { renderExecutionReport, renderValidatorMessages } from '../../render/run-report.js';
import type { State } from '../../engine/model.js';
import { planTopology, renderJson, renderMarkdown, renderPlanFile, renderText } from '../../render/index.js';
import { consent } from '../consent.js';
import { EXIT } from '../../exit-codes.js';
import type { ConnectionFlags } from '../connection-flags.js';
import { gatewayInput } from '../connection-flags.js';
import { colorEnabled } from '../color.js';
import type { CliIO } from '../io.js';

/** Output formats of plan, apply and drift. */
export type Format = 'text' | 'markdown' | 'json';

/** Flags shared by plan, apply and drift, as commander parses them. */
export interface CommonFlags extends ConnectionFlags {
  prune?: boolean;
  allowMassDelete?: boolean;
  allowEmpty?: boolean;
  /** No progress on stderr. */
  quiet?: boolean;
  /** Every step of a failed run, not only the counts. */
  verbose?: boolean;
  format: Format;
}


/**
 * The input of a run. The manifests' warnings are printed on stderr when they arrive (in
 * the text format of every diagnostic) and collected into `warnings`, for the JSON output.
 */
export function runInput(paths: string[], flags: CommonFlags, io: CliIO, warnings: Diagnostic[], progress?: ProgressReporter): RunInput {
  return {
    progress,
    ...gatewayInput(flags, io),
    paths,
    stdin: io.stdin,
    prune: flags.prune,
    allowMassDelete: flags.allowMassDelete,
    allowEmpty: flags.allowEmpty,
    onDiagnostics: (diagnostics) => {
      warnings.push(...diagnostics);
      io.stderr.write(formatDiagnostics(diagnostics, 'text', { color: colorEnabled(io) }));
    },
  };
}

/**
 * The plan in the output format. JSON carries every diagnostic of the run so far in
 * `diagnostics` (the manifests' `warnings`, then the validator's `messages`), in the shape
 * of `gwops validate --format json`; markdown draws the plan's topology when `states` are
 * given and shows the validator's messages in a table, text after the plan in the text
 * format of every diagnostic.
 */
function renderPlan(
  plan: Plan,
  format: Format,
  io: CliIO,
  messages: readonly Diagnostic[] | undefined,
  warnings: readonly Diagnostic[],
  title?: string,
  states?: { readonly desired: State; readonly live: State },
): string {
  switch (format) {
    case 'json':
      return renderJson(plan, { diagnostics: [...warnings, ...(messages ?? [])] });
    case 'markdown':
      return renderMarkdown(plan, {
        ...(messages ? { validatorMessages: messages } : {}),
        ...(title !== undefined ? { title } : {}),
        ...(states ? { topology: planTopology(plan, states.desired, states.live) } : {}),
      });
    case 'text':
      return renderText(plan, { color: colorEnabled(io) }) + (messages ? renderValidatorMessages(messages, { color: colorEnabled(io) }) : '');
  }
}

/**
 * The run's error as a diagnostic (code `run-failed`, its one-line message) for the one
 * JSON document of a failed run: an error that carries no located diagnostics of its own
 * (the gateway unreachable, a refused read).
 */
function runFailure(error: unknown): Diagnostic {
  return objectDiagnostic({ code: 'run-failed', message: error instanceof Error ? error.message : String(error) });
}

/**
 * The one JSON document stdout gets when a run of plan or drift with `--format json`
 * fails: the document of `gwops validate --format json` with the diagnostics (the
 * manifests' `warnings` first, unless a plan document already carried them) when the
 * error carries them; the plan (without a server check) when the gateway refused it; the
 * plan with the failed step as a diagnostic when a step failed; else the document of
 * validate with the error as its one error (`run-failed`).
 */
function failureJson(error: unknown, warnings: readonly Diagnostic[], io: CliIO): string {
  // The refused plan, carrying the diagnostics.
  if (error instanceof OutsideScopeError) return renderJson(error.plan, { diagnostics: [...warnings, ...error.diagnostics] });
  if (isDiagnosticsError(error)) {
    // Only the validator rejects after the plan (and the warnings with it) was printed.
    return formatDiagnostics(error instanceof ValidatorRejectedError ? error.diagnostics : [...warnings, ...error.diagnostics], 'json');
  }
  if (error instanceof ServerCheckForbiddenError) return renderPlan(error.plan, 'json', io, undefined, warnings);
  if (error instanceof ApplyFailedError) return renderJson(error.plan, { diagnostics: [...warnings, ...(error.failure ? [error.failure] : [])] });
  return formatDiagnostics([...warnings, runFailure(error)], 'json');
}

/**
 * Prints what a typed failure carries, then rethrows it for the exit code (its one-line
 * message follows on stderr). With `--format json` stdout gets exactly one JSON document
 * ({@link failureJson}), whatever stopped the run. Else diagnostics (of the manifests, the
 * desired state, unresolved links, the gateway's validator) are printed in the text format
 * of the one diagnostics formatter on stderr, and a plan the gateway refused to check, or
 * refused for objects outside the ownership scope, on stdout. A failed step prints the
 * execution report on stderr (the counts; every step with `verbose`) in every format.
 */
export function explain(error: unknown, io: CliIO, format: Format, warnings: readonly Diagnostic[], verbose = false): never {
  if (format === 'json') io.stdout.write(failureJson(error, warnings, io));
  if (error instanceof OutsideScopeError) {
    if (format !== 'json') {
      io.stdout.write(renderPlan(error.plan, format, io, undefined, warnings));
      io.stderr.write(`${formatDiagnostics(error.diagnostics, 'text', { color: colorEnabled(io) })}
`);
    }
  } else if (isDiagnosticsError(error)) {
    const color = colorEnabled(io);
    if (format === 'json') {
      // Already on stdout.
    } else if (error instanceof ValidatorRejectedError) {
      io.stderr.write(renderValidatorMessages(error.diagnostics, { color }));
    } else {
      io.stderr.write(`${formatDiagnostics(error.diagnostics, 'text', { color })}\n`);
    }
  } else if (error instanceof ServerCheckForbiddenError) {
    // The plan from what was read, as a plan without a server check; the error's message follows on stderr.
    if (format !== 'json') io.stdout.write(renderPlan(error.plan, format, io, undefined, warnings));
  } else if (error instanceof ApplyFailedError) {
    io.stderr.write(renderExecutionReport(error.plan, error.report, { verbose }));
  }
  throw error;
}


/**
 * Checks, before anything is sent to a gateway, that `file` can be written: its directory
 * exists and is writable, and it is not itself a directory.
 * @returns the absolute path
 * @throws ConfigError naming the option and what is wrong
 */
async function writableFile(cwd: string, file: string, option: string): Promise<string> {
  const full = resolve(cwd, file);
  const problem = await writeProblem(full, 'file');
  if (problem !== undefined) throw new ConfigError(`${option} ${file}: ${problem}`);
  const dir = dirname(full);
  if (!(await stat(dir).catch(() => undefined))?.isDirectory()) throw new ConfigError(`${option} ${file}: the directory ${dir} does not exist; create it first`);
  return full;
}

/**
 * `--backup-dir`: creates the directory when missing and checks, before anything is sent
 * to a gateway, that it is a writable directory.
 * @returns the absolute path
 * @throws ConfigError naming the option and what is wrong
 */
async function writableDir(cwd: string, dir: string, option: string): Promise<string> {
  const full = resolve(cwd, dir);
  const problem = await writeProblem(full, 'directory');
  if (problem !== undefined) throw new ConfigError(`${option} ${dir}: ${problem}`);
  await mkdir(full, { recursive: true }).catch((error: unknown) => {
    throw new ConfigError(`${option} ${dir}: cannot create the directory ${full}: ${errnoWords(error)}`);
  });
  if (!(await stat(full).catch(() => undefined))?.isDirectory()) throw new ConfigError(`${option} ${dir} is not a directory`);
  await access(full, constants.W_OK).catch((error: unknown) => {
    throw new ConfigError(`${option} ${dir}: the directory ${full} is not writable: ${errnoWords(error)}`);
  });
  return full;
}

/** A UTC time as in backup file names: `20261123T141500Z`. */
export function compactUtc(date: Date): string {
  return date.toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '');
}

/** How many names `backupTo` tries for one backup before it gives up (same gateway, id and second). */
const MAX_BACKUP_NAMES = 100;

/**
 * The `backup` hook of apply for `--backup-dir`: writes the export of the active
 * configuration (which holds every private key and secret of it) for its owner only (mode
 * 0600) to `<dir>/<configuration-id>-<UTC time>-<gateway>.zip`, where `<gateway>` is the
 * first 8 hex digits of the SHA-256 of the gateway's URL (backups of two gateways never
 * collide), with `-2`, `-3`, … added when that name exists; says so on stderr.
 */
function backupTo(dir: string, io: CliIO): (archive: Buffer, active: ConfigurationEntry | undefined, gatewayUrl: string) => Promise<void> {
  return async (archive, active, gatewayUrl) => {
    const id = (active?.id ?? 'active').replace(/[^A-Za-z0-9._-]/g, '_');
    const stem = `${id}-${compactUtc(io.now?.() ?? new Date())}-${createHash('sha256').update(gatewayUrl).digest('hex').slice(0, 8)}`;
    for (let n = 1; ; n += 1) {
      const file = join(dir, `${stem}${n === 1 ? '' : `-${n}`}.zip`);
      const written = await writeFile(file, archive, { flag: 'wx', mode: 0o600 }).then(
        () => true,
        (error: unknown) => {
          if (errnoCode(error) === 'EEXIST' && n < MAX_BACKUP_NAMES) return false;
          throw new ConfigError(`cannot write the backup ${file}: ${errnoWords(error)}; nothing was changed`, { cause: error });
        },
      );
      if (!written) continue;
      io.stderr.write(`Backup of the active configuration${active ? ` ${active.id}` : ''} written to ${file} (${archive.length} bytes).\n`);
      return;
    }
  };
}

/** `gwops plan`. @returns the exit code */
export async function planAction(
  paths: string[],
  flags: CommonFlags & { out?: string; detailedExitcode?: boolean; serverCheck: boolean },
  io: CliIO,
  progress?: ProgressReporter,
): Promise<number> {
  const out = flags.out === undefined ? undefined : await writableFile(io.cwd, flags.out, '--out');
  const warnings: Diagnostic[] = [];
  const input = runInput(paths, flags, io, warnings, progress);
  const result = await runPlan({ ...input, serverCheck: flags.serverCheck }).catch((e: unknown) =>
    explain(e, io, flags.format, warnings, flags.verbose === true),
  );
  io.stdout.write(renderPlan(result.plan, flags.format, io, result.messages, warnings, undefined, { desired: result.prepared.desired, live: result.live }));
  if (out !== undefined) {
    // Written as is, never through the redactor: the file holds no secret (only their sources,
    // see saved-plan.ts), and a redacted value would be a changed value that apply --plan sends.
    const planFile = renderPlanFile(planFileOfRun(result.plan, result.prepared, input, readCommitInfo(io.env, io.cwd)));
    await writeFile(out, planFile).catch((error: unknown) => {
      throw new ConfigError(`cannot write the plan file ${flags.out ?? ''}: ${errnoWords(error)}`, { cause: error });
    });
  }
  if (result.messages && hasErrors(result.messages)) return EXIT.validatorErrors;
  return flags.detailedExitcode && result.plan.steps.length > 0 ? EXIT.changes : EXIT.ok;
}

/** Bound of `--retry-on-conflict`. */
const MAX_CONFLICT_RETRIES = 100;

/**
 * `--retry-on-conflict <n>` as a number. @throws UsageError unless a whole number from 0
 * to {@link MAX_CONFLICT_RETRIES}
 */
function retryCount(value = '0'): number {
  const n = /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isInteger(n) || n > MAX_CONFLICT_RETRIES) {
    throw new UsageError(`--retry-on-conflict ${JSON.stringify(value)}: expected a whole number from 0 to ${MAX_CONFLICT_RETRIES}, e.g. --retry-on-conflict 3`);
  }
  return n;
}

/** `gwops apply`. @returns the exit code */
export async function applyAction(
  paths: string[],
  flags: CommonFlags & { plan?: string; comment?: string; yes?: boolean; backupDir?: string; retryOnConflict?: string },
  io: CliIO,
  progress?: ProgressReporter,
): Promise<number> {
  if (flags.plan !== undefined && paths.length > 0) {
    throw new UsageError(`apply --plan takes no manifest paths (got ${paths.join(' ')}): the plan file holds the desired state; run gwops plan --out again to change it`);
  }
  if (flags.plan !== undefined && (flags.prune || flags.allowMassDelete)) {
    throw new UsageError('apply --plan takes no --prune or --allow-mass-delete: the plan file already holds its deletes; pass them to gwops plan --out');
  }
  const retryOnConflict = retryCount(flags.retryOnConflict);
  const backupDir = flags.backupDir === undefined ? undefined : await writableDir(io.cwd, flags.backupDir, '--backup-dir');
  // With --plan and no --comment, the comment is derived from the commit the plan file was made from.
  const commit = flags.comment === undefined && flags.plan === undefined ? readCommitInfo(io.env, io.cwd) : undefined;
  const color = colorEnabled(io);
  const warnings: Diagnostic[] = [];
  const json = flags.format === 'json';
  // With --format json stdout gets one document at the end: the plan, every diagnostic and the outcome.
  let planned: Plan | undefined;
  const result = await runApply({
    ...runInput(paths, flags, io, warnings, progress),
    planFile: flags.plan,
    comment: flags.comment,
    commit,
    onPlan: (plan, states) => {
      planned = plan;
      if (!json) io.stdout.write(renderPlan(plan, flags.format, io, undefined, warnings, undefined, states));
      // The person asked on a terminal sees what they approve (human text: stderr).
      else if (flags.yes !== true && io.canPrompt === true && plan.steps.length > 0) io.stderr.write(renderText(plan, { color }));
    },
    confirm: (_plan, signal) => consent(io, flags.yes, '\nDo you want to apply these changes? Only "yes" is accepted: ', signal),
    backup: backupDir === undefined ? undefined : backupTo(backupDir, io),
    retryOnConflict,
  }).catch((e: unknown) => {
    if (json && planned !== undefined) {
      if (e instanceof ApplyFailedError) io.stderr.write(renderExecutionReport(e.plan, e.report, { verbose: flags.verbose === true }));
      const carried = isDiagnosticsError(e) ? e.diagnostics : e instanceof ApplyFailedError ? (e.failure ? [e.failure] : []) : [runFailure(e)];
      const diagnostics = [...warnings, ...carried];
      io.stdout.write(applyJson(planned, diagnostics, { result: 'failed', error: e instanceof Error ? e.message : String(e) }));
      throw e;
    }
    return explain(e, io, flags.format, warnings, flags.verbose === true);
  });
  if (json) {
    io.stdout.write(
      applyJson(result.plan, [...warnings, ...result.messages], {
        result: result.outcome,
        ...(result.activation ? { configuration: result.activation.id } : {}),
        ...(result.comment !== undefined ? { comment: result.comment } : {}),
      }),
    );
  } else if (result.messages.length > 0) {
    // After the plan: the validator's messages.
    io.stdout.write(renderValidatorMessages(result.messages, { color }));
  }
  switch (result.outcome) {
    case 'activated':
      // The outcome is the report of a text or markdown apply; with --format json it is in the document, and this line goes to stderr.
      (json ? io.stderr : io.stdout).write(`\nApply complete: configuration ${result.activation?.id ?? ''} activated with comment "${result.comment ?? ''}".\n`);
      return EXIT.ok;
    case 'cancelled':
      io.stderr.write('Apply cancelled.\n');
      return EXIT.error;
    case 'no-changes':
      return EXIT.ok;
  }
}

/**
 * The one JSON document of `apply --format json`: the plan's JSON with `diagnostics` (the
 * manifests' warnings, then the validator's messages), and `outcome` as the last member:
 * `result` (`activated`, `no-changes`, `cancelled` or `failed`) and, as they apply, the
 * activated `configuration` id, the `comment`, or the `error` message.
 */
export function applyJson(plan: Plan, diagnostics: readonly Diagnostic[], outcome: Record<string, string>): string {
  const document = JSON.parse(renderJson(plan, { diagnostics })) as Record<string, unknown>;
  return `${JSON.stringify({ ...document, outcome }, null, 2)}\n`;
}
