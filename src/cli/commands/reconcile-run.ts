/**
 * The actions of `gwops plan`, `gwops apply` and `gwops drift` (loaded only when one of
 * them runs; the wiring is in reconcile.ts): run the use case, print what it returns,
 * and answer the exit code.
 */
import { constants } from 'node:fs';
import { access, mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from '../../errors.js';
import type { Diagnostic } from '../../manifest/diagnostics.js';
import { formatDiagnostics, hasErrors } from '../../manifest/diagnostics.js';
import { activationComment, readCommitInfo } from '../../reconcile/commit-comment.js';
import { ApplyFailedError, ValidatorRejectedError, isDiagnosticsError } from '../../reconcile/errors.js';
import type { RunInput } from '../../reconcile/run.js';
import { runPlan } from '../../reconcile/run.js';
import { runApply } from '../../reconcile/apply.js';
import type { ConfigurationEntry } from '../../gateway/index.js';
import type { Plan } from '../../reconcile/plan-types.js';
import { renderExecutionReport, renderValidatorMessages } from '../../render/run-report.js';
import { renderJson, renderMarkdown, renderText } from '../../render/index.js';
import { consent } from '../consent.js';
import { EXIT } from '../exit.js';
import type { ConnectionFlags } from '../connection-flags.js';
import { gatewayInput } from '../connection-flags.js';
import type { CliIO } from '../io.js';
import { redactText } from '../io.js';

/** Output formats of plan, apply and drift. */
export type Format = 'text' | 'markdown' | 'json';

/** Flags shared by plan, apply and drift, as commander parses them. */
export interface CommonFlags extends ConnectionFlags {
  prune?: boolean;
  allowMassDelete?: boolean;
  format: Format;
}


/** True when output may carry ANSI colours: a terminal, no NO_COLOR, TERM not dumb. */
export function colorEnabled(io: CliIO): boolean {
  return io.isTTY && io.env.NO_COLOR === undefined && io.env.TERM !== 'dumb';
}

/**
 * The input of a run. The manifests' warnings are printed on stderr when they arrive (in
 * the text format of every diagnostic) and collected into `warnings`, for the JSON output.
 */
export function runInput(paths: string[], flags: CommonFlags, io: CliIO, warnings: Diagnostic[]): RunInput {
  return {
    ...gatewayInput(flags, io),
    paths,
    stdin: io.stdin,
    prune: flags.prune,
    allowMassDelete: flags.allowMassDelete,
    onDiagnostics: (diagnostics) => {
      warnings.push(...diagnostics);
      io.stderr.write(formatDiagnostics(diagnostics, 'text', { color: colorEnabled(io) }));
    },
  };
}

/**
 * The plan in the output format. JSON carries every diagnostic of the run so far in
 * `diagnostics` (the manifests' `warnings`, then the validator's `messages`), in the shape
 * of `gwops validate --format json`; markdown shows the validator's messages in a table,
 * text after the plan in the text format of every diagnostic.
 */
function renderPlan(
  plan: Plan,
  format: Format,
  io: CliIO,
  messages: readonly Diagnostic[] | undefined,
  warnings: readonly Diagnostic[],
  title?: string,
): string {
  switch (format) {
    case 'json':
      return renderJson(plan, { diagnostics: [...warnings, ...(messages ?? [])] });
    case 'markdown':
      return renderMarkdown(plan, { ...(messages ? { validatorMessages: messages } : {}), ...(title !== undefined ? { title } : {}) });
    case 'text':
      return renderText(plan, { color: colorEnabled(io) }) + (messages ? renderValidatorMessages(messages, { color: colorEnabled(io) }) : '');
  }
}

/**
 * Prints what a typed failure carries, then rethrows it for the exit code (its one-line
 * message follows on stderr). Diagnostics (of the manifests, the desired state, unresolved
 * links, the gateway's validator) are printed by the one diagnostics formatter: with
 * `--format json` as the JSON document of `gwops validate --format json` on stdout (with
 * the manifests' `warnings` first, unless a plan document already carried them), else in
 * its text format on stderr. A failed step prints the execution report.
 */
export function explain(error: unknown, io: CliIO, format: Format, warnings: readonly Diagnostic[]): never {
  if (isDiagnosticsError(error)) {
    const color = colorEnabled(io);
    if (format === 'json') {
      // Only the validator rejects after the plan (and the warnings with it) was printed.
      const planShown = error instanceof ValidatorRejectedError;
      io.stdout.write(formatDiagnostics(planShown ? error.diagnostics : [...warnings, ...error.diagnostics], 'json'));
    } else if (error instanceof ValidatorRejectedError) {
      io.stderr.write(renderValidatorMessages(error.diagnostics, { color }));
    } else {
      io.stderr.write(`${formatDiagnostics(error.diagnostics, 'text', { color })}\n`);
    }
  } else if (error instanceof ApplyFailedError) {
    io.stderr.write(renderExecutionReport(error.plan, error.report));
  }
  throw error;
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

/**
 * `--backup-dir`: creates the directory when missing and checks, before anything is sent
 * to a gateway, that it is a writable directory.
 * @returns the absolute path
 * @throws ConfigError naming the option and what is wrong
 */
async function writableDir(cwd: string, dir: string, option: string): Promise<string> {
  const full = resolve(cwd, dir);
  await mkdir(full, { recursive: true }).catch((error: unknown) => {
    throw new ConfigError(`${option} ${dir}: cannot create the directory ${full} (${errnoCode(error)})`);
  });
  if (!(await stat(full).catch(() => undefined))?.isDirectory()) throw new ConfigError(`${option} ${dir} is not a directory`);
  await access(full, constants.W_OK).catch((error: unknown) => {
    throw new ConfigError(`${option} ${dir}: the directory ${full} is not writable (${errnoCode(error)})`);
  });
  return full;
}

/** A UTC time as in backup file names: `20261123T141500Z`. */
export function compactUtc(date: Date): string {
  return date.toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '');
}

/**
 * The `backup` hook of apply for `--backup-dir`: writes the export of the active
 * configuration to `<dir>/<configuration-id>-<UTC time>.zip` and says so on stderr.
 */
function backupTo(dir: string, io: CliIO): (archive: Buffer, active: ConfigurationEntry | undefined) => Promise<void> {
  return async (archive, active) => {
    const id = (active?.id ?? 'active').replace(/[^A-Za-z0-9._-]/g, '_');
    const file = join(dir, `${id}-${compactUtc(new Date())}.zip`);
    await writeFile(file, archive, { flag: 'wx' }).catch((error: unknown) => {
      throw new ConfigError(`cannot write the backup ${file} (${errnoCode(error)}); nothing was changed`, { cause: error });
    });
    io.stderr.write(`Backup of the active configuration${active ? ` ${active.id}` : ''} written to ${file} (${archive.length} bytes).\n`);
  };
}

/** `gwops plan`. @returns the exit code */
export async function planAction(paths: string[], flags: CommonFlags & { out?: string; detailedExitcode?: boolean; serverCheck: boolean }, io: CliIO): Promise<number> {
  const out = flags.out === undefined ? undefined : await writableFile(io.cwd, flags.out, '--out');
  const warnings: Diagnostic[] = [];
  const result = await runPlan({ ...runInput(paths, flags, io, warnings), serverCheck: flags.serverCheck }).catch((e: unknown) =>
    explain(e, io, flags.format, warnings),
  );
  io.stdout.write(renderPlan(result.plan, flags.format, io, result.messages, warnings));
  if (out !== undefined) {
    await writeFile(out, redactText(io, renderJson(result.plan))).catch((error: unknown) => {
      throw new ConfigError(`cannot write the plan file ${flags.out ?? ''} (${errnoCode(error)})`, { cause: error });
    });
  }
  if (result.messages && hasErrors(result.messages)) return EXIT.validatorErrors;
  return flags.detailedExitcode && result.plan.steps.length > 0 ? EXIT.changes : EXIT.ok;
}

/** `gwops apply`. @returns the exit code */
export async function applyAction(
  paths: string[],
  flags: CommonFlags & { plan?: string; comment?: string; yes?: boolean; backupDir?: string },
  io: CliIO,
): Promise<number> {
  const backupDir = flags.backupDir === undefined ? undefined : await writableDir(io.cwd, flags.backupDir, '--backup-dir');
  const comment = flags.comment ?? activationComment(readCommitInfo(io.env, io.cwd));
  const color = colorEnabled(io);
  const warnings: Diagnostic[] = [];
  const result = await runApply({
    ...runInput(paths, flags, io, warnings),
    planFile: flags.plan,
    comment,
    onPlan: (plan) => void io.stdout.write(renderPlan(plan, flags.format, io, undefined, warnings)),
    confirm: (_plan, signal) => consent(io, flags.yes, '\nDo you want to apply these changes? Only "yes" is accepted: ', signal),
    backup: backupDir === undefined ? undefined : backupTo(backupDir, io),
    onProgress: io.isTTY
      ? ({ step, phase, total }) => {
          if (phase === 'done') io.stderr.write(`  [${step.index}/${total}] ${step.action} ${step.kind} '${step.name}' done\n`);
        }
      : undefined,
  }).catch((e: unknown) => explain(e, io, flags.format, warnings));
  // After the plan: the validator's messages, with --format json as a second JSON document (the one of validate).
  if (result.messages.length > 0) {
    io.stdout.write(flags.format === 'json' ? formatDiagnostics(result.messages, 'json') : renderValidatorMessages(result.messages, { color }));
  }
  switch (result.outcome) {
    case 'activated':
      // The outcome is the report of a text or markdown apply; with --format json stdout holds only JSON documents.
      (flags.format === 'json' ? io.stderr : io.stdout).write(`\nApply complete: configuration ${result.activation?.id ?? ''} activated with comment "${result.comment ?? ''}".\n`);
      return EXIT.ok;
    case 'cancelled':
      io.stderr.write('Apply cancelled.\n');
      return EXIT.error;
    case 'no-changes':
      return EXIT.ok;
  }
}
