/**
 * Saved plans (`plan --out FILE`, `apply --plan FILE`; docs/architecture.md "Saved plans"):
 * a plan file holds the plan, the gateway it was made against (URL, variant, target name),
 * the ownership scope, the options the plan was made with, the commit it was made from and
 * the desired state, so that `apply --plan` needs no manifests (as
 * `terraform apply plan.tfplan`). A secret never enters the file: each secret attribute
 * of the desired state holds the source it was read from (`{ fromEnv: NAME }` or
 * `{ fromFile: path }`), which `apply --plan` reads again when a step sends it.
 *
 * The file is written by `renderPlanFile` (src/render/plan-file.ts). Reading rules: the
 * file must be JSON, an object whose `formatVersion` is
 * {@link PLAN_FORMAT_VERSION} and whose `gateway`, `ownership` and `desired` members are
 * well-formed; anything else is refused with one line naming the file and what is wrong.
 */
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { InputError, FileReadError } from '../../core/errors.js';
import { FILE_LIMITS, readChunksBoundedAsync, readTextBoundedAsync } from '../../core/files.js';
import { JsonLinesReader } from '../../core/json-lines.js';
import { isResourceType, kindOf } from '../../kinds/index.js';
import type { LoadResult } from '../../manifest/index.js';
import { loadProject } from '../../manifest/project.js';
import type { AttributeObject } from '../../manifest/types.js';
import type { SecretReference } from '../../manifest/resolve.js';
import type { CommitInfo } from '../../engine/commit-comment.js';
import { projectConnection } from './connect.js';
import { mapSecrets } from '../../engine/diff.js';
import { PlanGatewayMismatchError, StalePlanError } from '../../engine/errors.js';
import { sentSecretsOfPlanFile } from './saved-plan-secrets.js';
import type { OwnershipScope } from '../../engine/fetch-scope.js';
import type { ObjectRef, State } from '../../engine/model.js';
import type { Plan } from '../../engine/plan-types.js';
import type { PlanFile, PlanGateway, PlanOrigin, SavedObject, SavedPlanOptions } from '../../engine/plan-file.js';
import { isSavedDeclaredRelationship, isSavedLink, savedDeclaredRelationship, savedLink } from '../../engine/plan-file.js';
import { PLAN_FORMAT_VERSION } from '../../engine/plan-types.js';
import type { PlanSigner } from './plan-signing.js';
import { PLAN_SIGNING_KEY_ENV, planSigner, signatureCheckOf, verifySignature } from './plan-signing.js';
import type { Prepared, RunInput } from './pipeline.js';
import { ignoreInForce } from './pipeline.js';
import { entriesInForce, untilEnd } from '../../manifest/drift-ignore.js';
import { trimTrailing } from '../../core/linear-text.js';
import { ownMember } from '../../core/own-member.js';


const NO_ORIGIN: PlanOrigin = { options: { prune: false, allowMassDelete: false, massDeleteShare: 0.5 }, commit: {} };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A secret reference as written into a plan file: a `fromFile` path relative to `cwd` when it lies inside it. */
function portableReference(reference: SecretReference, cwd: string): SecretReference {
  if ('fromEnv' in reference) return { fromEnv: reference.fromEnv };
  const relative = path.relative(cwd, reference.fromFile);
  return { fromFile: relative.startsWith('..') || path.isAbsolute(relative) ? reference.fromFile : relative };
}

/**
 * The plan file of a plan (pure). Every secret value of `desired` is replaced by the
 * source it was read from (`references`, LoadResult `secretReferences`); `fromFile` paths
 * inside `cwd` are written relative to it.
 * @throws InputError naming the object and attribute (never the value) when a secret was
 *   written in the manifest itself, since a plan file never holds a secret
 */
export function planFileOf(
  plan: Plan,
  desired: State,
  ownership: OwnershipScope,
  gateway: PlanGateway,
  references: ReadonlyMap<string, SecretReference>,
  cwd: string,
  origin: PlanOrigin = NO_ORIGIN,
): PlanFile {
  const objects: SavedObject[] = [];
  for (const [kind, byName] of desired.objects) {
    for (const object of byName.values()) {
      const attributes = mapSecrets(kind, object.attributes, [], (value, at) => {
        if (typeof value !== 'string') return value;
        const reference = references.get(value);
        if (reference) return portableReference(reference, cwd);
        if (kindOf(kind).holdsSecret?.(at, object.attributes) === false) return value;
        throw new InputError(
          `cannot save the plan: secret '${at.join('.')}' of ${kind} '${object.name}' is written in the manifest, and a plan file never holds a secret; ` +
            'use { fromEnv: NAME } or { fromFile: path }',
        );
      }) as AttributeObject;
      // Built by assignment (one object per desired object: 100,000 of them in a large plan).
      const saved: { -readonly [K in keyof SavedObject]: SavedObject[K] } = { kind, name: object.name, attributes };
      if (object.identityKey !== undefined) saved.identityKey = object.identityKey;
      if (object.source) saved.source = object.source;
      if (object.secretVersions) saved.secretVersions = object.secretVersions;
      if (object.content) saved.content = { digest: object.content.digest };
      objects.push(saved);
    }
  }
  return {
    ...plan,
    gateway,
    ownership,
    options: origin.options,
    commit: origin.commit,
    desired: { objects, links: desired.links.map(savedLink), declaredRelationships: (desired.declaredRelationships ?? []).map(savedDeclaredRelationship) },
  };
}

function isRef(value: unknown): value is ObjectRef {
  return isRecord(value) && typeof value.kind === 'string' && isResourceType(value.kind) && typeof value.name === 'string';
}

/** True when `value` (read from a plan file) is a `drift.ignore` entry as plan files hold them. */
function isIgnoreEntry(value: unknown): boolean {
  return (
    isRecord(value) &&
    ['object', 'name', 'attribute', 'reason', 'until'].every((k) => typeof value[k] === 'string') &&
    typeof value.kind === 'string' &&
    isResourceType(value.kind) &&
    untilEnd(String(value.until)) !== undefined
  );
}

/** What is wrong with the members of a plan file, or undefined when they are well-formed. */
function problemOf(value: Record<string, unknown>): string | undefined {
  if (!Array.isArray(value.steps) || !Array.isArray(value.calls) || !isRecord(value.summary) || typeof value.liveDigest !== 'string') {
    return "it lacks the plan's steps, calls, summary or liveDigest";
  }
  const steps = value.steps as unknown[];
  if (!steps.every((s, i) => isRecord(s) && s.index === i + 1 && typeof s.kind === 'string' && isResourceType(s.kind) && typeof s.name === 'string')) {
    return 'a step is malformed';
  }
  const gateway = value.gateway;
  if (!isRecord(gateway)) return "it has no 'gateway' member (write plan files with gwops plan --out)";
  if (typeof gateway.url !== 'string' || !['earliest', 'middle', 'latest'].includes(String(gateway.variant))) return "its 'gateway' member is malformed";
  if (gateway.target !== undefined && typeof gateway.target !== 'string') return "its 'gateway' member is malformed";
  const options = value.options;
  if (!isRecord(options) || typeof options.prune !== 'boolean' || typeof options.allowMassDelete !== 'boolean') return "its 'options' member is malformed";
  if (typeof options.massDeleteShare !== 'number' || !(options.massDeleteShare >= 0 && options.massDeleteShare <= 1)) return "its 'options' member is malformed";
  const commit = value.commit;
  if (!isRecord(commit) || !Object.entries(commit).every(([k, v]) => (['sha', 'subject', 'author', 'runUrl'].includes(k) && typeof v === 'string') || (k === 'dirty' && v === true))) {
    return "its 'commit' member is malformed";
  }
  const ownership = value.ownership;
  if (!isRecord(ownership) || !Object.entries(ownership).every(([k, f]) => isResourceType(k) && Array.isArray(f) && f.every((x) => typeof x === 'string'))) {
    return "its 'ownership' member is malformed";
  }
  const desired = value.desired;
  if (!isRecord(desired) || !Array.isArray(desired.objects) || !Array.isArray(desired.links) || !Array.isArray(desired.declaredRelationships)) {
    return "it has no well-formed 'desired' member";
  }
  if (!desired.objects.every((o: unknown) => isRecord(o) && isRef(o) && isRecord(o.attributes))) return 'a desired object is malformed';
  if (!desired.links.every(isSavedLink)) return 'a desired link is malformed (each is [kind, name, relationship, related name])';
  if (!desired.declaredRelationships.every(isSavedDeclaredRelationship)) return 'a declared relationship is malformed (each is [kind, name, relationship])';
  if (value.ignore !== undefined && !(Array.isArray(value.ignore) && value.ignore.every(isIgnoreEntry))) return "its 'ignore' member is malformed";
  return undefined;
}

/**
 * Reads and checks a plan file (see the reading rules in this module's header), and its
 * signature (plan-signing.ts): the HMAC is computed over the very bytes parsed, and checked
 * before the file's content is looked at.
 * @param file as given on the command line (named in messages), resolved against `cwd`
 * @param signingKey the plan-signing key, when one is configured
 * @throws InputError, one line naming the file and what is wrong; PlanSignatureError
 */
export async function readPlanFile(file: string, cwd: string, signingKey?: string): Promise<PlanFile> {
  const full = path.resolve(cwd, file);
  const unreadable = (error: unknown): never => {
    if (!(error instanceof FileReadError)) throw error;
    throw new InputError(`cannot read plan file ${file}: ${error.problem}`);
  };
  const signature = await signatureCheckOf(file, full, signingKey);
  // Line by line (the layout plan --out writes), so the file is never one string; text in
  // another layout, or not JSON, is parsed whole, which reads it or names what is wrong.
  let parsed = await readJsonLines(full, signature?.signer).catch(unreadable);
  if (signature && parsed !== undefined) verifySignature(file, signature.expected, signature.signer.signature());
  if (parsed === undefined) {
    const text = await readTextBoundedAsync(full, FILE_LIMITS.plan).catch(unreadable);
    if (signature) {
      // The text parsed is what is signed: bytes that do not decode as UTF-8 do not match.
      const whole = planSigner(signingKey ?? '');
      whole.update(text);
      verifySignature(file, signature.expected, whole.signature());
    }
    try {
      parsed = { value: JSON.parse(text) as unknown };
    } catch (error) {
      throw new InputError(`plan file ${file} is not JSON (${error instanceof Error ? error.message : String(error)}); write plan files with gwops plan --out`);
    }
  }
  return checkedPlanFile(file, parsed.value);
}

/** The longest line (UTF-16 code units) read line by line; a plan file's lines are one step, call or object each. */
const MAX_LINE = 16 * 1024 * 1024;

/**
 * The plan file at `full` read line by line (json-lines.ts), or undefined when it is not in
 * a layout the reader follows; every byte read is fed to `signer`. @throws FileReadError
 */
async function readJsonLines(full: string, signer?: PlanSigner): Promise<{ value: unknown } | undefined> {
  const reader = new JsonLinesReader();
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of readChunksBoundedAsync(full, FILE_LIMITS.plan)) {
    signer?.update(chunk);
    const lines = (rest + decoder.write(chunk)).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) reader.line(line);
    // Not this layout (a line it cannot follow, or a line as long as a file written on one line): parsed whole instead.
    if (!reader.following || rest.length > MAX_LINE) return undefined;
  }
  reader.line(rest + decoder.end());
  return reader.end();
}

/** A plan file's parsed value, checked (see the reading rules in this module's header). @throws InputError */
function checkedPlanFile(file: string, parsed: unknown): PlanFile {
  if (!isRecord(parsed) || !('formatVersion' in parsed)) {
    throw new InputError(`plan file ${file} is not a gwops plan (it has no formatVersion); write plan files with gwops plan --out`);
  }
  if (parsed.formatVersion !== PLAN_FORMAT_VERSION) {
    throw new InputError(
      `plan file ${file} has formatVersion ${JSON.stringify(parsed.formatVersion)}; this gwops reads ${PLAN_FORMAT_VERSION}: run gwops plan --out again`,
    );
  }
  const problem = problemOf(parsed);
  if (problem !== undefined) throw new InputError(`plan file ${file} is not a complete gwops plan: ${problem}`);
  return parsed as unknown as PlanFile;
}

function describeGateway(gateway: PlanGateway): string {
  return gateway.target !== undefined ? `target '${gateway.target}' (${gateway.url}, variant ${gateway.variant})` : `${gateway.url} (variant ${gateway.variant})`;
}

/** A URL compared without a trailing slash. */
function sameUrl(a: string, b: string): boolean {
  return trimTrailing(a, '/') === trimTrailing(b, '/');
}

/**
 * Refuses a plan file made against another gateway than `actual`: another URL or variant,
 * or another target name when both name one.
 * @throws PlanGatewayMismatchError naming both gateways
 */
export function checkPlanGateway(file: string, saved: PlanGateway, actual: PlanGateway): void {
  const targetDiffers = saved.target !== undefined && actual.target !== undefined && saved.target !== actual.target;
  if (sameUrl(saved.url, actual.url) && saved.variant === actual.variant && !targetDiffers) return;
  throw new PlanGatewayMismatchError(
    `plan file ${file} was made against ${describeGateway(saved)}, not against ${describeGateway(actual)}, which this apply would change: ` +
      'apply it where it was made, or run gwops plan against this gateway',
  );
}



/**
 * What `apply --plan` runs on instead of manifests: the plan file's desired state and
 * ownership scope, and the connection of the options (the project file is read for its
 * targets only; without `--target` and `--url`, the target the plan names is used when
 * the project file has it, and without `--variant` or a target's variant, the plan's).
 * @returns the prepared stage and the run input with that target
 * @throws InputError (plan file, project file, secrets), PlanGatewayMismatchError,
 *   StalePlanError when a `drift.ignore` entry the plan was made with has expired since,
 *   and what resolving the connection throws
 */
export async function prepareSavedPlan(input: RunInput, file: string): Promise<{ prepared: Prepared; saved: PlanFile; input: RunInput }> {
  const saved = await readPlanFile(file, input.cwd, input.planSigningKey);
  if (saved.liveDigest.startsWith('hmac-sha256:') && input.planSigningKey === undefined) {
    throw new StalePlanError(
      `plan file ${file} holds a live digest keyed with a plan-signing key (or made by an older gwops, keyed with its API key), and no plan-signing key is configured ` +
        `to compute it again; nothing was sent: set ${PLAN_SIGNING_KEY_ENV} or pass --plan-signing-key-file with the key of gwops plan --out, or run gwops plan --out again`,
    );
  }
  // A difference the plan kept may not be undone by a plan nobody saw: an entry that has expired since is refused by name.
  const expired = entriesInForce({ ignore: saved.ignore ?? [] }, input.now?.() ?? new Date()).expired;
  if (expired.length > 0) {
    throw new StalePlanError(
      `plan file ${file} keeps differences by drift.ignore entries that have expired since it was made (${expired.map((e) => `${e.object} ${e.attribute} until ${e.until}`).join('; ')}); ` +
        'nothing was changed; run gwops plan again',
    );
  }
  const project = loadProject(input.cwd, input.configFile);
  const named = saved.gateway.target;
  const target = input.target ?? (input.url === undefined && named !== undefined && named in project.targets ? named : undefined);
  const chosen = target === undefined ? undefined : ownMember(project.targets, target);
  const variant = input.variant ?? chosen?.variant ?? saved.gateway.variant;
  // The plan is made again with the options it was made with (apply --plan takes none of its own).
  const run: RunInput = { ...input, target, variant, prune: saved.options.prune, allowMassDelete: saved.options.allowMassDelete };
  const connected = projectConnection(project, run);
  checkPlanGateway(file, saved.gateway, {
    url: connected.connection.url,
    variant: connected.variant,
    ...(connected.targetName !== undefined ? { target: connected.targetName } : {}),
  });
  const { desired, complete } = sentSecretsOfPlanFile(saved, file, input);
  const loaded: LoadResult = {
    documents: [],
    diagnostics: [],
    project: {
      ...project,
      ownership: Object.fromEntries(Object.entries(saved.ownership).map(([kind, filters]) => [kind, [...filters]])),
      massDeleteShare: saved.options.massDeleteShare,
      // The differences the plan kept are kept again (entries still in force at apply time).
      drift: { ignore: [...(saved.ignore ?? [])] },
    },
    variant: connected.variant,
    locate: (kind, name) => desired.objects.get(kind)?.get(name)?.source,
    secretValues: [],
    secretReferences: new Map(),
    jwksReferences: [],
    origins: () => undefined,
  };
  // Keys from a JWK Set were resolved when the plan was made; the file holds their PEM (public, not secret).
  return { prepared: { loaded, desired, variant: connected.variant, keyNames: new Map(), completeDesired: complete }, saved, input: run };
}

/**
 * The plan file of a `plan` run (`--out`): the gateway as the run's options resolve it
 * (the same connection the run used), the project's ownership scope, the run's options,
 * the commit it was made from, and the desired state with secrets saved as their sources.
 * @throws InputError when a secret was written in the manifest (see {@link planFileOf})
 */
export function planFileOfRun(plan: Plan, prepared: Prepared, input: RunInput, commit: CommitInfo): PlanFile {
  const connected = projectConnection(prepared.loaded.project, input);
  const gateway: PlanGateway = {
    url: connected.connection.url,
    variant: connected.variant,
    ...(connected.targetName !== undefined ? { target: connected.targetName } : {}),
  };
  const options: SavedPlanOptions = {
    prune: input.prune === true,
    allowMassDelete: input.allowMassDelete === true,
    massDeleteShare: prepared.loaded.project.massDeleteShare,
  };
  // A field the commit lacks is left out, not written as null.
  const known = Object.fromEntries(Object.entries(commit).filter(([, v]) => (typeof v === 'string' && v !== '') || v === true)) as CommitInfo;
  const file = planFileOf(plan, prepared.desired, prepared.loaded.project.ownership, gateway, prepared.loaded.secretReferences, input.cwd, { options, commit: known });
  const ignore = ignoreInForce(prepared, input);
  return ignore.length > 0 ? { ...file, ignore } : file;
}
