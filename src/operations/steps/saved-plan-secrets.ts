/**
 * The desired state of a plan file with its secrets (docs/architecture.md "Saved plans").
 * The file holds each secret as its source (`{ fromEnv }`, `{ fromFile }`); `apply --plan`
 * reads only the sources of the secrets its steps send (a step's `secretPaths`), before
 * any request. Every other secret attribute is not sent, so its value only matters to the
 * plan that is made again from the file: a readable one takes the live value (the plan
 * file said it was in sync, and the keyed live digest, which covers live secrets and
 * whether each equalled the desired value, refuses the plan when that changed); a
 * write-only one is compared by its version, never by value, and holds a mask.
 */
import path from 'node:path';
import { InputError, FileReadError } from '../../core/errors.js';
import { FILE_LIMITS, readTextBounded } from '../../core/files.js';
import type { AttributeObject } from '../../manifest/types.js';
import type { SecretRedactor } from '../../core/secrets.js';
import { decodePointer, getAt, isPlainObject as isRecord, isWriteOnlyPath, mapSecrets } from '../../engine/diff.js';
import type { State, StateObject } from '../../engine/model.js';
import { emptyObjectMaps } from '../../engine/model.js';
import { SENSITIVE_MASK } from '../../engine/plan-types.js';
import type { PlanFile, SavedObject } from '../../engine/plan-file.js';
import { declaredRelationshipOfSaved, linkOfSaved } from '../../engine/plan-file.js';
import { withoutTrailingLineBreaks } from '../../core/linear-text.js';

/** Where the secret sources of a plan file are read: the run's environment and working directory (`fromFile` is relative to it). */
export interface SecretSources {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Every value read (or taken from the live state) is registered here before use. */
  readonly secrets?: SecretRedactor | undefined;
}

/** Reads the value a secret reference names now: the variable, or the file (relative to `cwd`; trailing line breaks removed). */
function readReference(reference: Record<string, unknown>, sources: SecretSources, what: string): string {
  if (typeof reference.fromEnv === 'string') {
    const value = sources.env[reference.fromEnv];
    if (value === undefined) throw new InputError(`${what}: environment variable '${reference.fromEnv}' is not set`);
    return value;
  }
  if (typeof reference.fromFile === 'string') {
    try {
      return withoutTrailingLineBreaks(readTextBounded(path.resolve(sources.cwd, reference.fromFile), FILE_LIMITS.secret));
    } catch (error) {
      if (!(error instanceof FileReadError)) throw error;
      throw new InputError(`${what}: cannot read file '${reference.fromFile}': ${error.problem}`);
    }
  }
  throw new InputError(`${what} holds no { fromEnv } or { fromFile } source`);
}

/** A secret-versions record read from a plan file: attribute paths to whole numbers. */
function isVersions(value: unknown): value is Readonly<Record<string, number>> {
  return isRecord(value) && Object.values(value).every((v) => Number.isInteger(v));
}

/** The desired state of a plan file, each secret leaf (its saved source) replaced by what `replace` returns. */
function savedState(planFile: PlanFile, replace: (source: Record<string, unknown>, at: readonly string[], saved: SavedObject) => unknown): State {
  const objects = emptyObjectMaps();
  // The bytes of declared content travel in the plan's content calls (plan-file.ts SavedObject `content`).
  const uploaded = new Map(planFile.calls.flatMap((c) => (c.endpoint === 'content' ? [[c.digest, c.data] as const] : [])));
  for (const saved of planFile.desired.objects) {
    const attributes = mapSecrets(saved.kind, saved.attributes, [], (value, at) => (isRecord(value) ? replace(value, at, saved) : value)) as AttributeObject;
    const object: StateObject = {
      kind: saved.kind,
      name: saved.name,
      attributes,
      ...(saved.identityKey !== undefined ? { identityKey: saved.identityKey } : {}),
      ...(saved.source ? { source: saved.source } : {}),
      ...(isVersions(saved.secretVersions) ? { secretVersions: saved.secretVersions } : {}),
      ...(isRecord(saved.content) && typeof saved.content.digest === 'string'
        ? { content: { digest: saved.content.digest, base64: uploaded.get(saved.content.digest) ?? '' } }
        : {}),
    };
    objects.get(saved.kind)?.set(saved.name, object);
  }
  return { objects, links: planFile.desired.links.map(linkOfSaved), declaredRelationships: planFile.desired.declaredRelationships.map(declaredRelationshipOfSaved) };
}

const describe = (file: string, at: readonly string[], saved: SavedObject): string => `plan file ${file}: secret '${at.join('.')}' of ${saved.kind} '${saved.name}'`;

/**
 * The desired state of a plan file, with every secret read now from the source the file
 * names; each value is registered in `secrets` before use.
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
  return savedState(planFile, (source, at, saved) => {
    const value = readReference(source, { env, cwd }, describe(file, at, saved));
    secrets?.add(value);
    return value;
  });
}

const leafKey = (kind: string, name: string, at: readonly string[]): string => JSON.stringify([kind, name, ...at]);

/** The secret leaves the plan file's steps send (their `secretPaths`), by {@link leafKey}. */
function sentSecrets(planFile: PlanFile): Set<string> {
  const sent = new Set<string>();
  for (const step of planFile.steps as readonly unknown[]) {
    if (!isRecord(step) || !Array.isArray(step.secretPaths)) continue;
    for (const pointer of step.secretPaths as unknown[]) {
      if (typeof pointer !== 'string') continue;
      const segments = decodePointer(pointer);
      sent.add(leafKey(String(step.kind), String(step.name), segments[0] === 'data' && segments[1] === 'attributes' ? segments.slice(2) : segments));
    }
  }
  return sent;
}

/**
 * The desired state `apply --plan` plans with, in two stages (see the module comment):
 * `desired` has the secrets the file's steps send read now (before any request) and every
 * other secret still as its source; `complete(live)` fills those others from the live
 * state (readable ones) or with a mask (write-only ones, and readable ones the live state
 * lacks, which the plan made again then shows as a change the file does not have).
 * @throws InputError naming the plan file, the object and the source (never a value) when
 *   a source of a sent secret is unset or unreadable
 */
export function sentSecretsOfPlanFile(planFile: PlanFile, file: string, sources: SecretSources): { desired: State; complete: (live: State) => State } {
  const sent = sentSecrets(planFile);
  const read = new Map<string, string>();
  const desired = savedState(planFile, (source, at, saved) => {
    const key = leafKey(saved.kind, saved.name, at);
    if (!sent.has(key)) return source;
    const value = readReference(source, sources, describe(file, at, saved));
    sources.secrets?.add(value);
    read.set(key, value);
    return value;
  });
  const complete = (live: State): State =>
    savedState(planFile, (_source, at, saved) => {
      const value = read.get(leafKey(saved.kind, saved.name, at));
      if (value !== undefined) return value;
      if (isWriteOnlyPath(saved.kind, at)) return SENSITIVE_MASK;
      const current = getAt(live.objects.get(saved.kind)?.get(saved.name)?.attributes, at);
      if (typeof current !== 'string') return SENSITIVE_MASK;
      sources.secrets?.add(current);
      return current;
    });
  return { desired, complete };
}
