/**
 * Dependency order of plan steps, as data (decK `diff/order.go`): phases in the order of
 * {@link PLAN_ACTIONS} (creates, updates, unlinks, links, deletes); creates and updates by
 * ascending dependency level (certificates, ACME services and back-end groups, then
 * mappings, then virtual hosts), deletes by descending level; links after both ends exist,
 * unlinks before deletes. Ties are broken by registry order of the kind, then names in
 * code-point order, so the same input always gives the same plan.
 *
 * What a step needs is checked here, when the plan is built, and is not part of the plan:
 * the executor runs the steps in order and stops at the first failure
 * (docs/architecture.md "Habits": skipped, not failed).
 */
import { KINDS, kindOf } from '../kinds/index.js';
import type { Key } from '../core/object-key.js';
import { joinKey, splitKey } from '../core/object-key.js';
import type { PlanStep } from './plan-types.js';
import { PLAN_ACTIONS } from './plan-types.js';
import { codePoint } from './code-point.js';

/** A step before it has a position: `index` is filled in by {@link orderSteps}. */
export type DraftStep = PlanStep extends infer S ? (S extends PlanStep ? Omit<S, 'index'> : never) : never;

/** The key of a plan step, see {@link stepKey}. */
export type StepKey = Key<'step'>;

/** A draft with its identity and the identities of the steps it needs. */
export interface StepNode {
  /** Unique key of the step, see {@link stepKey}. */
  readonly key: StepKey;
  readonly step: DraftStep;
  /** Keys of steps that must run before this one; keys of steps not in the plan are ignored. */
  readonly needs: readonly StepKey[];
}

/** The key of an object step (`create`/`update`/`delete`) or a link step (`link`/`unlink`). */
export function stepKey(
  action: PlanStep['action'],
  kind: string,
  name: string,
  link?: { relationship: string; relatedKind: string; relatedName: string },
): StepKey {
  return link
    ? joinKey<'step'>(action, kind, name, link.relationship, link.relatedKind, link.relatedName)
    : joinKey<'step'>(action, kind, name);
}

const kindIndex = new Map<string, number>(KINDS.map((k, i) => [k.type, i]));

/** The position of a step's phase, level and kind; lower runs first. */
export function phaseOf(step: DraftStep): [phase: number, level: number, kind: number] {
  const phase = PLAN_ACTIONS.indexOf(step.action);
  const level = kindOf(step.kind).level;
  return [phase, step.action === 'delete' ? -level : level, kindIndex.get(step.kind) ?? 0];
}

/** The order of {@link compareSteps} after each step's {@link phaseOf} was worked out once. */
function compareRanked(a: { readonly step: DraftStep; readonly rank: readonly number[] }, b: { readonly step: DraftStep; readonly rank: readonly number[] }): number {
  for (let i = 0; i < a.rank.length; i++) {
    const d = (a.rank[i] ?? 0) - (b.rank[i] ?? 0);
    if (d !== 0) return d;
  }
  return compareWithinPhase(a.step, b.step);
}

/** Total order of steps (see the module comment). */
export function compareSteps(a: DraftStep, b: DraftStep): number {
  return compareRanked({ step: a, rank: phaseOf(a) }, { step: b, rank: phaseOf(b) });
}

/** The order of two steps of the same phase, level and kind: by name, then a link's relationship and other end. */
function compareWithinPhase(a: DraftStep, b: DraftStep): number {
  const byName = codePoint(a.name, b.name);
  if (byName !== 0) return byName;
  if ((a.action === 'link' || a.action === 'unlink') && (b.action === 'link' || b.action === 'unlink')) {
    return (
      codePoint(a.relationship, b.relationship) ||
      (kindIndex.get(a.related.kind) ?? 0) - (kindIndex.get(b.related.kind) ?? 0) ||
      codePoint(a.related.name, b.related.name)
    );
  }
  return 0;
}

/** Each action's key prefix (its step keys begin with it, see {@link stepKey}), in phase order. */
const ACTION_PREFIXES = PLAN_ACTIONS.map((action) => joinKey(action, ''));

/** The phase of the step a key names (its first part is the action), or -1 for a key of no action. */
function phaseOfKey(key: StepKey): number {
  for (let phase = 0; phase < ACTION_PREFIXES.length; phase++) if (key.startsWith(ACTION_PREFIXES[phase] ?? '')) return phase;
  return -1;
}

/**
 * Sorts the nodes into execution order and numbers them from 1.
 * @throws Error when a step would run before a step it needs (a programming error: the
 *   phase order is built so that this cannot happen)
 */
export function orderSteps(nodes: readonly StepNode[]): PlanStep[] {
  // Each step's phase, level and kind once, not twice per comparison.
  const sorted = nodes.map((node) => ({ node, step: node.step, rank: phaseOf(node.step) })).sort(compareRanked);
  // The phase comes first in the order, so a step of an earlier phase always runs earlier:
  // only a need of the step's own phase or a later one is looked up, in positions made on
  // first use (planners need only earlier phases: a plan of 100,000 new mappings makes none).
  let positions: Map<StepKey, number> | undefined;
  const positionOf = (key: StepKey): number => {
    if (!positions) {
      positions = new Map<StepKey, number>();
      for (const [i, { node }] of sorted.entries()) positions.set(node.key, i + 1);
    }
    return positions.get(key) ?? 0;
  };
  return sorted.map(({ node, rank }, i): PlanStep => {
    const index = i + 1;
    let late: number | undefined;
    for (const need of node.needs) {
      const phase = phaseOfKey(need);
      if (phase >= 0 && phase < (rank[0] ?? 0)) continue;
      const at = positionOf(need);
      if (at >= index && (late === undefined || at < late)) late = at;
    }
    if (late !== undefined) throw new Error(`step ${index} (${splitKey(node.key).join(' ')}) would run before step ${late} it needs`);
    return numbered(node.step, index);
  });
}

/**
 * The draft itself, given its `index` (added as its last member). In place: a plan of
 * 100,000 new mappings would otherwise copy 300,000 steps. The builders (plan-steps.ts,
 * sub-resources.ts) make the drafts of an action share their hidden classes, and adding the
 * same member to objects of one class gives them one class again.
 */
function numbered(draft: DraftStep, index: number): PlanStep {
  const step = draft as DraftStep & { index?: number };
  step.index = index;
  return step as PlanStep;
}
