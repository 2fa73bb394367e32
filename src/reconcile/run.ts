/**
 * The reconciler's use cases: `plan`, `apply` and `drift` as functions that return data
 * (the CLI prints it). Data path (ARCHITECTURE.md): manifests → desired state; one
 * session → load-active → one GET per kind → live state; diff → plan; execute in the
 * session → validator messages → activate (apply) or throw the edits away (plan).
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { GwopsError, InputError } from '../errors.js';
import type { ConnectionInput, GatewaySession, ResolvedConnection, ValidatorMessage } from '../gateway/index.js';
import { ConnectionError, resolveConnection, withSession } from '../gateway/index.js';
import type { ResourceType, Variant } from '../kinds/index.js';
import { KINDS, kindExistsIn } from '../kinds/index.js';
import type { Diagnostic, LoadResult } from '../manifest/index.js';
import { hasErrors, loadManifests } from '../manifest/index.js';
import type { SourceLocation } from '../manifest/types.js';
import { certificateHandles, desiredState } from './desired.js';
import type { ExecutionReport, ProgressListener } from './execute.js';
import { executePlan } from './execute.js';
import { fetchLiveLists, kindsToFetch, ownershipPredicate } from './fetch.js';
import { liveState } from './live.js';
import type { ObjectRef, State } from './model.js';
import { buildPlan } from './plan.js';
import type { Plan } from './plan-types.js';
import { PLAN_FORMAT_VERSION } from './plan-types.js';

/** Options shared by plan, apply and drift (command-line flags). */
export interface RunInput extends Pick<ConnectionInput, 'url' | 'apiKeyFile' | 'caFile' | 'insecure' | 'env' | 'cwd'> {
  readonly paths: readonly string[];
  readonly stdin?: NodeJS.ReadableStream | undefined;
  readonly configFile?: string | undefined;
  /** A target of the project file (its URL, key, variant and overlays). */
  readonly target?: string | undefined;
  readonly variant?: Variant | undefined;
  readonly prune?: boolean | undefined;
  readonly allowMassDelete?: boolean | undefined;
  /** Receives warnings (manifest warnings, `--insecure`, failed session terminate). */
  readonly warn: (message: string) => void;
}

/** Manifests have errors: nothing was sent to any gateway. Exit code 1. */
export class ManifestError extends InputError {
  readonly diagnostics: readonly Diagnostic[];
  constructor(diagnostics: readonly Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    super(`the manifests have ${errors} error${errors === 1 ? '' : 's'}; nothing was sent to the gateway`);
    this.diagnostics = diagnostics;
  }
}

/** A validator message mapped back to the manifest that declares its object. */
export interface LocatedValidatorMessage {
  readonly severity: ValidatorMessage['severity'];
  readonly code: string;
  readonly detail: string;
  readonly object?: ObjectRef;
  readonly source?: SourceLocation;
}

/** The gateway's validator found errors: nothing was activated. Exit code 3. */
export class ValidatorRejectedError extends GwopsError {
  override readonly exitCode = 3;
  readonly messages: readonly LocatedValidatorMessage[];
  constructor(messages: readonly LocatedValidatorMessage[]) {
    const errors = messages.filter((m) => m.severity === 'ERROR').length;
    super(`the gateway's validator reported ${errors} error${errors === 1 ? '' : 's'}; nothing was activated`);
    this.messages = messages;
  }
}

/** A step of the plan failed inside the session: nothing was activated. Exit code 1. */
export class ApplyFailedError extends GwopsError {
  readonly report: ExecutionReport;
  readonly plan: Plan;
  constructor(plan: Plan, report: ExecutionReport) {
    const failed = report.outcomes.find((o) => o.status === 'failed');
    const step = plan.steps.find((s) => s.index === failed?.step);
    const reason = failed && failed.status === 'failed' ? failed.error : 'interrupted';
    super(
      `step ${failed?.step ?? '?'} (${step ? `${step.action} ${step.kind} '${step.name}'` : 'unknown'}) failed: ${reason}; ` +
        'nothing was activated and the session was terminated',
      { cause: report.error },
    );
    this.report = report;
    this.plan = plan;
  }
}

/**
 * The connection broke after the activation request was sent: whether the gateway
 * activated is unknown. Exit code 1; `gwops drift` tells.
 */
export class ActivationUnknownError extends GwopsError {
  constructor(cause: ConnectionError) {
    super(
      `${cause.message}; the activation request was sent, so the gateway may or may not have activated the configuration: ` +
        'run gwops drift to see the live state before applying again',
      { cause },
    );
  }
}

/** `apply --plan` was given a plan made against a different live state. Exit code 1. */
export class StalePlanError extends GwopsError {}

/** Loaded manifests and the desired state built from them. */
export interface Prepared {
  readonly loaded: LoadResult;
  readonly desired: State;
  readonly variant: Variant;
}

/**
 * Loads and validates the manifests; nothing is contacted.
 * @throws ManifestError when any diagnostic is an error (warnings go to `input.warn`)
 */
export async function prepare(input: RunInput): Promise<Prepared> {
  const loaded = await loadManifests({
    paths: input.paths,
    cwd: input.cwd,
    env: input.env,
    ...(input.stdin ? { stdin: input.stdin } : {}),
    ...(input.configFile ? { configFile: input.configFile } : {}),
    ...(input.target ? { target: input.target } : {}),
    ...(input.variant ? { variant: input.variant } : {}),
  });
  if (hasErrors(loaded.diagnostics)) throw new ManifestError(loaded.diagnostics);
  for (const d of loaded.diagnostics) input.warn(`${d.file}:${d.line}:${d.column}: warning: ${d.message}`);
  return { loaded, desired: desiredState(loaded.documents), variant: loaded.variant };
}

/** The connection of a run: `--url` or the target, the key never from a command-line value. */
export function connectionFor(input: RunInput, prepared: Prepared): ResolvedConnection {
  const target = input.target ? prepared.loaded.project.targets[input.target] : undefined;
  const onlyTarget = Object.keys(prepared.loaded.project.targets);
  const implicit = !input.target && !input.url && onlyTarget.length === 1 ? prepared.loaded.project.targets[onlyTarget[0] ?? ''] : undefined;
  return resolveConnection({
    url: input.url,
    target: target ?? implicit,
    targetName: input.target ?? (implicit ? onlyTarget[0] : undefined),
    apiKeyFile: input.apiKeyFile,
    caFile: input.caFile,
    insecure: input.insecure,
    env: input.env,
    cwd: input.cwd,
  });
}

/** Live state and the plan against it. */
export interface Planned {
  readonly live: State;
  readonly plan: Plan;
}

/** Reads live state in the open session and builds the plan (pure after the GETs). */
export async function readAndPlan(session: GatewaySession, prepared: Prepared, input: RunInput): Promise<Planned> {
  await session.loadActive();
  const scope = prepared.loaded.project.ownership;
  const available = KINDS.filter((k) => kindExistsIn(k, prepared.variant)).map((k) => k.type);
  const kinds = kindsToFetch(prepared.desired, scope, available);
  const lists = await fetchLiveLists(session, kinds, prepared.desired, scope);
  const live = liveState(lists, certificateHandles(prepared.desired));
  const plan = buildPlan(prepared.desired, live, {
    prune: input.prune === true,
    isOwned: ownershipPredicate(scope),
    allowMassDelete: input.allowMassDelete === true,
    massDeleteShare: prepared.loaded.project.massDeleteShare,
  });
  return { live, plan };
}

/** Maps the gateway's validator messages to manifest positions through the ids of the run. */
export function locateMessages(
  messages: readonly ValidatorMessage[],
  ids: ReadonlyMap<string, string>,
  loaded: LoadResult,
): LocatedValidatorMessage[] {
  const names = new Map<string, string>();
  for (const [key, id] of ids) {
    const [kind = '', name = ''] = key.split('\u0000');
    names.set(`${kind}\u0000${id}`, name);
  }
  return messages.map((m) => {
    const name = m.model ? names.get(`${m.model.type}\u0000${m.model.id}`) : undefined;
    const kind = m.model?.type as ResourceType | undefined;
    const object = kind && name !== undefined ? { kind, name } : undefined;
    const source = object ? loaded.locate(object.kind, object.name) : undefined;
    return {
      severity: m.severity,
      code: m.code,
      detail: m.detail,
      ...(object ? { object } : {}),
      ...(source ? { source } : {}),
    };
  });
}

/** Executes the plan in the session and reads the validator messages. */
async function executeAndValidate(
  session: GatewaySession,
  prepared: Prepared,
  planned: Planned,
  signal: AbortSignal,
  onProgress?: ProgressListener,
): Promise<{ report: ExecutionReport; messages: LocatedValidatorMessage[] }> {
  const report = await executePlan(session, planned.plan, prepared.desired, planned.live, { signal, onProgress });
  if (report.error !== undefined) {
    if (report.error instanceof GwopsError && report.error.exitCode !== 1) throw report.error;
    throw new ApplyFailedError(planned.plan, report);
  }
  const messages = locateMessages(await session.validatorMessages(), report.ids, prepared.loaded);
  return { report, messages };
}

/** Result of {@link runPlan}. */
export interface PlanResult extends Planned {
  readonly prepared: Prepared;
  /** Validator messages of the edited working copy; undefined with `--no-server-check` or an empty plan. */
  readonly messages?: readonly LocatedValidatorMessage[];
}

/**
 * `gwops plan`: builds the plan; unless `serverCheck` is false, executes it in the session
 * and reads the validator messages, then terminates without saving (nothing persisted).
 */
export async function runPlan(input: RunInput & { readonly serverCheck: boolean }): Promise<PlanResult> {
  const prepared = await prepare(input);
  const connection = connectionFor(input, prepared);
  return withSession({ ...connection, onWarning: input.warn }, async (session, signal) => {
    const planned = await readAndPlan(session, prepared, input);
    if (!input.serverCheck || planned.plan.steps.length === 0) return { ...planned, prepared };
    const { messages } = await executeAndValidate(session, prepared, planned, signal);
    return { ...planned, prepared, messages };
  });
}

/** Result of {@link runApply}. */
export interface ApplyResult extends Planned {
  readonly prepared: Prepared;
  readonly activated: boolean;
  readonly comment?: string;
  readonly messages: readonly LocatedValidatorMessage[];
}

/** Options of {@link runApply} beyond the shared ones. */
export interface ApplyInput extends RunInput {
  /** A saved plan (`--plan`); refused when the live state changed since it was made. */
  readonly planFile?: string | undefined;
  readonly comment: string;
  /** Asked before anything is changed; false stops without changes. */
  readonly confirm: (plan: Plan) => Promise<boolean>;
  readonly onProgress?: ProgressListener | undefined;
  /** Told the plan before execution (to print it). */
  readonly onPlan?: ((plan: Plan) => void) | undefined;
}

/** Reads and checks a saved plan file. @throws InputError when unreadable or of another format version */
export async function readPlanFile(file: string, cwd: string): Promise<Plan> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(resolve(cwd, file), 'utf8'));
  } catch (error) {
    throw new InputError(`cannot read plan file ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const version = (parsed as { formatVersion?: unknown } | null)?.formatVersion;
  if (version !== PLAN_FORMAT_VERSION) {
    throw new InputError(`plan file ${file} has formatVersion ${JSON.stringify(version)}; this gwops reads ${PLAN_FORMAT_VERSION}`);
  }
  return parsed as Plan;
}

/**
 * `gwops apply`: executes the plan, reads validator messages, and activates only when
 * there is no ERROR (never with `ignoreOutdatedConfiguration`).
 * @throws ValidatorRejectedError (exit 3), ApplyFailedError, StalePlanError,
 *   OutdatedConfigurationError, ManifestError, connection and API errors (exit 1)
 */
export async function runApply(input: ApplyInput): Promise<ApplyResult> {
  const prepared = await prepare(input);
  const saved = input.planFile ? await readPlanFile(input.planFile, input.cwd) : undefined;
  const connection = connectionFor(input, prepared);
  return withSession({ ...connection, onWarning: input.warn }, async (session, signal) => {
    const fresh = await readAndPlan(session, prepared, input);
    if (saved && saved.liveDigest !== fresh.plan.liveDigest) {
      throw new StalePlanError(
        `the live configuration changed since plan file ${input.planFile ?? ''} was made; run gwops plan again`,
      );
    }
    const planned: Planned = saved ? { live: fresh.live, plan: saved } : fresh;
    input.onPlan?.(planned.plan);
    if (planned.plan.steps.length === 0) return { ...planned, prepared, activated: false, messages: [] };
    if (!(await input.confirm(planned.plan))) return { ...planned, prepared, activated: false, messages: [] };
    const { messages } = await executeAndValidate(session, prepared, planned, signal, input.onProgress);
    if (messages.some((m) => m.severity === 'ERROR')) throw new ValidatorRejectedError(messages);
    try {
      await session.activate(input.comment);
    } catch (error) {
      if (error instanceof ConnectionError && error.phase === 'response') throw new ActivationUnknownError(error);
      throw error;
    }
    return { ...planned, prepared, activated: true, comment: input.comment, messages };
  });
}

/** Result of {@link runDrift}. */
export interface DriftResult extends Planned {
  readonly prepared: Prepared;
  /** True when live differs from desired or owned objects exist that no manifest declares. */
  readonly drifted: boolean;
}

/** `gwops drift`: plans without executing anything. */
export async function runDrift(input: RunInput): Promise<DriftResult> {
  const prepared = await prepare(input);
  const connection = connectionFor(input, prepared);
  return withSession({ ...connection, onWarning: input.warn }, async (session) => {
    const planned = await readAndPlan(session, prepared, { ...input, prune: false });
    const drifted = planned.plan.steps.length > 0 || planned.plan.unmanaged.length > 0;
    return { ...planned, prepared, drifted };
  });
}
