/**
 * Known drift noise: the `drift.ignore` list of `gwops.yaml` (README.md "Drift"). Each
 * entry names an object (`<kind>/<name>`, the name may be `*`), an attribute path (dotted,
 * as the drift report's `path`; `relationships.<name>` for links) or `*`, a reason and an
 * `until` date. A difference an entry matches is counted as ignored, not as drift, until
 * the end of the `until` day (UTC); after that the entry is expired: a warning, and it
 * ignores nothing. Pure: the clock is a parameter.
 */
import { isResourceType } from '../kinds/index.js';
import type { ResourceType } from '../kinds/index.js';

/** One entry of `drift.ignore`, as the project file holds it. */
export interface DriftIgnoreEntry {
  /** `<kind>/<name>` as written, e.g. `mapping/shop-api` or `mapping/*`. */
  readonly object: string;
  readonly kind: ResourceType;
  /** The object's name, or `*` for every object of the kind. */
  readonly name: string;
  /** A dotted attribute path (a prefix matches the paths under it), or `*`: every difference of the object. */
  readonly attribute: string;
  readonly reason: string;
  /** `YYYY-MM-DD`: the last day (UTC) on which the entry ignores. */
  readonly until: string;
}

/** Where something is written in the project file, as a diagnostic locates it. */
export interface IgnoreLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** JSON pointer inside the project file, e.g. `/drift/ignore/0/attribute`. */
  readonly pointer: string;
}

/** The `drift` section of the project file. */
export interface DriftSettings {
  readonly ignore: readonly DriftIgnoreEntry[];
  /** Where each entry's `object` and `attribute` are written, by the entry's index (absent without a project file). */
  readonly at?: readonly { readonly object: IgnoreLocation; readonly attribute?: IgnoreLocation }[];
}

/** What a problem of one entry is, for the project file's diagnostics (the entry's index and field). */
export interface IgnoreProblem {
  readonly index: number;
  readonly field: 'object' | 'until';
  readonly message: string;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The instant an `until` date stops ignoring (the start of the next day, UTC), or undefined when it is no calendar date. */
export function untilEnd(until: string): Date | undefined {
  const match = DATE.exec(until);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return new Date(date.getTime() + 24 * 3600 * 1000);
}

/** One raw entry as the schema admits it (`schemas/project.schema.json` `$defs/driftIgnore`). */
interface RawEntry {
  readonly object: string;
  readonly attribute?: string;
  readonly reason: string;
  readonly until: string;
}

/**
 * Reads the `drift` section (already checked against the project schema) and checks what
 * the schema cannot: the kind of `object` is one gwops manages, and `until` is a real date.
 * @returns the settings and the problems, by entry index (the caller locates them)
 */
export function parseDriftSettings(raw: unknown): { settings: DriftSettings; problems: IgnoreProblem[] } {
  const entries = (typeof raw === 'object' && raw !== null && 'ignore' in raw && Array.isArray(raw.ignore) ? raw.ignore : []) as RawEntry[];
  const ignore: DriftIgnoreEntry[] = [];
  const problems: IgnoreProblem[] = [];
  entries.forEach((entry, index) => {
    const slash = entry.object.indexOf('/');
    const kind = slash < 0 ? entry.object : entry.object.slice(0, slash);
    const name = slash < 0 ? '' : entry.object.slice(slash + 1);
    if (!isResourceType(kind) || name === '') {
      problems.push({ index, field: 'object', message: `drift.ignore object '${entry.object}' must be <kind>/<name> (or <kind>/*) with a kind gwops manages, e.g. mapping/shop-api` });
      return;
    }
    if (untilEnd(entry.until) === undefined) {
      problems.push({ index, field: 'until', message: `drift.ignore until '${entry.until}' is not a calendar date; write YYYY-MM-DD, e.g. 2027-01-31` });
      return;
    }
    ignore.push({ object: entry.object, kind, name, attribute: entry.attribute ?? '*', reason: entry.reason, until: entry.until });
  });
  return { settings: { ignore }, problems };
}

/** True when the entry's `until` day is over at `now`. */
export function isExpired(entry: DriftIgnoreEntry, now: Date): boolean {
  const end = untilEnd(entry.until);
  return end === undefined || now.getTime() >= end.getTime();
}

/** The entries in force at `now`, and the expired ones (to warn about). */
export function entriesInForce(settings: DriftSettings, now: Date): { active: DriftIgnoreEntry[]; expired: DriftIgnoreEntry[] } {
  const active: DriftIgnoreEntry[] = [];
  const expired: DriftIgnoreEntry[] = [];
  for (const entry of settings.ignore) (isExpired(entry, now) ? expired : active).push(entry);
  return { active, expired };
}

/** The warning about an expired entry. */
export function expiredWarning(entry: DriftIgnoreEntry): string {
  return `drift.ignore entry ${entry.object} ${entry.attribute} expired on ${entry.until} ("${entry.reason}"); its differences are reported again: renew or remove it`;
}

/**
 * The first entry that ignores a difference of object `kind`/`name` at attribute `path`
 * (undefined for a whole object: added or deleted on the gateway, which only `*` matches).
 */
export function matchingEntry(
  entries: readonly DriftIgnoreEntry[],
  kind: ResourceType,
  name: string,
  path: string | undefined,
): DriftIgnoreEntry | undefined {
  return entries.find((e) => {
    if (e.kind !== kind || (e.name !== '*' && e.name !== name)) return false;
    if (e.attribute === '*') return true;
    return path !== undefined && (path === e.attribute || path.startsWith(`${e.attribute}.`));
  });
}
