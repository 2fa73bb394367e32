/**
 * The third side of a drift report: what gwops last applied to the gateway for this project
 * (README.md "Drift", "Three sides"). Pure. Two halves:
 *
 * - {@link findDriftBase}: out of the configurations list (newest first), the last
 *   activation this project made with `gwops apply`, recognised by the project trailer of
 *   its comment (commit-comment.ts `projectId`), and the commit it names (none when the
 *   comment was the user's own, `apply --comment`). A rollback by
 *   gwops after it moves the base to the commit of the configuration it activated again.
 *   Without such an activation, or when it names no clean commit (`-dirty`: what was
 *   activated was no commit), there is no base, and why is said in one line.
 * - {@link classifyDrift}: given the desired state of that commit (the base, read from Git
 *   by the caller), each difference between Git now and the gateway now is told apart:
 *   `gateway` (the gateway changed since the last apply; Git did not), `git` (Git changed
 *   and the change is not applied yet; the gateway still holds what was applied) or `both`
 *   (a conflict: each side changed). Where the base cannot tell (an attribute the base did
 *   not declare), the difference counts as Git's: `drift --adopt` never writes a gateway
 *   value over a change in Git it cannot rule out.
 */
import type { ConfigurationEntry } from '../api/documents.js';
import { kindOf } from '../kinds/index.js';
import type { ResourceType } from '../kinds/index.js';
import type { AttributeObject } from '../manifest/types.js';
import { commentProject, parseActivationComment, parseRollbackComment } from './commit-comment.js';
import { NO_PUBLIC_KEYS, diffAttributes, isPlainObject } from './diff.js';
import type { PublicKeyTools } from '../crypto/port.js';
import type { DriftEntry, DriftReport } from './drift-report.js';
import type { State, StateObject } from './model.js';
import { canonicalLink, linkKey, relationshipDefinition } from './model.js';
import { withoutSubResources } from './sub-resources.js';

/** Which side changed a difference since the last apply. */
export type DriftSide = 'gateway' | 'git' | 'both';

/** Every side, in the order reports show them. */
export const DRIFT_SIDES: readonly DriftSide[] = ['gateway', 'both', 'git'];

/** The activation a base comes from. */
export interface DriftBaseRef {
  /** The commit's short SHA (7 hex digits) as the comment names it. */
  readonly sha: string;
  /** The configuration whose activation named the commit (for a rollback: the rollback's). */
  readonly configuration: string;
  readonly createdAt?: string;
  readonly createdBy?: string;
}

/** Where a base comes from, or why there is none. */
export type DriftBaseLookup = { readonly found: DriftBaseRef } | { readonly unavailable: string };

/** `configType`s that were never activated (as drift-attribution.ts reads them). */
const NEVER_ACTIVATED: ReadonlySet<string> = new Set(['INITIAL', 'SAVED']);

/**
 * The last activation of project `project` by `gwops apply`, and its commit.
 * @param list the configurations list, newest first (docs/gateway-api.md "Configurations and activation")
 * @param project this project's id (commit-comment.ts `projectId`)
 */
export function findDriftBase(list: readonly ConfigurationEntry[], project: string): DriftBaseLookup {
  const activated = list.filter((e) => e.configType === undefined || !NEVER_ACTIVATED.has(e.configType));
  for (const entry of activated) {
    const rollback = parseRollbackComment(entry.comment);
    if (rollback) {
      // A rollback activated an earlier configuration again: its commit is the base when it was this project's.
      const target = list.find((e) => e.id === rollback.configuration);
      if (commentProject(target?.comment) !== project) continue;
      const applied = parseActivationComment(target?.comment);
      return baseOf(applied?.sha, applied?.dirty === true, entry);
    }
    if (commentProject(entry.comment) !== project) continue;
    // This project's activation: with a comment of its own (`apply --comment`) it names no commit.
    const applied = parseActivationComment(entry.comment);
    return baseOf(applied?.sha, applied?.dirty === true, entry);
  }
  return { unavailable: "the gateway's configuration history holds no activation of this project by gwops apply" };
}

function baseOf(sha: string | undefined, dirty: boolean, entry: ConfigurationEntry): DriftBaseLookup {
  if (sha === undefined) return { unavailable: `the last activation of this project (configuration ${entry.id}) names no commit` };
  if (dirty) return { unavailable: `the last activation of this project (configuration ${entry.id}) was made from uncommitted changes (${sha}-dirty), not a commit` };
  return {
    found: {
      sha,
      configuration: entry.id,
      ...(entry.createdAt !== undefined ? { createdAt: entry.createdAt } : {}),
      ...(entry.createdBy !== undefined ? { createdBy: entry.createdBy } : {}),
    },
  };
}

/** Deep equality of JSON values. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (isPlainObject(a)) {
    if (!isPlainObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
  }
  return false;
}

/**
 * The value at a dotted attribute path (as plans write it: keys joined by `.`, which a key
 * may itself hold), or undefined.
 */
export function valueAtPath(value: unknown, dotted: string): unknown {
  if (dotted === '') return value;
  if (Array.isArray(value)) {
    const [index = '', ...rest] = dotted.split('.');
    return valueAtPath(value[Number(index)], rest.join('.'));
  }
  if (!isPlainObject(value)) return undefined;
  for (const key of Object.keys(value)) {
    if (dotted === key) return value[key];
    if (dotted.startsWith(`${key}.`)) {
      const found = valueAtPath(value[key], dotted.slice(key.length + 1));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function objectIn(state: State, kind: ResourceType, name: string): StateObject | undefined {
  return state.objects.get(kind)?.get(name);
}

/** True when `links` (a set of the base's link keys) holds the link a link entry names. */
function hasLink(links: () => ReadonlySet<string>, entry: DriftEntry, related: unknown): boolean {
  const relationship = entry.path?.slice('relationships.'.length) ?? '';
  const def = relationshipDefinition(entry.kind, relationship);
  if (!def || !isPlainObject(related) || typeof related.name !== 'string') return false;
  return links().has(linkKey(canonicalLink({ kind: entry.kind, name: entry.name }, def, related.name)));
}

/** Attribute paths of `object` whose live value is not what `base` declared (the plan's comparison rules). */
function changedSinceBase(base: StateObject, live: StateObject, keys: PublicKeyTools): ReadonlySet<string> {
  const diff = diffAttributes(base.kind, withoutSubResources(base.kind, base.attributes), live.attributes, kindOf(base.kind).identity.ignoredInDiff, { ...NO_PUBLIC_KEYS, pemThumbprint: keys.pemThumbprint });
  return new Set(diff.changes.map((c) => c.path));
}

function sideOf(gitChanged: boolean, gatewayChanged: boolean): DriftSide {
  if (gitChanged && gatewayChanged) return 'both';
  return gatewayChanged ? 'gateway' : 'git';
}

/**
 * Each entry with the side that changed it since the base (pure; the entries' order kept).
 * @param entries the drift entries (drift-report.ts `driftEntries`: Git now against the gateway now)
 * @param base the desired state of the base commit, for the same target and variant
 * @param desired the desired state now (Git now)
 * @param live the live state (the gateway now)
 * @param keys reads public keys, which compare by RFC 7638 thumbprint (diff.ts `PublicKeys`)
 */
export function classifyDrift(entries: readonly DriftEntry[], base: State, desired: State, live: State, keys: PublicKeyTools): DriftEntry[] {
  const changedCache = new Map<StateObject, ReadonlySet<string>>();
  const changed = (b: StateObject, l: StateObject): ReadonlySet<string> => {
    let found = changedCache.get(b);
    if (!found) changedCache.set(b, (found = changedSinceBase(b, l, keys)));
    return found;
  };
  let baseLinks: ReadonlySet<string> | undefined;
  const links = (): ReadonlySet<string> => (baseLinks ??= new Set(base.links.map(linkKey)));
  return entries.map((entry) => {
    const was = objectIn(base, entry.kind, entry.name);
    const now = objectIn(desired, entry.kind, entry.name);
    const there = objectIn(live, entry.kind, entry.name);
    let side: DriftSide;
    switch (entry.direction) {
      case 'changed': {
        if (!was || !now || !there) side = 'git';
        else if (entry.path === 'content') side = sideOf(was.content?.digest !== now.content?.digest, was.content?.digest !== there.content?.digest);
        else {
          const path = entry.path ?? '';
          const gitChanged = !sameValue(valueAtPath(was.attributes, path), valueAtPath(now.attributes, path));
          side = sideOf(gitChanged, changed(was, there).has(path));
        }
        break;
      }
      case 'deleted':
        // Declared and missing live: deleted on the gateway when the base had it (a conflict when Git changed it too).
        side = was ? sideOf(!sameValue(attributesOf(was), attributesOf(now)), true) : 'git';
        break;
      case 'added':
        // Live and not declared: Git removed it when the base declared it.
        side = was ? 'git' : 'gateway';
        break;
      case 'link-added':
        side = hasLink(links, entry, entry.live) ? 'git' : 'gateway';
        break;
      case 'link-deleted':
        side = hasLink(links, entry, entry.declared) ? 'gateway' : 'git';
        break;
    }
    return { ...entry, side };
  });
}

function attributesOf(object: StateObject | undefined): AttributeObject | undefined {
  return object?.attributes;
}

/**
 * What `drift --adopt` may write: the report with only the gateway's changes (every entry
 * when the report has no base), and the entries kept out: changes in Git not applied yet
 * (adopting them would revert Git) and conflicts (listed, never written).
 */
export function adoptableReport(report: DriftReport): { readonly report: DriftReport; readonly kept: readonly DriftEntry[] } {
  const entries = report.entries.filter((e) => e.side === undefined || e.side === 'gateway');
  const kept = report.entries.filter((e) => e.side !== undefined && e.side !== 'gateway');
  return { report: { ...report, entries, drifted: entries.length > 0 }, kept };
}
