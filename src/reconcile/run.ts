/**
 * The reconciler's use case `plan` as a function that returns data (the CLI prints it),
 * and the stages it shares with `apply` (apply.ts) and `drift` (drift.ts). Data path
 * (docs/architecture.md "The data path"): manifests → desired state; one session →
 * load-active → one GET per kind → live state; diff → plan; execute in the session →
 * validator messages → activate (apply) or throw the edits away (plan).
 */
import { EXIT, GwopsError } from '../errors.js';
import type { ConnectionInput, GatewaySession, ResolvedConnection, ValidatorMessage, ValidatorSeverity } from '../gateway/index.js';
import { withSession } from '../gateway/index.js';
import type { ResourceType, Variant } from '../kinds/index.js';
import { KINDS, isResourceType, kindExistsIn } from '../kinds/index.js';
import type { Diagnostic, DiagnosticSeverity } from '../manifest/diagnostics.js';
import { VALIDATOR_MESSAGE_CODE, formatDiagnosticLine, objectDiagnostic } from '../manifest/diagnostics.js';
import type { LoadResult } from '../manifest/index.js';
import { hasErrors, loadManifests } from '../manifest/index.js';
import type { ObjectKey } from '../object-key.js';
import { objectKey, parseObjectKey } from '../object-key.js';
import type { SecretRedactor } from '../secrets.js';
import { projectConnection } from './connect.js';
import { desiredState, identityHandles } from './desired.js';
import { ApplyFailedError, ManifestError } from './errors.js';
import type { ExecutionReport, ProgressListener } from './execute.js';
import { executePlan } from './execute.js';
import { fetchLiveLists, kindsToFetch, ownershipPredicate } from './fetch.js';
import { liveState } from './live.js';
import type { State } from './model.js';
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
  /** Receives warnings (`--insecure`, failed session terminate; manifest warnings unless `onDiagnostics`). */
  readonly warn: (message: string) => void;
  /**
   * Receives the diagnostics of manifests that have no error (their warnings), before any
   * gateway is contacted. Without it, each goes to `warn` as one line of the text format.
   */
  readonly onDiagnostics?: ((diagnostics: readonly Diagnostic[]) => void) | undefined;
  /**
   * The run's secret registry (the CLI redacts all its output with it): the manifests'
   * secret values, the API key and the session cookie are registered into it.
   */
  readonly secrets?: SecretRedactor | undefined;
}

/** The reconciler's errors live in errors.ts; re-exported for existing callers. */
export { ApplyFailedError, ManifestError, ValidatorRejectedError } from './errors.js';

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
  if (loaded.diagnostics.length > 0) {
    if (input.onDiagnostics) input.onDiagnostics(loaded.diagnostics);
    else for (const d of loaded.diagnostics) input.warn(formatDiagnosticLine(d));
  }
  return { loaded, desired: desiredState(loaded.documents), variant: loaded.variant };
}

/**
 * The connection of a run: `--url` or the target, the key never from a command-line value.
 * The API key is registered in `input.secrets`, which rides along (`secrets`) so that the
 * session opened with this connection registers its cookie and redacts error details.
 */
export function connectionFor(input: RunInput, prepared: Prepared): ResolvedConnection & { readonly secrets?: SecretRedactor } {
  return projectConnection(prepared.loaded.project, input).connection;
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

const SEVERITY: Readonly<Record<ValidatorSeverity, DiagnosticSeverity>> = { ERROR: 'error', WARNING: 'warning', INFO: 'info' };

/**
 * The gateway's validator messages as diagnostics: the gateway's code (or
 * `validator-message` when it sent none) and detail, the object (mapped from its id
 * through the ids of the run) and the manifest position of the document that declares it.
 */
export function locateMessages(
  messages: readonly ValidatorMessage[],
  ids: ReadonlyMap<ObjectKey<ResourceType>, string>,
  loaded: Pick<LoadResult, 'locate'>,
): Diagnostic[] {
  const names = new Map<ObjectKey<ResourceType>, string>(); // objectKey(kind, id) → name
  for (const [key, id] of ids) {
    const { kind, name } = parseObjectKey(key);
    names.set(objectKey(kind, id), name);
  }
  return messages.map((m) => {
    const kind = m.model && isResourceType(m.model.type) ? m.model.type : undefined;
    const name = m.model && kind ? names.get(objectKey(kind, m.model.id)) : undefined;
    const object = kind && name !== undefined ? { kind, name } : undefined;
    return objectDiagnostic({
      severity: SEVERITY[m.severity],
      code: m.code === '' ? VALIDATOR_MESSAGE_CODE : m.code,
      object,
      source: object ? loaded.locate(object.kind, object.name) : undefined,
      message: m.detail,
    });
  });
}

/** Executes the plan in the session and reads the validator messages. */
export async function executeAndValidate(
  session: GatewaySession,
  prepared: Prepared,
  planned: Planned,
  signal: AbortSignal,
  onProgress?: ProgressListener,
): Promise<{ report: ExecutionReport; messages: Diagnostic[] }> {
  const report = await executePlan(session, planned.plan, prepared.desired, planned.live, { signal, onProgress });
  if (report.error !== undefined) {
    if (report.error instanceof GwopsError && report.error.exitCode !== EXIT.error) throw report.error;
    throw new ApplyFailedError(planned.plan, report);
  }
  const messages = locateMessages(await session.validatorMessages(), report.ids, prepared.loaded);
  return { report, messages };
}

/** Result of {@link runPlan}. */
export interface PlanResult extends Planned {
  readonly prepared: Prepared;
  /** The validator's messages about the edited working copy, as diagnostics; undefined with `--no-server-check` or an empty plan. */
  readonly messages?: readonly Diagnostic[];
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
