/**
 * The reconcile pipeline: the stages that the use cases `plan`, `apply`, `drift` and
 * `rollback` (src/operations/*.ts) are made of, each a function that returns data. Data path
 * (docs/architecture.md "The data path"): manifests → desired state; one session →
 * load-active → one GET per kind → live state; diff → plan; execute in the session →
 * validator messages → activate (apply) or throw the edits away (plan).
 */
import { NODE_PUBLIC_KEYS } from '../../jwks/node-keys.js';
import { NODE_DIGESTS } from '../../crypto/node.js';
import { ConfigError, GwopsError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import type { ConnectionInput, GatewaySession, ResolvedConnection, ValidatorMessage, ValidatorSeverity } from '../../gateway/index.js';
import type { ResourceType, Variant } from '../../kinds/index.js';
import { KINDS, isResourceType, kindExistsIn } from '../../kinds/index.js';
import type { Diagnosed, Diagnostic, DiagnosticSeverity } from '../../core/diagnostics.js';
import { Diagnostics, VALIDATOR_MESSAGE_CODE, objectDiagnostic } from '../../core/diagnostics.js';
import type { LoadResult } from '../../manifest/index.js';
import { loadManifests } from '../../manifest/index.js';
import type { ObjectKey } from '../../core/object-key.js';
import { objectKey, parseObjectKey } from '../../core/object-key.js';
import type { SecretRedactor } from '../../core/secrets.js';
import { resolveJwksReferences } from './jwks-resolve.js';
import type { OutsideChanges } from './outside-changes.js';
import type { JwksFetcher } from './jwks-resolve.js';
import { projectConnection } from './connect.js';
import { desiredState, identityHandles } from '../../engine/desired.js';
import { ApplyFailedError, ManifestError } from '../../engine/errors.js';
import type { Backlog, ProgressListener } from './execute.js';
import type { ExecutionReport, Plan } from '../../engine/plan-types.js';
import { executePlan } from './execute.js';
import { settleHeapForPlanning, boundHeapForCalls } from '../../core/heap.js';
import { fetchLinkEnds, fetchLiveLists } from './fetch.js';
import { withLiveContent } from './fetch-content.js';
import { readSubResources } from './sub-resources.js';
import { kindsToFetch, ownershipPredicate } from '../../engine/fetch-scope.js';
import { liveState } from '../../engine/live.js';
import { outsideScopeTest } from '../../engine/ownership.js';
import type { State } from '../../engine/model.js';
import { erroredPlanError, planOutcome } from '../../engine/plan.js';
import type { SecretVersions } from '../../engine/secret-versions.js';
import { appliedVersions as readAppliedVersions, isEmptyVersions, setObjectVersions } from '../../engine/secret-versions.js';
import type { ProgressReporter } from '../../engine/progress.js';
import type { DeclaredVariant } from '../../engine/variant.js';
import { gatewayVariant } from '../../engine/variant.js';
import type { DriftIgnoreEntry } from '../../manifest/drift-ignore.js';
import { entriesInForce } from '../../manifest/drift-ignore.js';
import { lookalikeNames, lookalikeWarning } from '../../engine/lookalike-names.js';

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
  /** Told the phase of the run and its progress (src/engine/progress.ts); the CLI draws it on stderr. */
  readonly progress?: ProgressReporter | undefined;
  /**
   * Keep what `LoadResult.origins` answers from (only `drift --adopt` asks it); default
   * false: that memory is freed once the manifests are loaded (manifest/index.ts `keepOrigins`).
   */
  readonly keepOrigins?: boolean | undefined;
  /**
   * Read the names of the objects outside the fetched lists that links and references name
   * (drift: its report names them instead of `#id:<id>`); default false.
   */
  readonly nameLinkEnds?: boolean | undefined;
  /** Accept paths that hold no manifest document (`--allow-empty`); else `prepare` throws an InputError naming them. */
  readonly allowEmpty?: boolean | undefined;
  /**
   * Live notices of the connection and the session, told as they happen: TLS verification
   * off (`--insecure`), a call still running, a signal being handled, a session that could
   * not be terminated, a transaction redone. Problems of the configuration never come this
   * way: they are diagnostics, returned ({@link Diagnosed}) or thrown.
   */
  readonly warn: (message: string) => void;
  /**
   * The run's secret registry (the CLI redacts all its output with it): the manifests'
   * secret values, the API key and the session cookie are registered into it.
   */
  readonly secrets?: SecretRedactor | undefined;
  /** Fetches JWK Sets for `{ fromJwks }` values; default undici over HTTPS (src/operations/steps/jwks-fetch.ts). */
  readonly fetchJwks?: JwksFetcher | undefined;
  /**
   * The plan-signing key (src/operations/steps/plan-signing.ts), when one is configured: it
   * keys the live digest (src/engine/live-digest.ts), signs `plan --out` and checks `apply
   * --plan`. Never printed, never written.
   */
  readonly planSigningKey?: string | undefined;
  /** The clock that decides which `drift.ignore` entries are in force; default the system's. */
  readonly now?: (() => Date) | undefined;
  /** Told, by plan and apply before anything is changed, the changes made on the gateway since this project's last apply that the plan reverts (outside-changes.ts). */
  readonly onOutsideChanges?: ((changes: OutsideChanges) => void) | undefined;
}

/** Loaded manifests and the desired state built from them. */
export interface Prepared {
  readonly loaded: LoadResult;
  readonly desired: State;
  readonly variant: Variant;
  /** RFC 7638 thumbprint → kid of every key of the JWK Sets fetched for `{ fromJwks }` values (plans name keys by them). */
  readonly keyNames: ReadonlyMap<string, string>;
  /**
   * A saved plan's: the desired state to plan with once the live state is read (its
   * secrets read or taken as live, see saved-plan.ts); `desired` until then.
   */
  readonly completeDesired?: ((live: State) => State) | undefined;
}

/**
 * Loads and validates the manifests and fetches the JWK Sets their `{ fromJwks }` values
 * name (once per source); no gateway is contacted. The caller shows the diagnostics
 * returned (the manifests' warnings) before it runs plan, apply or drift with the result.
 * @throws ManifestError carrying every diagnostic when any is an error, or when a
 *   `{ fromJwks }` value cannot be resolved (located, naming the URL)
 */
export async function prepare(input: RunInput): Promise<Diagnosed<Prepared>> {
  input.progress?.phase('reading manifests');
  const loaded = await loadManifests({
    paths: input.paths,
    cwd: input.cwd,
    env: input.env,
    ...(input.stdin ? { stdin: input.stdin } : {}),
    ...(input.configFile ? { configFile: input.configFile } : {}),
    ...(input.target ? { target: input.target } : {}),
    ...(input.variant ? { variant: input.variant } : {}),
    requireDocuments: input.allowEmpty !== true,
    keepOrigins: input.keepOrigins === true,
  });
  input.secrets?.addAll(loaded.secretValues);
  const diagnostics = Diagnostics.of(loaded.diagnostics).throwIfErrors((d) => new ManifestError(d.all()));
  if (loaded.jwksReferences.length === 0) {
    return { result: { loaded, desired: desiredState(loaded.documents), variant: loaded.variant, keyNames: new Map() }, diagnostics };
  }
  // The keys are fetched before any gateway is contacted: a problem stops the run first.
  const jwks = await resolveJwksReferences(loaded.documents, loaded.jwksReferences, loaded.project.jwks, input.fetchJwks);
  diagnostics.append(jwks.problems).throwIfErrors((d) => new ManifestError(d.all()));
  const prepared = { loaded: { ...loaded, documents: jwks.documents }, desired: desiredState(jwks.documents), variant: loaded.variant, keyNames: jwks.kids };
  return { result: prepared, diagnostics };
}

/**
 * The connection of a run: `--url` or the target, the key never from a command-line value.
 * The API key is registered in `input.secrets`, which rides along (`secrets`) so that the
 * session opened with this connection registers its cookie and redacts error details.
 */
export function connectionFor(input: RunInput, prepared: Prepared): ResolvedConnection & { readonly secrets?: SecretRedactor; readonly declaredVariant?: DeclaredVariant } {
  input.progress?.phase('connecting');
  const { connection, declaredVariant } = projectConnection(prepared.loaded.project, input);
  // The declared variant rides along (not enumerable: it is no connection option).
  return Object.defineProperty(connection, 'declaredVariant', { value: declaredVariant, enumerable: false });
}

/** The gateway's variant once read in a run (apply may open a second session). */
export interface VariantMemo {
  variant?: Variant;
}

/**
 * The manifests prepared for the gateway's own variant: reads the version the gateway
 * reports (`GET /system/status/node`) once per run (`memo`), picks the variant from it
 * (variant.ts), and refuses a declared variant (`--variant`, the target's) that
 * contradicts it. When none was declared and the manifests were loaded for another
 * variant, `reload` loads them again for the gateway's (their diagnostics were shown).
 * @param reload undefined when the desired state cannot be loaded again (a saved plan)
 * @throws ConfigError when the declared variant, or the saved plan's, is not the gateway's;
 *   ManifestError when the manifests are invalid in the gateway's variant
 */
export async function preparedForGateway(
  session: Pick<GatewaySession, 'nodeVersion'>,
  prepared: Prepared,
  declared: DeclaredVariant | undefined,
  memo: VariantMemo,
  reload?: (variant: Variant) => Promise<Prepared>,
): Promise<Prepared> {
  memo.variant ??= gatewayVariant(await session.nodeVersion(), declared);
  if (memo.variant === prepared.variant) return prepared;
  if (declared === undefined && reload) return reload(memo.variant);
  throw new ConfigError(`the desired state was made for the ${prepared.variant} variant, but the gateway is the ${memo.variant} variant; nothing was changed: make the plan again against this gateway`);
}

/**
 * Loads the manifests again for `variant` (see {@link preparedForGateway}). Their
 * warnings were shown when they were first prepared; errors in this variant are thrown.
 */
export function reloadFor(input: RunInput): (variant: Variant) => Promise<Prepared> {
  return async (variant) => (await prepare({ ...input, variant })).result;
}

/** Live state and the plan against it. */
export interface Planned {
  readonly live: State;
  readonly plan: Plan;
  /** The desired state the plan was made from, when it is not `Prepared.desired` (a saved plan's, completed). */
  readonly desired?: State | undefined;
  /** The secret versions recorded on the gateway (read only when the manifests declare any). */
  readonly appliedVersions?: SecretVersions | undefined;
}

/** The versions the desired state declares (secret-versions.ts), by kind, name and path. */
export function declaredVersions(desired: State): SecretVersions {
  const out: Record<string, Record<string, Readonly<Record<string, number>>>> = {};
  for (const [kind, objects] of desired.objects) {
    for (const object of objects.values()) {
      if (object.secretVersions) setObjectVersions(out, kind, object.name, object.secretVersions);
    }
  }
  return out;
}

/**
 * The live state of `kinds`, read in the open session. The fetched lists are left behind
 * when it returns: planning never holds them beside the live state built from them (at
 * 100,000 mappings that is hundreds of MB).
 */
async function readLiveState(session: GatewaySession, kinds: readonly ResourceType[], prepared: Prepared, input: RunInput): Promise<State> {
  const scope = prepared.loaded.project.ownership;
  const lists = await fetchLiveLists(session, kinds, prepared.desired, scope, (done) => input.progress?.update(done));
  // Drift names the link ends outside the narrowed lists (one more GET per kind that has any).
  const linkEnds = input.nameLinkEnds === true ? await fetchLinkEnds(session, lists) : undefined;
  input.progress?.phase('planning');
  return liveState(lists, identityHandles(prepared.desired), linkEnds);
}

/**
 * Reads live state in the open session and builds the plan (pure after the GETs).
 * @throws MassDeleteError, OutsideScopeError (carrying the plan) for an errored plan
 *   (src/engine/plan.ts `planOutcome`)
 * @param digestKey the plan-signing key, which keys the live digest (live-digest.ts
 *   `liveStateDigest`); without it the digest is a plain SHA-256 with secrets masked
 */
export async function readAndPlan(session: GatewaySession, prepared: Prepared, input: RunInput, digestKey?: string, ignore?: readonly DriftIgnoreEntry[]): Promise<Planned> {
  await session.loadActive();
  const scope = prepared.loaded.project.ownership;
  const available = KINDS.filter((k) => kindExistsIn(k, prepared.variant)).map((k) => k.type);
  const kinds = kindsToFetch(prepared.desired, scope, available);
  input.progress?.phase('reading live state', kinds.length);
  const listed = await readSubResources(session, prepared.desired, await readLiveState(session, kinds, prepared, input));
  const desired = prepared.completeDesired?.(listed) ?? prepared.desired;
  const live = await withLiveContent(session, desired, listed);
  // The configurations list is read only when some secret declares a version.
  const appliedVersions = isEmptyVersions(declaredVersions(desired)) ? undefined : readAppliedVersions(await session.configurations());
  const massDeleteShare = prepared.loaded.project.massDeleteShare;
  settleHeapForPlanning(newObjects(desired, live));
  const outcome = planOutcome(desired, live, {
    prune: input.prune === true,
    isOwned: ownershipPredicate(scope),
    outsideScope: outsideScopeTest(scope),
    allowMassDelete: input.allowMassDelete === true,
    massDeleteShare,
    keyNames: prepared.keyNames,
    appliedVersions,
    digestKey,
    digests: NODE_DIGESTS,
    publicKeys: NODE_PUBLIC_KEYS,
    ignore,
  });
  // An errored plan (mass-delete guard, ownership scope) stops the run; the error carries what the CLI shows of it.
  const refused = erroredPlanError(outcome, massDeleteShare);
  if (refused) throw refused;
  for (const found of lookalikeNames(desired, live)) input.warn(lookalikeWarning(found));
  const plan = outcome.plan;
  // Kept ignored differences make a desired state of their own (the executor refills secrets from it).
  const planned = outcome.desired ?? desired;
  return { live, plan, appliedVersions, ...(planned !== prepared.desired ? { desired: planned } : {}) };
}

/**
 * The `drift.ignore` entries in force for a plan or an apply at `input.now` (default the
 * system clock): the differences they match are kept (src/engine/ignored-differences.ts).
 */
export function ignoreInForce(prepared: Prepared, input: RunInput): readonly DriftIgnoreEntry[] {
  return entriesInForce(prepared.loaded.project.drift, input.now?.() ?? new Date()).active;
}

/** Desired objects the live state holds none of by their name: about what a plan creates (what the heap's growth is sized for). */
function newObjects(desired: State, live: State): number {
  let count = 0;
  for (const [kind, objects] of desired.objects) {
    const held = live.objects.get(kind);
    for (const name of objects.keys()) if (held?.has(name) !== true) count += 1;
  }
  return count;
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

/**
 * Executes the plan in the session and reads the validator messages; `progress` is told
 * the steps done; `backlog` is worked on while the calls wait (execute.ts `executePlan`),
 * and finished by the caller.
 */
export async function executeAndValidate(
  session: GatewaySession,
  prepared: Prepared,
  planned: Planned,
  signal: AbortSignal,
  onProgress?: ProgressListener,
  progress?: ProgressReporter,
  backlog?: Backlog,
): Promise<{ report: ExecutionReport; messages: Diagnostic[] }> {
  progress?.phase('executing', planned.plan.steps.length);
  // A long run of calls is spent waiting: its garbage is collected more often from here (src/core/heap.ts).
  boundHeapForCalls(planned.plan.calls);
  let done = 0;
  const listener: ProgressListener = (event) => {
    onProgress?.(event);
    if (event.phase === 'done') progress?.update((done += 1));
  };
  const report = await executePlan(session, planned.plan, planned.desired ?? prepared.desired, planned.live, { signal, onProgress: listener, backlog });
  if (report.error !== undefined) {
    if (report.error instanceof GwopsError && report.error.exitCode !== EXIT.error) throw report.error;
    throw new ApplyFailedError(planned.plan, report, (kind, name) => prepared.loaded.locate(kind, name));
  }
  progress?.phase('reading validator messages');
  const messages = locateMessages(await session.validatorMessages(), report.ids, prepared.loaded);
  return { report, messages };
}
