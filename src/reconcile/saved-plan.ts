/**
 * Saved plans (`plan --out FILE`, `apply --plan FILE`; docs/architecture.md "Saved plans"):
 * a plan file holds the plan, the gateway it was made against (URL, variant, target name),
 * the ownership scope and the desired state, so that `apply --plan` needs no manifests (as
 * `terraform apply plan.tfplan`). A secret never enters the file: each secret attribute
 * of the desired state holds the source it was read from (`{ fromEnv: NAME }` or
 * `{ fromFile: path }`), which `apply --plan` reads again.
 *
 * The file is written by `renderPlanFile` (src/render/plan-file.ts). Reading rules: the
 * file must be JSON, an object whose `formatVersion` is
 * {@link PLAN_FORMAT_VERSION} and whose `gateway`, `ownership` and `desired` members are
 * well-formed; anything else is refused with one line naming the file and what is wrong.
 */
import path from 'node:path';
import { InputError } from '../errors.js';
import { FILE_LIMITS, FileReadError, readTextBounded, readTextBoundedAsync } from '../files.js';
import { isResourceType, kindOf } from '../kinds/index.js';
import type { ResourceType, Variant } from '../kinds/index.js';
import type { LoadResult } from '../manifest/index.js';
import { loadProject } from '../manifest/project.js';
import type { AttributeObject, SourceLocation } from '../manifest/types.js';
import type { SecretReference } from '../manifest/resolve.js';
import type { SecretRedactor } from '../secrets.js';
import { projectConnection } from './connect.js';
import { isSecretPath } from './diff.js';
import { PlanGatewayMismatchError } from './errors.js';
import type { OwnershipScope } from './fetch.js';
import type { DeclaredRelationship, Link, ObjectRef, State, StateObject } from './model.js';
import { emptyObjectMaps } from './model.js';
import type { Plan } from './plan-types.js';
import { PLAN_FORMAT_VERSION } from './plan-types.js';
import type { Prepared, RunInput } from './run.js';

/** The gateway a plan was made against. */
export interface PlanGateway {
  /** Base URL of the configuration REST API, as the run resolved it. */
  readonly url: string;
  readonly variant: Variant;
  /** The target of the project file, when the run used one. */
  readonly target?: string;
}

/** One desired object in a plan file: secret attributes hold their {@link SecretReference}. */
export interface SavedObject {
  readonly kind: ResourceType;
  readonly name: string;
  readonly attributes: AttributeObject;
  readonly identityKey?: string;
  readonly source?: SourceLocation;
  /** The declared versions of its write-only secrets by dotted attribute path (numbers, never secrets). */
  readonly secretVersions?: Readonly<Record<string, number>>;
}

/** The desired state in a plan file. */
export interface SavedDesired {
  readonly objects: readonly SavedObject[];
  readonly links: readonly Link[];
  readonly declaredRelationships: readonly DeclaredRelationship[];
}

/** A plan file: the plan's own members plus what apply needs without manifests. */
export interface PlanFile extends Plan {
  readonly gateway: PlanGateway;
  readonly ownership: OwnershipScope;
  readonly desired: SavedDesired;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Copies `value` (found at attribute path `segments` of a `type` object), replacing each
 * secret leaf by what `replace` returns for it.
 */
function mapSecrets(type: ResourceType, value: unknown, segments: readonly string[], replace: (value: unknown, at: readonly string[]) => unknown): unknown {
  if (segments.length > 0 && isSecretPath(type, segments)) return replace(value, segments);
  if (Array.isArray(value)) return value.map((item: unknown, i) => mapSecrets(type, item, [...segments, String(i)], replace));
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) out[key] = mapSecrets(type, child, [...segments, key], replace);
    return out;
  }
  return value;
}

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
      objects.push({
        kind,
        name: object.name,
        attributes,
        ...(object.identityKey !== undefined ? { identityKey: object.identityKey } : {}),
        ...(object.source ? { source: object.source } : {}),
        ...(object.secretVersions ? { secretVersions: object.secretVersions } : {}),
      });
    }
  }
  return {
    ...plan,
    gateway,
    ownership,
    desired: { objects, links: desired.links, declaredRelationships: desired.declaredRelationships ?? [] },
  };
}

function isRef(value: unknown): value is ObjectRef {
  return isRecord(value) && typeof value.kind === 'string' && isResourceType(value.kind) && typeof value.name === 'string';
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
  const ownership = value.ownership;
  if (!isRecord(ownership) || !Object.entries(ownership).every(([k, f]) => isResourceType(k) && Array.isArray(f) && f.every((x) => typeof x === 'string'))) {
    return "its 'ownership' member is malformed";
  }
  const desired = value.desired;
  if (!isRecord(desired) || !Array.isArray(desired.objects) || !Array.isArray(desired.links) || !Array.isArray(desired.declaredRelationships)) {
    return "it has no well-formed 'desired' member";
  }
  if (!desired.objects.every((o: unknown) => isRecord(o) && isRef(o) && isRecord(o.attributes))) return 'a desired object is malformed';
  if (!desired.links.every((l) => isRecord(l) && isRef(l.from) && isRef(l.to) && typeof l.relationship === 'string')) return 'a desired link is malformed';
  if (!desired.declaredRelationships.every((d) => isRecord(d) && isRef(d.object) && typeof d.relationship === 'string')) {
    return 'a declared relationship is malformed';
  }
  return undefined;
}

/**
 * Reads and checks a plan file (see the reading rules in this module's header).
 * @param file as given on the command line (named in messages), resolved against `cwd`
 * @throws InputError, one line naming the file and what is wrong
 */
export async function readPlanFile(file: string, cwd: string): Promise<PlanFile> {
  let text: string;
  try {
    text = await readTextBoundedAsync(path.resolve(cwd, file), FILE_LIMITS.plan);
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    throw new InputError(`cannot read plan file ${file}: ${error.problem}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new InputError(`plan file ${file} is not JSON (${error instanceof Error ? error.message : String(error)}); write plan files with gwops plan --out`);
  }
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
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
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


/** Reads the value a secret reference names now: the variable, or the file (relative to `cwd`; trailing line breaks removed). */
function readReference(reference: Record<string, unknown>, env: Readonly<Record<string, string | undefined>>, cwd: string, what: string): string {
  if (typeof reference.fromEnv === 'string') {
    const value = env[reference.fromEnv];
    if (value === undefined) throw new InputError(`${what}: environment variable '${reference.fromEnv}' is not set`);
    return value;
  }
  if (typeof reference.fromFile === 'string') {
    try {
      return readTextBounded(path.resolve(cwd, reference.fromFile), FILE_LIMITS.secret).replace(/(\r?\n)+$/, '');
    } catch (error) {
      if (!(error instanceof FileReadError)) throw error;
      throw new InputError(`${what}: cannot read file '${reference.fromFile}': ${error.problem}`);
    }
  }
  throw new InputError(`${what} holds no { fromEnv } or { fromFile } source`);
}

/**
 * The desired state of a plan file, with every secret read now from the source the file
 * names (`fromFile` relative to `cwd`); each value is registered in `secrets` before use.
 * @throws InputError naming the plan file, the object and the source (never a value) when
 *   a variable is unset or a file unreadable
 */
export function desiredOfPlanFile(
  planFile: PlanFile,
  file: string,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  secrets?: SecretRedactor,
): State {
  const objects = emptyObjectMaps();
  for (const saved of planFile.desired.objects) {
    const attributes = mapSecrets(saved.kind, saved.attributes, [], (value, at) => {
      if (!isRecord(value)) return value;
      const resolved = readReference(value, env, cwd, `plan file ${file}: secret '${at.join('.')}' of ${saved.kind} '${saved.name}'`);
      secrets?.add(resolved);
      return resolved;
    }) as AttributeObject;
    const object: StateObject = {
      kind: saved.kind,
      name: saved.name,
      attributes,
      ...(saved.identityKey !== undefined ? { identityKey: saved.identityKey } : {}),
      ...(saved.source ? { source: saved.source } : {}),
      ...(isVersions(saved.secretVersions) ? { secretVersions: saved.secretVersions } : {}),
    };
    objects.get(saved.kind)?.set(saved.name, object);
  }
  return { objects, links: planFile.desired.links, declaredRelationships: planFile.desired.declaredRelationships };
}

/** A secret-versions record read from a plan file: attribute paths to whole numbers. */
function isVersions(value: unknown): value is Readonly<Record<string, number>> {
  return isRecord(value) && Object.values(value).every((v) => Number.isInteger(v));
}

/**
 * What `apply --plan` runs on instead of manifests: the plan file's desired state and
 * ownership scope, and the connection of the options (the project file is read for its
 * targets only; without `--target` and `--url`, the target the plan names is used when
 * the project file has it, and without `--variant` or a target's variant, the plan's).
 * @returns the prepared stage and the run input with that target
 * @throws InputError (plan file, project file, secrets), PlanGatewayMismatchError, and
 *   what resolving the connection throws
 */
export async function prepareSavedPlan(input: RunInput, file: string): Promise<{ prepared: Prepared; saved: PlanFile; input: RunInput }> {
  const saved = await readPlanFile(file, input.cwd);
  const project = loadProject(input.cwd, input.configFile);
  const named = saved.gateway.target;
  const target = input.target ?? (input.url === undefined && named !== undefined && named in project.targets ? named : undefined);
  const chosen = target === undefined ? undefined : project.targets[target];
  const variant = input.variant ?? chosen?.variant ?? saved.gateway.variant;
  const run: RunInput = { ...input, target, variant };
  const connected = projectConnection(project, run);
  checkPlanGateway(file, saved.gateway, {
    url: connected.connection.url,
    variant: connected.variant,
    ...(connected.targetName !== undefined ? { target: connected.targetName } : {}),
  });
  const desired = desiredOfPlanFile(saved, file, input.env, input.cwd, input.secrets);
  const loaded: LoadResult = {
    documents: [],
    diagnostics: [],
    project: { ...project, ownership: Object.fromEntries(Object.entries(saved.ownership).map(([kind, filters]) => [kind, [...filters]])) },
    variant: connected.variant,
    locate: (kind, name) => desired.objects.get(kind)?.get(name)?.source,
    secretValues: [],
    secretReferences: new Map(),
    jwksReferences: [],
  };
  // Keys from a JWK Set were resolved when the plan was made; the file holds their PEM (public, not secret).
  return { prepared: { loaded, desired, variant: connected.variant, keyNames: new Map() }, saved, input: run };
}

/**
 * The plan file of a `plan` run (`--out`): the gateway as the run's options resolve it
 * (the same connection the run used), the project's ownership scope, and the desired state
 * with secrets saved as their sources.
 * @throws InputError when a secret was written in the manifest (see {@link planFileOf})
 */
export function planFileOfRun(plan: Plan, prepared: Prepared, input: RunInput): PlanFile {
  const connected = projectConnection(prepared.loaded.project, input);
  const gateway: PlanGateway = {
    url: connected.connection.url,
    variant: connected.variant,
    ...(connected.targetName !== undefined ? { target: connected.targetName } : {}),
  };
  return planFileOf(plan, prepared.desired, prepared.loaded.project.ownership, gateway, prepared.loaded.secretReferences, input.cwd);
}
