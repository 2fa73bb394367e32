/**
 * The drift report: what differs between the gateway and the manifests, told from the
 * gateway's side (README.md "Drift"). Built from the plan `drift` made (never executed), the
 * desired and live states, the gateway's configuration history and the `drift.ignore`
 * entries in force. Pure: the clock is the caller's.
 *
 * Directions, per object:
 * - `changed`: declared attributes whose live value differs (one entry per attribute), and
 *   declared content whose live bytes differ (`path` is `content`, values are digests);
 * - `deleted`: a declared object that does not exist live;
 * - `added`: a live object inside the ownership scope that no manifest declares;
 * - `link-added` / `link-deleted`: a managed link present live but not declared, or
 *   declared but missing live (`path` is `relationships.<name>`).
 *
 * Secrets never appear: values come masked from the plan, and live attributes of added
 * objects are masked with the same rules (schema `x-gwops-secret`).
 *
 * With a base (drift-base.ts: the desired state of the commit this project last applied),
 * every entry also says which side changed it since (`side`: `gateway`, `git` or `both`);
 * without one, `baseUnavailable` says why and entries carry no side.
 */
import type { PublicKeyTools } from '../crypto/port.js';
import { NO_PUBLIC_KEYS } from './diff.js';
import type { ResourceType } from '../kinds/index.js';
import type { SourceLocation } from '../manifest/types.js';
import type { DriftAttribution } from './drift-attribution.js';
import type { DriftBaseRef, DriftSide } from './drift-base.js';
import { classifyDrift, sameValue, valueAtPath } from './drift-base.js';
import { declaredView } from './declared-view.js';
import type { DriftIgnoreEntry } from '../manifest/drift-ignore.js';
import { matchingEntry } from '../manifest/drift-ignore.js';
import { redactAttributes } from './diff.js';
import type { ObjectRef, State } from './model.js';
import type { Plan } from './plan-types.js';
import { setOwnMember } from '../core/own-member.js';

/** Version of the drift report's JSON format; bumped on any incompatible change. */
export const DRIFT_FORMAT_VERSION = '1.0';

/** How an object differs, seen from the gateway. */
export type DriftDirection = 'changed' | 'deleted' | 'added' | 'link-added' | 'link-deleted';

/** Every direction, in the order the report shows them. */
export const DRIFT_DIRECTIONS: readonly DriftDirection[] = ['changed', 'deleted', 'added', 'link-added', 'link-deleted'];

/** One difference. */
export interface DriftEntry {
  readonly direction: DriftDirection;
  readonly kind: ResourceType;
  readonly name: string;
  /** Dotted attribute path (`changed`), `relationships.<name>` (links); absent for a whole object. */
  readonly path?: string;
  /** The manifests' value (attributes, or for links the related object); absent when the manifests have none. Secrets masked. */
  readonly declared?: unknown;
  /** The gateway's value; absent when the gateway has none. Secrets masked. */
  readonly live?: unknown;
  /** True when `declared` or `live` hold masked secret values. */
  readonly sensitive: boolean;
  /** Where the object (for links: the declaring object) is declared. */
  readonly source?: SourceLocation;
  /**
   * Which side changed it since the base (drift-base.ts); absent when the report has no
   * base. `key-source`, with a base or without: neither side, but the JWK Set a `{ fromJwks }`
   * key is read from, which rotated its keys (key-rotation.ts).
   */
  readonly side?: DriftSide | 'key-source';
  /** With side `key-source`: the `jwks` source of gwops.yaml, or the URL (without credentials), the declared key is read from. */
  readonly keySource?: string;
  /**
   * `changed` only, when it differs from `declared` and `live`: both cut to the members the
   * manifests declare and those whose values differ (declared-view.ts), as the text and
   * markdown reports show them. The JSON report leaves it out: its `declared` and `live`
   * are whole.
   */
  readonly shown?: { readonly declared?: unknown; readonly live?: unknown };
}

/** A difference an ignore entry silenced. */
export interface IgnoredDriftEntry extends DriftEntry {
  readonly ignoredBy: { readonly object: string; readonly attribute: string; readonly reason: string; readonly until: string };
}

/** The report. */
export interface DriftReport {
  readonly formatVersion: typeof DRIFT_FORMAT_VERSION;
  /** True when any entry is drift (ignored ones do not count). */
  readonly drifted: boolean;
  /** Entries by direction, in {@link DRIFT_DIRECTIONS} order, then by kind and name. */
  readonly entries: readonly DriftEntry[];
  readonly ignored: readonly IgnoredDriftEntry[];
  /** Ignore entries whose `until` day is over (they ignored nothing). */
  readonly expiredIgnores: readonly DriftIgnoreEntry[];
  /** Who and when: the activations since gwops's last one. */
  readonly attribution: DriftAttribution;
  /** The activation and commit the entries were classified against (their `side`). */
  readonly base?: DriftBaseRef;
  /** Why no base was found: the entries are Git now against the gateway now, without sides. */
  readonly baseUnavailable?: string;
  /**
   * True when any entry is a change on the gateway (`gateway` or `both`), or, without a
   * base, any entry at all: what `drift --fail-on gateway` alerts on.
   */
  readonly gatewayDrifted: boolean;
}

/** What {@link buildDriftReport} reads. */
export interface DriftReportInput {
  readonly plan: Plan;
  readonly desired: State;
  readonly live: State;
  readonly attribution: DriftAttribution;
  /** Ignore entries in force (not expired). */
  readonly ignore: readonly DriftIgnoreEntry[];
  readonly expiredIgnores: readonly DriftIgnoreEntry[];
  /** The base to classify against: the activation, and the desired state of its commit; or why there is none. */
  readonly base?: { readonly ref: DriftBaseRef; readonly desired: State } | { readonly unavailable: string } | undefined;
  /** Reads public keys for the classification against the base (plan.ts `PlanOptions.publicKeys`); absent, none is read. */
  readonly publicKeys?: PublicKeyTools | undefined;
}

function relatedValue(ref: ObjectRef): { kind: ResourceType; name: string } {
  return { kind: ref.kind, name: ref.name };
}

function maskedLive(live: State, ref: ObjectRef): { value: unknown; sensitive: boolean } {
  const object = live.objects.get(ref.kind)?.get(ref.name);
  if (!object) return { value: undefined, sensitive: false };
  const { attributes, secretPaths } = redactAttributes(ref.kind, object.attributes, '');
  return { value: attributes, sensitive: secretPaths.length > 0 };
}

/** Collects the differences out of the plan (the entries before ignores). */
export function driftEntries(plan: Plan, live: State): DriftEntry[] {
  const entries: DriftEntry[] = [];
  const source = (s: { source?: SourceLocation }): { source?: SourceLocation } => (s.source ? { source: s.source } : {});
  for (const step of plan.steps) {
    switch (step.action) {
      case 'update':
        for (const change of step.changes) {
          entries.push({
            direction: 'changed',
            kind: step.kind,
            name: step.name,
            path: change.path,
            ...('after' in change ? { declared: change.after } : {}),
            ...('before' in change ? { live: change.before } : {}),
            sensitive: change.sensitive,
            ...source(step),
          });
        }
        // The content sub-resource, by digest (docs/manifest-reference.md "Document content").
        if (step.content) {
          const { before, after } = step.content;
          entries.push({ direction: 'changed', kind: step.kind, name: step.name, path: 'content', declared: after, ...(before !== undefined ? { live: before } : {}), sensitive: false, ...source(step) });
        }
        break;
      case 'create': {
        const declared: Record<string, unknown> = {};
        for (const change of step.changes) setOwnMember(declared, change.path, change.after);
        entries.push({ direction: 'deleted', kind: step.kind, name: step.name, declared, sensitive: step.changes.some((c) => c.sensitive), ...source(step) });
        break;
      }
      case 'delete': {
        const { value, sensitive } = maskedLive(live, step);
        entries.push({ direction: 'added', kind: step.kind, name: step.name, ...(value === undefined ? {} : { live: value }), sensitive });
        break;
      }
      case 'link':
        entries.push({ direction: 'link-deleted', kind: step.kind, name: step.name, path: `relationships.${step.relationship}`, declared: relatedValue(step.related), sensitive: false, ...source(step) });
        break;
      case 'unlink':
        entries.push({ direction: 'link-added', kind: step.kind, name: step.name, path: `relationships.${step.relationship}`, live: relatedValue(step.related), sensitive: false, ...source(step) });
        break;
    }
  }
  for (const ref of plan.unmanaged) {
    const { value, sensitive } = maskedLive(live, ref);
    entries.push({ direction: 'added', kind: ref.kind, name: ref.name, ...(value === undefined ? {} : { live: value }), sensitive });
  }
  // The links of an object deleted on the gateway went with it: the deletion says it all.
  const deleted = new Set(entries.filter((e) => e.direction === 'deleted').map((e) => `${e.kind}\u0000${e.name}`));
  const order = new Map(DRIFT_DIRECTIONS.map((d, i) => [d, i]));
  return entries
    .filter((e) => e.direction !== 'link-deleted' || !deleted.has(`${e.kind}\u0000${e.name}`))
    .map((entry, i) => ({ entry, i }))
    .sort(
      (a, b) =>
        (order.get(a.entry.direction) ?? 0) - (order.get(b.entry.direction) ?? 0) ||
        a.entry.kind.localeCompare(b.entry.kind) ||
        a.entry.name.localeCompare(b.entry.name) ||
        a.i - b.i,
    )
    .map(({ entry }) => entry);
}

/**
 * `entry` with its {@link DriftEntry.shown} values when it is a changed attribute whose
 * values hold members the manifests do not declare and that are equal on both sides (the
 * item defaults of a list: declared-view.ts); else `entry` itself.
 */
function withShown(entry: DriftEntry, desired: State): DriftEntry {
  if (entry.direction !== 'changed' || entry.path === undefined || entry.path === 'content') return entry;
  const object = desired.objects.get(entry.kind)?.get(entry.name);
  if (!object || typeof entry.declared !== 'object' || typeof entry.live !== 'object') return entry;
  const cut = declaredView(valueAtPath(object.attributes, entry.path), { value: entry.declared }, { value: entry.live });
  if (sameValue(cut.declared?.value, entry.declared) && sameValue(cut.live?.value, entry.live)) return entry;
  return { ...entry, shown: { declared: cut.declared?.value, live: cut.live?.value } };
}

/** Builds the report (pure). */
export function buildDriftReport(input: DriftReportInput): DriftReport {
  const entries: DriftEntry[] = [];
  const ignored: IgnoredDriftEntry[] = [];
  const base = input.base !== undefined && 'ref' in input.base ? input.base : undefined;
  const found = driftEntries(input.plan, input.live);
  const classified = (base ? classifyDrift(found, base.desired, input.desired, input.live, input.publicKeys ?? NO_PUBLIC_KEYS) : found).map((entry) => withShown(entry, input.desired));
  for (const entry of classified) {
    const by = matchingEntry(input.ignore, entry.kind, entry.name, entry.path);
    if (by) ignored.push({ ...entry, ignoredBy: { object: by.object, attribute: by.attribute, reason: by.reason, until: by.until } });
    else entries.push(entry);
  }
  return {
    formatVersion: DRIFT_FORMAT_VERSION,
    drifted: entries.length > 0,
    entries,
    ignored,
    expiredIgnores: input.expiredIgnores,
    attribution: input.attribution,
    ...(base ? { base: base.ref } : {}),
    ...(input.base !== undefined && 'unavailable' in input.base ? { baseUnavailable: input.base.unavailable } : {}),
    gatewayDrifted: gatewayDrifted(entries),
  };
}

/** True when any entry was changed on the gateway (or may have been: no side known); Git's changes and key rotations at a key source are not. */
export function gatewayDrifted(entries: readonly DriftEntry[]): boolean {
  return entries.some((e) => e.side === undefined || e.side === 'gateway' || e.side === 'both');
}

/** The objects of the report's entries, each once, in report order. */
export function driftedObjects(entries: readonly DriftEntry[]): ObjectRef[] {
  const seen = new Set<string>();
  const out: ObjectRef[] = [];
  for (const e of entries) {
    const key = `${e.kind}\u0000${e.name}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ kind: e.kind, name: e.name });
    }
  }
  return out;
}

/** The entries grouped by object, objects in order of their first entry and entries in their order (one pass). */
export function entriesByObject(entries: readonly DriftEntry[]): { readonly ref: ObjectRef; readonly entries: DriftEntry[] }[] {
  const groups = new Map<string, { ref: ObjectRef; entries: DriftEntry[] }>();
  for (const e of entries) {
    const key = `${e.kind}\u0000${e.name}`;
    const group = groups.get(key);
    if (group) group.entries.push(e);
    else groups.set(key, { ref: { kind: e.kind, name: e.name }, entries: [e] });
  }
  return [...groups.values()];
}
