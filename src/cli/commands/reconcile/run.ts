/**
 * The actions of `gwops plan`, `gwops apply` and `gwops drift` (loaded only when one of
 * them runs; the wiring is in command.ts): run the use case, show what it returns
 * through the command's view (plan-view.ts, apply-view.ts, drift-view.ts, chosen once from `--format`), and answer
 * the exit code.
 */
import { existsSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { ConfigError, UsageError, WriteInterruptedError } from '../../../core/errors.js';
import { writeFileAtomic, writeHoldingSignals } from '../../../core/staged-files.js';
import { errnoWords } from '../../../core/files.js';
import { writeProblem } from '../../../core/out-paths.js';
import type { Diagnostic, Diagnostics } from '../../../core/diagnostics.js';
import { formatDiagnostics } from '../../../core/diagnostics-format.js';
import { readCommitInfo } from '../../../operations/steps/commit-info.js';
import { entriesInForce, expiredWarning } from '../../../manifest/drift-ignore.js';
import type { ProjectConfig } from '../../../manifest/project.js';
import { PROJECT_FILE } from '../../../manifest/project.js';
import type { OutsideChanges } from '../../../operations/steps/outside-changes.js';
import { renderOutsideChanges } from '../../../render/drift.js';
import type { RunInput } from '../../../operations/steps/pipeline.js';
import { prepare } from '../../../operations/steps/pipeline.js';
import type { PlanInput } from '../../../operations/plan.js';
import { runPlan } from '../../../operations/plan.js';
import type { ApplyInput } from '../../../operations/apply.js';
import { prepareApply, runApply } from '../../../operations/apply.js';
import { planFileOfRun } from '../../../operations/steps/saved-plan.js';
import { planSigner, planSigningKey, signatureFileOf, signedChunks } from '../../../operations/steps/plan-signing.js';
import { backupDirectory, backupWriter } from '../../../operations/steps/backup.js';
import type { ProgressReporter } from '../../../engine/progress.js';
import { renderPlanFileChunks } from '../../../render/index.js';
import { jsonInvisibleEscaped } from '../../../core/display.js';
import { consent } from '../../consent.js';
import { EXIT } from '../../../core/exit-codes.js';
import type { ConnectionFlags } from '../../connection-flags.js';
import { gatewayInput } from '../../connection-flags.js';
import { colorEnabled } from '../../color.js';
import type { CliIO } from '../../io.js';
import type { Format, PlanFormat } from './plan-view.js';
import { markdownPlan, planView } from './plan-view.js';
import { repositoryPaths } from '../../repository-paths.js';
import { applyView } from './apply-view.js';

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
  /** `--plan-signing-key-file` (plan and apply). */
  planSigningKeyFile?: string;
}


/**
 * The plan-signing key of plan and apply (`--plan-signing-key-file`, else
 * `GWOPS_PLAN_SIGNING_KEY`), registered for redaction.
 * @throws ConfigError when it cannot be read (plan-signing.ts `planSigningKey`)
 */
function signingKey(flags: Pick<CommonFlags, 'planSigningKeyFile'>, io: CliIO): { planSigningKey?: string } {
  const key = planSigningKey({ planSigningKeyFile: flags.planSigningKeyFile, env: io.env, cwd: io.cwd });
  if (key === undefined) return {};
  io.secrets?.add(key);
  return { planSigningKey: key };
}

/** The input of a run. */
export function runInput(paths: string[], flags: Omit<CommonFlags, 'format'>, io: CliIO, progress?: ProgressReporter): RunInput {
  return {
    progress,
    ...gatewayInput(flags, io),
    paths,
    stdin: io.stdin,
    prune: flags.prune,
    allowMassDelete: flags.allowMassDelete,
    allowEmpty: flags.allowEmpty,
    now: io.now,
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
 * Warns on stderr about each `drift.ignore` entry whose `until` day is over at the run's
 * clock: its differences are planned again (src/engine/ignored-differences.ts).
 */
function warnExpiredIgnores(project: ProjectConfig, io: CliIO): void {
  for (const entry of entriesInForce(project.drift, io.now?.() ?? new Date()).expired) io.stderr.write(`warning: ${expiredWarning(entry)}\n`);
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

/** The flags of `gwops plan`: its format may also be `github` (plan-view.ts `PlanFormat`). */
export type PlanFlags = Omit<CommonFlags, 'format'> & { format: PlanFormat; out?: string; markdownOut?: string; maxBytes?: string; detailedExitcode?: boolean; serverCheck: boolean };

/** `gwops plan` in any {@link PlanFormat}. @returns the exit code */
export async function planAction(
  paths: string[],
  flags: PlanFlags,
  io: CliIO,
  progress?: ProgressReporter,
): Promise<number> {
  const maxBytes = markdownBytes(flags.maxBytes);
  const out = flags.out === undefined ? undefined : await writableFile(io.cwd, flags.out, '--out');
  const markdownOut = flags.markdownOut === undefined ? undefined : await writableFile(io.cwd, flags.markdownOut, '--markdown-out');
  const view = planView(flags.format, io, { verbose: flags.verbose });
  // The text of the plan is made while the server check's calls wait for their answers.
  const input: PlanInput = { ...runInput(paths, flags, io, progress), ...signingKey(flags, io), serverCheck: flags.serverCheck, onPlan: (plan) => view.planAhead(plan), onOutsideChanges: outsideChangesTo(io) };
  const prepared = await prepare(input).catch((e: unknown) => view.failure(e, []));
  const warnings = shownWarnings(prepared.diagnostics, io);
  warnExpiredIgnores(prepared.result.loaded.project, io);
  const { result, diagnostics } = await runPlan(input, prepared.result).catch((e: unknown) => view.failure(e, warnings));
  const messages = result.serverChecked ? diagnostics.all() : undefined;
  // Every format says whether the gateway's validator checked the plan, or was not asked.
  const serverCheck = result.plan.steps.length === 0 ? 'not-needed' : result.serverChecked ? 'checked' : 'skipped';
  // Markdown is read beside the repository (a pull-request comment): its paths from the repository's root.
  const filePath = await repositoryPaths(io);
  const content = { messages, warnings, serverCheck, filePath, states: { desired: result.prepared.desired, live: result.live } } as const;
  view.plan(result.plan, { ...content, maxBytes });
  if (markdownOut !== undefined) {
    // The comment-sized markdown plan (the renderer's default bound) beside whatever stdout got, e.g. for the GitHub Action's comment.
    await writeFileAtomic(markdownOut, markdownPlan(undefined, flags.verbose === true)(result.plan, content)).catch((error: unknown) => {
      throw new ConfigError(`cannot write the markdown plan ${flags.markdownOut ?? ''}: ${errnoWords(error)}`, { cause: error });
    });
  }
  if (out !== undefined) {
    // Written as is, never through the redactor: the file holds no secret (only their sources,
    // see saved-plan.ts), and a redacted value would be a changed value that apply --plan sends.
    // In chunks, each written before the next is made: the file never exists whole in memory.
    const commit = readCommitInfo(io.env, io.cwd, projectPaths(paths, flags, io.cwd));
    if (commit.dirty === true) io.stderr.write(dirtyWarning(commit.sha));
    const chunks = renderPlanFileChunks(planFileOfRun(result.plan, result.prepared, input, commit));
    // Names and values of the input with control, zero-width or bidi characters as JSON escapes: the same plan, safe to show.
    const escaped = (function* () {
      for (const chunk of chunks) yield jsonInvisibleEscaped(chunk);
    })();
    // With a plan-signing key, the bytes written are signed on the way (plan-signing.ts).
    const signer = input.planSigningKey === undefined ? undefined : planSigner(input.planSigningKey);
    const planFile = signer ? signedChunks(escaped, signer) : escaped;
    // Beside the old file and renamed over it: an interruption leaves the old plan file or the new one, never a part.
    await writeHoldingSignals(`the plan file ${flags.out ?? ''}`, () => writeFileAtomic(out, planFile)).catch((error: unknown) => {
      if (error instanceof WriteInterruptedError) throw error;
      throw new ConfigError(`cannot write the plan file ${flags.out ?? ''}: ${errnoWords(error)}`, { cause: error });
    });
    // A signature left from an earlier run would not match this file: an unsigned file has none.
    const signature = signatureFileOf(out);
    await (signer ? writeFileAtomic(signature, `${signer.signature()}\n`) : rm(signature, { force: true })).catch((error: unknown) => {
      throw new ConfigError(`cannot write the signature ${signatureFileOf(flags.out ?? '')} of the plan file: ${errnoWords(error)}`, { cause: error });
    });
  }
  if (diagnostics.hasErrors()) return EXIT.validatorErrors;
  return flags.detailedExitcode && result.plan.steps.length > 0 ? EXIT.changes : EXIT.ok;
}

/** Writes what a plan reverts of the gateway's own changes on stderr (outside-changes.ts), before the plan. */
function outsideChangesTo(io: CliIO): (changes: OutsideChanges) => void {
  return (changes) => void io.stderr.write(`${renderOutsideChanges(changes)}\n`);
}

/**
 * What a run reads from the checkout, for the dirty check of its commit: the project file's
 * directory (`--config`, else `gwops.yaml` in `cwd` when there is one) and the manifest
 * paths given; `cwd` when neither.
 */
function projectPaths(paths: readonly string[], flags: Pick<CommonFlags, 'config'>, cwd: string): string[] {
  const project = flags.config !== undefined ? dirname(resolve(cwd, flags.config)) : existsSync(join(cwd, PROJECT_FILE)) ? cwd : undefined;
  const read = [...(project !== undefined ? [project] : []), ...paths.filter((p) => p !== '-').map((p) => resolve(cwd, p))];
  return read.length > 0 ? read : [cwd];
}

/** The warning for an apply from a working tree with uncommitted changes (its comment marks the SHA `-dirty`). */
function dirtyWarning(sha: string | undefined): string {
  const short = sha?.slice(0, 7) ?? 'HEAD';
  return `warning: the working tree has uncommitted changes: what is applied is not commit ${short}; the activation comment says ${short}-dirty, and gwops drift will not use it as a base\n`;
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
  const backupDir = flags.backupDir === undefined ? undefined : await backupDirectory(io.cwd, flags.backupDir, '--backup-dir');
  // With --plan and no --comment, the comment is derived from the commit the plan file was made from.
  const commit = flags.comment === undefined && flags.plan === undefined ? readCommitInfo(io.env, io.cwd, projectPaths(paths, flags, io.cwd)) : undefined;
  if (commit?.dirty === true) io.stderr.write(dirtyWarning(commit.sha));
  const view = applyView(flags.format, io, { verbose: flags.verbose, yes: flags.yes });
  // Assigned once the first stage has shown its warnings; the plan is told only after that.
  let warnings: readonly Diagnostic[] = [];
  const input: ApplyInput = {
    ...runInput(paths, flags, io, progress),
    ...signingKey(flags, io),
    planFile: flags.plan,
    comment: flags.comment,
    commit,
    onOutsideChanges: outsideChangesTo(io),
    onPlan: (plan, states) => view.planned(plan, states, warnings),
    confirm: (_plan, signal) => consent(io, flags.yes, '\nDo you want to apply these changes? Only "yes" is accepted: ', signal),
    backup: backupDir === undefined ? undefined : backupWriter(backupDir, () => io.now?.() ?? new Date(), (message) => void io.stderr.write(`${message}\n`)),
    retryOnConflict,
  };
  const prepared = await prepareApply(input).catch((e: unknown) => view.failure(e, []));
  warnings = shownWarnings(prepared.diagnostics, io);
  warnExpiredIgnores(prepared.result.prepared.loaded.project, io);
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
