/**
 * Versions of write-only secrets (docs/manifest-reference.md "Secrets that rotate"), after
 * Terraform's write-only arguments and their `_wo_version`: the gateway never returns a
 * write-only value, so gwops cannot compare it; a manifest gives the secret source a
 * `version` (`{ fromEnv: TLS_PASSPHRASE, version: 3 }`) and gwops records the versions it
 * applied in a machine-readable trailer of the activation comment, which it reads back
 * from the configurations list. A declared version that differs from the recorded one
 * plans an update of that attribute. Neither secrets nor hashes of them are stored: only
 * the numbers the manifests give.
 *
 * Trailer format (one line, at the end of the comment):
 * ` gwops-secret-versions={"<kind>":{"<name>":{"<attribute path>":<version>}}}`.
 */
import type { ConfigurationEntry } from '../api/documents.js';

/** Versions by kind, object name and dotted attribute path (array indexes as numbers). */
export type SecretVersions = Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, number>>>>>>;

const MARK = ' gwops-secret-versions=';

/**
 * Where the version trailer of `comment` starts (its first `MARK{` when the comment ends
 * with `}`), or -1: what `/ gwops-secret-versions=(\{.*\})$/s` finds, in linear time (the
 * comment is the gateway's).
 */
function trailerStart(comment: string): number {
  return comment.endsWith('}') ? comment.indexOf(`${MARK}{`) : -1;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Sets an own property, whatever the key (`valueOf`, `__proto__` are names like any other). */
function put<T>(target: Record<string, T>, key: string, value: T): T {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return value;
}

/** The own property `key` of `target`, created empty when missing. */
function child<T>(target: Record<string, Record<string, T>>, key: string): Record<string, T> {
  return Object.hasOwn(target, key) ? (target[key] as Record<string, T>) : put(target, key, {});
}

/**
 * Sets the versions of one object (kind, name) in `target` (mutated): the writer of
 * {@link SecretVersions} maps, safe for any name.
 */
export function setObjectVersions(target: Record<string, Record<string, Readonly<Record<string, number>>>>, kind: string, name: string, paths: Readonly<Record<string, number>>): void {
  put(child(target, kind), name, paths);
}

/** The comment without its version trailer (what people and `gwops history` read). */
export function withoutVersionTrailer(comment: string): string {
  const at = trailerStart(comment);
  return at < 0 ? comment : comment.slice(0, at);
}

/** The versions a comment's trailer records; undefined when it has none (or it is unreadable). */
export function parseVersionTrailer(comment: string | undefined): SecretVersions | undefined {
  const at = comment === undefined ? -1 : trailerStart(comment);
  if (comment === undefined || at < 0) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(comment.slice(at + MARK.length));
  } catch {
    return undefined;
  }
  if (!isObject(parsed)) return undefined;
  const out: Record<string, Record<string, Record<string, number>>> = {};
  for (const [kind, names] of Object.entries(parsed)) {
    if (!isObject(names)) continue;
    for (const [name, paths] of Object.entries(names)) {
      if (!isObject(paths)) continue;
      for (const [path, version] of Object.entries(paths)) {
        if (typeof version !== 'number' || !Number.isInteger(version)) continue;
        put(child(child(out, kind), name), path, version);
      }
    }
  }
  return out;
}

/**
 * The versions the gateway's active configuration was applied with: the trailer of the
 * newest entry of the configurations list (newest first) that has one, so an activation
 * made by hand in between keeps them. Empty when no entry has a trailer.
 */
export function appliedVersions(entries: readonly ConfigurationEntry[]): SecretVersions {
  for (const entry of entries) {
    const versions = parseVersionTrailer(entry.comment);
    if (versions) return versions;
  }
  return {};
}

/**
 * The comment of a rollback to the entry `targetId` of `entries` (newest first): the
 * versions in effect at the target (the newest trailer at or before it), written whenever
 * any entry records versions, so that the next plan compares against what the rolled-back
 * configuration holds.
 */
export function rollbackCommentWithVersions(comment: string, entries: readonly ConfigurationEntry[], targetId: string): string {
  if (!entries.some((e) => parseVersionTrailer(e.comment) !== undefined)) return comment;
  const at = entries.findIndex((e) => e.id === targetId);
  return withVersionTrailer(comment, appliedVersions(at < 0 ? [] : entries.slice(at)), true);
}

/** `base` with the versions of `declared` written over it (per kind, name and path). */
export function mergeVersions(base: SecretVersions, declared: SecretVersions): SecretVersions {
  const out: Record<string, Record<string, Record<string, number>>> = {};
  for (const source of [base, declared]) {
    for (const [kind, names] of Object.entries(source)) {
      for (const [name, paths] of Object.entries(names)) {
        const target = child(child(out, kind), name);
        for (const [path, version] of Object.entries(paths)) put(target, path, version);
      }
    }
  }
  return out;
}

/** The versions recorded for one object (own properties only); empty when none. */
export function versionsOf(versions: SecretVersions | undefined, kind: string, name: string): Readonly<Record<string, number>> {
  const names = versions !== undefined && Object.hasOwn(versions, kind) ? versions[kind] : undefined;
  return names !== undefined && Object.hasOwn(names, name) ? (names[name] ?? {}) : {};
}

/** True when there is no version at all. */
export function isEmptyVersions(versions: SecretVersions): boolean {
  return Object.values(versions).every((names) => Object.keys(names).length === 0);
}

/**
 * `comment` with the trailer recording `versions`; the comment unchanged when there are
 * none, unless `always` (a rollback to a configuration without versions must still hide
 * the versions of newer entries).
 */
export function withVersionTrailer(comment: string, versions: SecretVersions, always = false): string {
  if (isEmptyVersions(versions) && !always) return comment;
  return `${withoutVersionTrailer(comment)}${MARK}${JSON.stringify(versions)}`;
}
