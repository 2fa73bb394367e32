/**
 * The check `apply --plan` makes before it changes anything (docs/architecture.md "Saved
 * plans"): the plan is made again from the plan file's desired state and the live state,
 * and every member of the file's plan (steps, calls, summary, unmanaged objects) must equal
 * that plan. A step or call edited by hand, added, removed or reordered is refused, naming
 * the first difference; so the plan shown, the plan consented to and the requests sent are
 * always what the desired state means.
 */
import { isPlainObject as isRecord } from './diff.js';
import type { Plan, PlanCall, PlanStep } from './plan-types.js';
import type { PlanFile, SavedObject } from './plan-file.js';

/** The first JSON path (`.body.data.attributes.name`, `[2]`) at which `a` and `b` differ, or undefined when they are equal as JSON. */
function firstDifference(a: unknown, b: unknown, at = ''): string | undefined {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const found = firstDifference(a[i], b[i], `${at}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (isRecord(a) && isRecord(b)) {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const found = firstDifference(a[key], b[key], `${at}.${key}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return a === b ? undefined : at === '' ? '(the whole value)' : at;
}

/** `update back-end-group 'shop'` for a step, `PATCH back-end-group 'shop'` for a call. */
function describeEntry(entry: unknown): string {
  if (!isRecord(entry)) return JSON.stringify(entry) ?? 'nothing';
  const verb = typeof entry.action === 'string' ? entry.action : String(entry.method);
  return `${verb} ${String(entry.kind)} '${String(entry.name)}'`;
}

/** What differs between a list of the file (steps or calls) and the same list of the fresh plan. */
function listDifference(what: 'step' | 'call', saved: readonly unknown[], fresh: readonly (PlanStep | PlanCall)[]): string | undefined {
  for (let i = 0; i < Math.max(saved.length, fresh.length); i++) {
    const mine = saved[i];
    const theirs: unknown = fresh[i];
    if (mine === undefined) return `its ${what} ${i + 1} (${describeEntry(theirs)}) is missing from the file`;
    if (theirs === undefined) return `${what} ${i + 1} (${describeEntry(mine)}) is not in that plan`;
    const path = firstDifference(mine, theirs);
    if (path === undefined) continue;
    const same = isRecord(mine) && isRecord(theirs) && describeEntry(mine) === describeEntry(theirs);
    return same
      ? `${what} ${i + 1} (${describeEntry(mine)}) differs from that plan at ${path.replace(/^\./, '')}`
      : `${what} ${i + 1} (${describeEntry(mine)}) is not in that plan, which has ${describeEntry(theirs)} there`;
  }
  return undefined;
}

/**
 * The first difference between a plan file's plan and the plan made again from its desired
 * state (the live digest aside: apply compares it first, as the cause that explains most),
 * in words, or undefined when they are the same plan. Pure.
 * @param saved the plan members as read from the file (any JSON)
 */
export function planDifference(saved: Plan, fresh: Plan): string | undefined {
  const json = JSON.parse(JSON.stringify(fresh)) as Plan;
  const steps = listDifference('step', saved.steps, json.steps);
  if (steps !== undefined) return steps;
  const calls = listDifference('call', saved.calls, json.calls);
  if (calls !== undefined) return calls;
  for (const member of ['summary', 'unmanaged', 'formatVersion'] as const) {
    const path = firstDifference(saved[member], json[member]);
    if (path !== undefined) return `its ${member} differs from that plan${path === '(the whole value)' ? '' : ` at ${path.replace(/^\./, '')}`}`;
  }
  return undefined;
}

/** What {@link desiredDifference} compares of a plan file: its desired state, its ownership scope and its options. */
export type BoundMembers = Pick<PlanFile, 'desired' | 'ownership' | 'options'>;

/**
 * The first difference between the desired state a plan file holds and the one the
 * checkout's manifests make for its target (both as a plan file holds them, secrets as
 * their sources), with its ownership scope and options, in words; undefined when they are
 * the same. An object's `source` (where its document is) is not compared. Pure.
 * (docs/architecture.md "Saved plans", "Bound to the checkout")
 * @param saved the plan file's members as read (any JSON)
 */
export function desiredDifference(saved: BoundMembers, made: BoundMembers): string | undefined {
  const byKey = (objects: readonly SavedObject[]): Map<string, unknown> =>
    new Map(objects.map(({ source: _source, ...object }) => [`${object.kind} '${object.name}'`, JSON.parse(JSON.stringify(object)) as unknown]));
  const mine = byKey(saved.desired.objects);
  const theirs = byKey(made.desired.objects);
  for (const [key, object] of mine) {
    if (!theirs.has(key)) return `${key} is not declared by the manifests`;
    const path = firstDifference(object, theirs.get(key));
    if (path !== undefined) return `${key} differs from the manifests at ${path.replace(/^\./, '')}`;
  }
  for (const key of theirs.keys()) if (!mine.has(key)) return `${key}, declared by the manifests, is not in the file`;
  const keys = (tuples: readonly (readonly string[])[]): Set<string> => new Set(tuples.map((t) => JSON.stringify(t)));
  for (const member of ['links', 'declaredRelationships'] as const) {
    const a = keys(saved.desired[member]);
    const b = keys(made.desired[member]);
    const extra = [...a].find((t) => !b.has(t));
    if (extra !== undefined) return `its desired ${member} hold ${extra}, which the manifests do not`;
    const missing = [...b].find((t) => !a.has(t));
    if (missing !== undefined) return `its desired ${member} lack ${missing}, which the manifests hold`;
  }
  if (firstDifference(saved.ownership, made.ownership) !== undefined) return 'its ownership scope is not the project file\'s';
  if (saved.options.massDeleteShare !== made.options.massDeleteShare) return 'its massDeleteShare is not the project file\'s';
  return undefined;
}
