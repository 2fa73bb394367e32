/**
 * The `apply` use case: the plan (fresh, or a saved one checked against the live state),
 * consent, execution in the session, the gateway's validator, and the activation, whose
 * outcome is reported as the gateway shows it.
 */
import type { ConfigurationEntry, GatewaySession, SessionScope } from '../gateway/index.js';
import { withSession } from '../gateway/index.js';
import { Diagnostics, hasErrors } from '../core/diagnostics.js';
import type { Diagnosed } from '../core/diagnostics.js';
import type { CommitInfo } from '../engine/commit-comment.js';
import { activationComment, projectId, withProjectTrailer } from '../engine/commit-comment.js';
import { ActivationMismatchError, ActivationUnknownError, PlanFileMismatchError, StalePlanError, ValidatorRejectedError } from '../engine/errors.js';
import type { Backlog, ProgressListener } from './steps/execute.js';
import type { State } from '../engine/model.js';
import type { Plan } from '../engine/plan-types.js';
import type { PlanFile } from '../engine/plan-file.js';
import { desiredDifference, planDifference } from '../engine/saved-plan-check.js';
import { planFileOfRun, prepareSavedPlan } from './steps/saved-plan.js';
import type { Planned, Prepared, RunInput, VariantMemo } from './steps/pipeline.js';
import { connectionFor, declaredVersions, executeAndValidate, ignoreInForce, preparedForGateway, prepare, readAndPlan, reloadFor } from './steps/pipeline.js';
import { redoTransaction, samePlan } from './steps/retry-transaction.js';
import { outsideChanges } from './steps/outside-changes.js';
import { appliedVersions, mergeVersions, setObjectVersions, withVersionTrailer } from '../engine/secret-versions.js';
import { ApiError, ConnectionError, InterruptedError, SessionError, UnexpectedResponseError } from '../gateway/errors.js';

/**
 * How an apply ended without an error: `no-changes` (nothing to do), `cancelled` (the
 * answer to the question was not "yes"; nothing was changed), `activated`.
 */
export type ApplyOutcome = 'no-changes' | 'cancelled' | 'activated';

/**
 * Result of {@link runApply}; the diagnostics returned beside it are the validator's
 * messages (none when nothing was executed).
 */
export interface ApplyResult extends Planned {
  readonly prepared: Prepared;
  readonly outcome: ApplyOutcome;
  readonly comment?: string;
  /** The configuration entry that this run activated, as the configurations list shows it. */
  readonly activation?: ConfigurationEntry;
}

/**
 * What an apply runs on ({@link prepareApply}): the manifests prepared, or a saved plan's
 * desired state (`saved`) with the run input of the target it names (`run`).
 */
export interface PreparedApply {
  readonly prepared: Prepared;
  readonly saved?: PlanFile | undefined;
  readonly run: RunInput;
}

/**
 * The first stage of `gwops apply`, before any gateway is contacted: the manifests
 * prepared ({@link prepare}; their warnings returned for the caller to show), or the plan
 * file read (`input.planFile`, saved-plan.ts `prepareSavedPlan`).
 * @throws ManifestError; for a plan file InputError, PlanGatewayMismatchError and what
 *   resolving its connection throws
 */
export async function prepareApply(input: ApplyInput): Promise<Diagnosed<PreparedApply>> {
  if (input.planFile === undefined) {
    const { result, diagnostics } = await prepare(input);
    return { result: { prepared: result, run: input }, diagnostics };
  }
  const fromFile = await prepareSavedPlan(input, input.planFile);
  const diagnostics = await checkBoundToCheckout(input.planFile, fromFile.saved, fromFile.prepared, fromFile.input);
  return { result: { prepared: fromFile.prepared, saved: fromFile.saved, run: fromFile.input }, diagnostics };
}

/**
 * Inside a project (a project file that lists its manifests), a plan file is applied only
 * when its desired state, ownership scope and mass-delete share are what the checkout's
 * manifests and project file make for the plan's target: a file edited consistently (desired
 * state, step and call alike) is refused before any gateway is contacted. Outside a project
 * only the signature binds a file (plan-signing.ts). docs/architecture.md "Saved plans".
 * @returns the manifests' warnings
 * @throws PlanFileMismatchError naming the first difference; ManifestError when the
 *   manifests do not load (their variables and secrets are needed, as for plan)
 */
async function checkBoundToCheckout(file: string, saved: PlanFile, fromFile: Prepared, run: RunInput): Promise<Diagnostics> {
  const project = fromFile.loaded.project;
  if (project.file === undefined || project.manifests.length === 0) return Diagnostics.none;
  const { result, diagnostics } = await prepare({ ...run, paths: [] });
  const made = planFileOfRun(saved, result, run, {});
  const difference = desiredDifference(saved, made);
  if (difference !== undefined) {
    throw new PlanFileMismatchError(
      `plan file ${file} does not hold the desired state that the manifests of this checkout make for ${saved.gateway.target !== undefined ? `target '${saved.gateway.target}'` : 'its gateway'}: ` +
        `${difference}; nothing was sent: apply a plan file in the checkout of the commit it was made from, or run gwops plan --out again`,
    );
  }
  return diagnostics;
}

/** Options of {@link runApply} beyond the shared ones. */
export interface ApplyInput extends RunInput {
  /**
   * A saved plan (`--plan`, saved-plan.ts): its desired state replaces the manifests
   * (`paths` is not read); refused when made against another gateway, when the live
   * state changed since it was made, or when its steps and calls are not the plan its
   * desired state makes (saved-plan-check.ts).
   */
  readonly planFile?: string | undefined;
  /** The activation comment (`--comment`); when absent, derived from the commit of the plan file, else from `commit`. */
  readonly comment?: string | undefined;
  /** The commit being applied (commit-comment.ts `readCommitInfo`), for the activation comment. */
  readonly commit?: CommitInfo | undefined;
  /**
   * Asked once the plan is known and before anything is changed; false stops without
   * changes (outcome `cancelled`). May throw (e.g. ConsentRequiredError) to stop with an
   * error. `signal` aborts when the run is interrupted.
   */
  readonly confirm: (plan: Plan, signal: AbortSignal) => Promise<boolean>;
  readonly onProgress?: ProgressListener | undefined;
  /**
   * Told the plan before execution (to print it), with the desired and live state it was
   * made from (to draw it). It may instead return what it has yet to print, as a
   * {@link Backlog}, when `confirm` asks nobody (`--yes`): the run works on it while the
   * calls wait for their answers and finishes it before it returns or throws.
   */
  readonly onPlan?: ((plan: Plan, states: { readonly desired: State; readonly live: State }) => Backlog | undefined) | undefined;
  /** How long a signal may wait for the answer to an activation request already sent. Milliseconds; default 30 000. */
  readonly activationWaitMs?: number | undefined;
  /**
   * `--backup-dir`: after consent and before the first edit, told the export of the active
   * configuration (`GET /configuration/configurations/export` right after load-active: a zip
   * archive, which holds the configuration's private keys and other secrets), its entry in
   * the configurations list (undefined when the list marks none active) and the gateway's
   * URL. Whatever it throws stops the run before anything is changed.
   */
  readonly backup?: ((archive: Buffer, active: ConfigurationEntry | undefined, gatewayUrl: string) => Promise<void>) | undefined;
  /**
   * `--retry-on-conflict N`: how many times a refused activation (409
   * `OUTDATED_CONFIGURATION`) is answered by planning again in a new session (see
   * retry-transaction.ts). Default 0: the run stops with the error.
   */
  readonly retryOnConflict?: number | undefined;
}

/**
 * `gwops apply`: executes the plan, reads validator messages, and activates only when
 * there is no ERROR (never with `ignoreOutdatedConfiguration`). The outcome reported is
 * the one the gateway shows: after the documented success answer, the configurations
 * list must show a new active entry with this run's comment. Once the activation request
 * is sent, a signal waits (at most `activationWaitMs`) for its answer.
 * @throws ValidatorRejectedError (exit 3), ApplyFailedError, StalePlanError,
 *   OutdatedConfigurationError, ManifestError, ActivationUnknownError,
 *   ActivationMismatchError, whatever `confirm` throws, connection and API errors (exit
 *   1), InterruptedError (exit 129/130/143, saying whether the activation happened)
 */
export async function runApply(input: ApplyInput, { prepared: loaded, saved, run }: PreparedApply): Promise<Diagnosed<ApplyResult>> {
  // A saved plan brings its own desired state and scope; only the connection comes from the options.
  const connection = connectionFor(run, loaded);
  const variantMemo: VariantMemo = {};
  // The plan the user last saw and consented to (a redone transaction asks again only when its plan differs).
  let shown: Plan | undefined;
  const policy = { retryOnConflict: input.retryOnConflict ?? 0, warn: input.warn };
  return redoTransaction(policy, (attempt) => withSession({ ...connection, onWarning: input.warn }, async (session, signal, scope) => {
    const prepared = await preparedForGateway(session, loaded, connection.declaredVariant, variantMemo, saved ? undefined : reloadFor(input));
    const planned = await readAndPlan(session, prepared, run, saved ? savedDigestKey(saved, run.planSigningKey) : run.planSigningKey, ignoreInForce(prepared, run));
    if (saved) {
      const why = attempt.redoing === undefined ? '' : ' (checked again in a new session after the first one could not activate)';
      if (saved.liveDigest !== planned.plan.liveDigest) {
        throw new StalePlanError(
          `the live configuration changed since plan file ${input.planFile ?? ''} was made${why}; nothing was activated; run gwops plan again`,
        );
      }
      // What is sent is the plan made again, which must be the file's to the last member.
      const difference = planDifference(saved, planned.plan);
      if (difference !== undefined) {
        throw new PlanFileMismatchError(
          `plan file ${input.planFile ?? ''} does not match the plan its desired state makes against the live state${why}: ${difference}; ` +
            'nothing was changed; a plan file is not edited by hand: run gwops plan --out again',
        );
      }
    }
    const consented = shown !== undefined && samePlan(shown, planned.plan);
    if (!consented && !saved && input.onOutsideChanges) {
      const outside = await outsideChanges(session, prepared, planned, run);
      if (outside) input.onOutsideChanges(outside);
    }
    // The heap's growth is bounded for the calls once the plan is shown (executeAndValidate, src/core/heap.ts).
    const backlog = consented ? undefined : input.onPlan?.(planned.plan, { desired: planned.desired ?? prepared.desired, live: planned.live });
    try {
      if (planned.plan.steps.length === 0) return { result: { ...planned, prepared, outcome: 'no-changes' }, diagnostics: Diagnostics.none };
      if (!consented) {
        shown = planned.plan;
        if (!(await input.confirm(planned.plan, signal))) return { result: { ...planned, prepared, outcome: 'cancelled' }, diagnostics: Diagnostics.none };
      }
      if (input.backup) {
        // The session holds an unedited copy of the active configuration: its export is the backup.
        const active = (await session.configurations()).find((e) => e.configType === 'CURRENTLY_ACTIVE');
        await input.backup(await session.exportConfiguration(), active, connection.url);
      }
      const { messages } = await executeAndValidate(session, prepared, planned, signal, input.onProgress, input.progress, backlog);
      // What was not yet printed of the plan is printed before anything follows it.
      backlog?.finish();
      if (hasErrors(messages)) throw new ValidatorRejectedError(messages);
      input.progress?.phase('activating');
      const before = await session.configurations();
      const project = projectId(prepared.loaded.project.ownership);
      const own = input.comment === undefined ? activationComment({ ...(saved?.commit ?? input.commit), project }) : withProjectTrailer(input.comment, project);
      const comment = commentWithVersions(own, prepared, planned, before);
      const activation = await activate(session, scope, comment, before, input.activationWaitMs ?? 30_000);
      if (signal.aborted && signal.reason instanceof InterruptedError) {
        throw new InterruptedError(signal.reason.signal, 'activated');
      }
      return { result: { ...planned, prepared, outcome: 'activated', comment, activation }, diagnostics: Diagnostics.of(messages) };
    } finally {
      backlog?.finish();
    }
  }));
}

/**
 * The key to compute a saved plan's live digest again with: the plan-signing key when the
 * file's digest is keyed (`hmac-sha256:`), none for a plain one (`sha256:`), so that both
 * runs compute it alike whichever API key each uses (live-digest.ts).
 */
function savedDigestKey(saved: PlanFile, key: string | undefined): string | undefined {
  return saved.liveDigest.startsWith('hmac-sha256:') ? key : undefined;
}

const ACTIVATE_PATH = '/configuration/configurations/activate';

/**
 * The activation comment with the trailer of applied secret versions
 * (secret-versions.ts): the versions recorded so far, for objects still declared or live,
 * overwritten by the versions the manifests declare. Unchanged when there are none.
 */
function commentWithVersions(comment: string, prepared: Prepared, planned: Planned, before: readonly ConfigurationEntry[]): string {
  const recorded = planned.appliedVersions ?? appliedVersions(before);
  const kept: Record<string, Record<string, Readonly<Record<string, number>>>> = {};
  for (const [kind, names] of Object.entries(recorded)) {
    for (const [name, paths] of Object.entries(names)) {
      const known = [prepared.desired, planned.live].some((state) => [...state.objects.entries()].some(([k, objects]) => k === kind && objects.has(name)));
      if (known) setObjectVersions(kept, kind, name, paths);
    }
  }
  return withVersionTrailer(comment, mergeVersions(kept, declaredVersions(prepared.desired)));
}

/**
 * Sends the activation and confirms it through the configurations list; a signal that
 * comes meanwhile waits for the answer (at most `waitMs`). Shared with `gwops rollback`
 * (rollback.ts).
 * @param before the configurations list read just before activating
 * @returns the new active entry
 */
export async function activate(
  session: GatewaySession,
  scope: SessionScope,
  comment: string,
  before: readonly ConfigurationEntry[],
  waitMs: number,
): Promise<ConfigurationEntry> {
  try {
    return await scope.shield(
      async () => {
        await session.activate(comment);
        return confirmActivation(await session.configurations(), before, comment);
      },
      waitMs,
      'the activation request',
    );
  } catch (error) {
    if (error instanceof InterruptedError) throw new InterruptedError(error.signal, 'unknown');
    if (error instanceof SessionError && error.path !== ACTIVATE_PATH) {
      throw new ActivationUnknownError(`${error.method} ${error.path} failed: the REST session ended before the activation could be confirmed`, { cause: error });
    }
    if (error instanceof ConnectionError && error.phase === 'response') throw new ActivationUnknownError(error.message, { cause: error });
    if (error instanceof UnexpectedResponseError && error.path === ACTIVATE_PATH) {
      throw new ActivationUnknownError(error.message, { cause: error });
    }
    if (error instanceof ApiError && error.status >= 500) throw new ActivationUnknownError(error.message, { cause: error });
    throw error;
  }
}

function describeEntry(entry: ConfigurationEntry | undefined): string {
  if (!entry) return 'no configuration is marked active';
  const parts = [`configuration ${entry.id}`];
  if (entry.createdAt !== undefined) parts.push(`created ${entry.createdAt}`);
  if (entry.createdBy !== undefined) parts.push(`by ${entry.createdBy}`);
  parts.push(entry.comment !== undefined ? `with comment ${JSON.stringify(entry.comment)}` : 'without a comment');
  return parts.join(' ');
}

/**
 * The active entry after an activation, checked against the list before it: it must be
 * new (another id than the entry active before), carry this run's comment, and not be
 * older than the entry active before.
 * @throws ActivationMismatchError naming what is active instead
 */
export function confirmActivation(after: readonly ConfigurationEntry[], before: readonly ConfigurationEntry[], comment: string): ConfigurationEntry {
  const isActive = (e: ConfigurationEntry): boolean => e.configType === 'CURRENTLY_ACTIVE';
  const previous = before.find(isActive);
  const active = after.find(isActive);
  const older = previous?.createdAt !== undefined && active?.createdAt !== undefined && Date.parse(active.createdAt) < Date.parse(previous.createdAt);
  if (!active || active.id === previous?.id || active.comment !== comment || older) {
    throw new ActivationMismatchError(
      `the gateway answered the activation as a success, but its configurations list does not show this run's configuration ` +
        `(comment ${JSON.stringify(comment)}) as the active one: ${describeEntry(active)}. Run gwops drift to see the live state.`,
    );
  }
  return active;
}
