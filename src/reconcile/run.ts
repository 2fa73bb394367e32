/**
 * The reconciler's use cases `plan` and `drift` as functions that return data (the CLI
 * prints it), and the stages they share with `apply` (apply.ts). Data path
 * (docs/architecture.md "The data path"): manifests → desired state; one session →
 * load-active → one GET per kind → live state; diff → plan; execute in the session →
 * validator messages → activate (apply) or throw the edits away (plan).
 */
import { GwopsError, InputError } from '../errors.js';
import type { ConnectionInput, GatewaySession, ResolvedConnection, ValidatorMessage } from '../gateway/index.js';
import { resolveConnection, withSession } from '../gateway/index.js';
import type { ResourceType, Variant } from '../kinds/index.js';
import { KINDS, isResourceType, kindExistsIn } from '../kinds/index.js';
import type { Diagnostic, LoadResult } from '../manifest/index.js';
import { hasErrors, loadManifests } from '../manifest/index.js';
import type { SourceLocation } from '../manifest/types.js';
import type { ObjectKey } from '../object-key.js';
import { objectKey, parseObjectKey } from '../object-key.js';
import type { SecretRedactor } from '../secrets.js';
import { desiredState, identityHandles } from './desired.js';
import type { ExecutionReport, ProgressListener } from './execute.js';
import { executePlan } from './execute.js';
import { fetchLiveLists, kindsToFetch, ownershipPredicate } from './fetch.js';
import { liveState } from './live.js';
import type { ObjectRef, State } from './model.js';
import { buildPlan } from './plan.js';
import type { Plan } from './plan-types.js';

/** Options shared by plan, apply and drift (command-line flags). */
export interface RunInput extends Pick<ConnectionInput, 'url' | 'apiKeyFile' | 'caFile' | 'insecure' | 'timeout' | 'env' | 'cwd'> {
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
  /**
   * The run's secret registry (the CLI redacts all its output with it): the manifests'
   * secret values, the API key and the session cookie are registered into it.
   */
  readonly secrets?: SecretRedactor | undefined;
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
  input.secrets?.addAll(loaded.secretValues);
  if (hasErrors(loaded.diagnostics)) throw new ManifestError(loaded.diagnostics);
  for (const d of loaded.diagnostics) input.warn(`${d.file}:${d.line}:${d.column}: warning: ${d.message}`);
  return { loaded, desired: desiredState(loaded.documents), variant: loaded.variant };
}

/**
 * The connection of a run: `--url` or the target, the key never from a command-line value.
 * The API key is registered in `input.secrets`, which rides along (`secrets`) so that the
 * session opened with this connection registers its cookie and redacts error details.
 */
export function connectionFor(input: RunInput, prepared: Prepared): ResolvedConnection & { readonly secrets?: SecretRedactor } {
  const target = input.target ? prepared.loaded.project.targets[input.target] : undefined;
  const onlyTarget = Object.keys(prepared.loaded.project.targets);
  const implicit = !input.target && !input.url && onlyTarget.length === 1 ? prepared.loaded.project.targets[onlyTarget[0] ?? ''] : undefined;
  const connection = resolveConnection({
    url: input.url,
    target: target ?? implicit,
    targetName: input.target ?? (implicit ? onlyTarget[0] : undefined),
    apiKeyFile: input.apiKeyFile,
    caFile: input.caFile,
    insecure: input.insecure,
    timeout: input.timeout,
    env: input.env,
    cwd: input.cwd,
  });
  if (!input.secrets) return connection;
  input.secrets.add(connection.apiKey);
  // Object.assign keeps the connection's own (non-enumerable) toJSON, which hides the key.
  return Object.assign(connection, { secrets: input.secrets });
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
  const live = liveState(lists, identityHandles(prepared.desired));
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
  ids: ReadonlyMap<ObjectKey<ResourceType>, string>,
  loaded: LoadResult,
): LocatedValidatorMessage[] {
  const names = new Map<ObjectKey<ResourceType>, string>(); // objectKey(kind, id) → name
  for (const [key, id] of ids) {
    const { kind, name } = parseObjectKey(key);
    names.set(objectKey(kind, id), name);
  }
  return messages.map((m) => {
    const kind = m.model && isResourceType(m.model.type) ? m.model.type : undefined;
    const name = m.model && kind ? names.get(objectKey(kind, m.model.id)) : undefined;
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
export async function executeAndValidate(
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
