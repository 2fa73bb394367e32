/**
 * The actions of `gwops plan`, `gwops apply` and `gwops drift` (loaded only when one of
 * them runs; the wiring is in reconcile.ts): run the use case, show what it returns
 * through the command's view (src/cli/views/, chosen once from `--format`), and answer
 * the exit code.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { ConfigError, UsageError, WriteInterruptedError } from '../../errors.js';
import { writeFileAtomic, writeHoldingSignals } from '../../staged-files.js';
import { errnoCode, errnoWords } from '../../files.js';
import { writeProblem } from '../../out-paths.js';
import type { Diagnostic, Diagnostics } from '../../diagnostics.js';
import { formatDiagnostics } from '../../diagnostics-format.js';
import { readCommitInfo } from '../../operations/steps/commit-info.js';
import type { PlanInput, RunInput } from '../../operations/plan.js';
import { prepare, runPlan } from '../../operations/plan.js';
import type { ApplyInput } from '../../operations/apply.js';
import { prepareApply, runApply } from '../../operations/apply.js';
import { planFileOfRun } from '../../operations/steps/saved-plan.js';
import type { ConfigurationEntry } from '../../gateway/index.js';
import type { ProgressReporter } from '../../engine/progress.js';
import { renderPlanFileChunks } from '../../render/index.js';
import { consent } from '../consent.js';
import { EXIT } from '../../exit-codes.js';
import type { ConnectionFlags } from '../connection-flags.js';
import { gatewayInput } from '../connection-flags.js';
import { colorEnabled } from '../color.js';
import type { CliIO } from '../io.js';
import type { Format } from '../views/plan.js';
import { planView } from '../views/plan.js';
import { applyView } from '../views/apply.js';

export type { Format };

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


/** The input of a run. */
export function runInput(paths: string[], flags: CommonFlags, io: CliIO, progress?: ProgressReporter): RunInput {
  return {
    progress,
    ...gatewayInput(flags, io),
    paths,
    stdin: io.stdin,
    prune: flags.prune,
    allowMassDelete: flags.allowMassDelete,
    allowEmpty: flags.allowEmpty,
  };
}

/**
 * The diagnostics of a run's first stage (the manifests' warnings), shown on stderr in the
 * text format of every diagnostic before any gateway is contacted; returned for the JSON
 * documents, which carry them.
 */
export function shownWarnings(diagnostics: Diagnostics, io: CliIO): readonly Diagnostic[] {
  if (diagnostics.length > 0) io.stderr.write(formatDiagnostics(diagnostics.all(), 'text', { color: colorEnabled(io) }));
  return diagnostics.all();
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
/** Smallest `--max-bytes`: room for the heading, the summary table and a few objects. */
const MIN_MARKDOWN_BYTES = 1_000;

/**
 * The value of `--max-bytes` (bytes of UTF-8 of the markdown plan).
 * @throws UsageError unless it is a whole number of at least {@link MIN_MARKDOWN_BYTES}
 */
function markdownBytes(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < MIN_MARKDOWN_BYTES) {
    throw new UsageError(`--max-bytes ${JSON.stringify(value)}: expected a whole number of bytes from 1000 up, e.g. --max-bytes 1000000`);
  }
  return n;
}

export async function planAction(
  paths: string[],
  flags: CommonFlags & { out?: string; maxBytes?: string; detailedExitcode?: boolean; serverCheck: boolean },
  io: CliIO,
  progress?: ProgressReporter,
): Promise<number> {
  const maxBytes = markdownBytes(flags.maxBytes);
  const out = flags.out === undefined ? undefined : await writableFile(io.cwd, flags.out, '--out');
  const view = planView(flags.format, io, { verbose: flags.verbose });
  // The text of the plan is made while the server check's calls wait for their answers.
  const input: PlanInput = { ...runInput(paths, flags, io, progress), serverCheck: flags.serverCheck, onPlan: (plan) => view.planAhead(plan) };
  const prepared = await prepare(input).catch((e: unknown) => view.failure(e, []));
  const warnings = shownWarnings(prepared.diagnostics, io);
  const { result, diagnostics } = await runPlan(input, prepared.result).catch((e: unknown) => view.failure(e, warnings));
  const messages = result.serverChecked ? diagnostics.all() : undefined;
  view.plan(result.plan, { messages, warnings, states: { desired: result.prepared.desired, live: result.live }, maxBytes });
  if (out !== undefined) {
    // Written as is, never through the redactor: the file holds no secret (only their sources,
    // see saved-plan.ts), and a redacted value would be a changed value that apply --plan sends.
    // In chunks, each written before the next is made: the file never exists whole in memory.
    const planFile = renderPlanFileChunks(planFileOfRun(result.plan, result.prepared, input, readCommitInfo(io.env, io.cwd)));
    // Beside the old file and renamed over it: an interruption leaves the old plan file or the new one, never a part.
    await writeHoldingSignals(`the plan file ${flags.out ?? ''}`, () => writeFileAtomic(out, planFile)).catch((error: unknown) => {
      if (error instanceof WriteInterruptedError) throw error;
      throw new ConfigError(`cannot write the plan file ${flags.out ?? ''}: ${errnoWords(error)}`, { cause: error });
    });
  }
  if (diagnostics.hasErrors()) return EXIT.validatorErrors;
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
  const view = applyView(flags.format, io, { verbose: flags.verbose, yes: flags.yes });
  // Assigned once the first stage has shown its warnings; the plan is told only after that.
  let warnings: readonly Diagnostic[] = [];
  const input: ApplyInput = {
    ...runInput(paths, flags, io, progress),
    planFile: flags.plan,
    comment: flags.comment,
    commit,
    onPlan: (plan, states) => view.planned(plan, states, warnings),
    confirm: (_plan, signal) => consent(io, flags.yes, '\nDo you want to apply these changes? Only "yes" is accepted: ', signal),
    backup: backupDir === undefined ? undefined : backupTo(backupDir, io),
    retryOnConflict,
  };
  const prepared = await prepareApply(input).catch((e: unknown) => view.failure(e, []));
  warnings = shownWarnings(prepared.diagnostics, io);
  const { result, diagnostics } = await runApply(input, prepared.result).catch((e: unknown) => view.failure(e, warnings));
  view.applied(result, diagnostics.all(), warnings);
  switch (result.outcome) {
    case 'activated':
    case 'no-changes':
      return EXIT.ok;
    case 'cancelled':
      return EXIT.error;
  }
}
