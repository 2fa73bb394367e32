/**
 * Dependency order of plan steps, as data (decK `diff/order.go`): phases in the order of
 * {@link PLAN_ACTIONS} (creates, updates, unlinks, links, deletes); creates and updates by
 * ascending dependency level (certificates, ACME services and back-end groups, then
 * mappings, then virtual hosts), deletes by descending level; links after both ends exist,
 * unlinks before deletes. Ties are broken by registry order of the kind, then names in
 * code-point order, so the same input always gives the same plan.
 */
import { KINDS, kindOf } from '../kinds/index.js';
import type { PlanStep } from './plan-types.js';
import { PLAN_ACTIONS } from './plan-types.js';

/** A step before it has a position: `index` and `dependsOn` are filled in by {@link orderSteps}. */
export type DraftStep = PlanStep extends infer S ? (S extends PlanStep ? Omit<S, 'index' | 'dependsOn'> : never) : never;

/** A draft with its identity and the identities of the steps it needs. */
export interface StepNode {
  /** Unique key of the step, see {@link stepKey}. */
  readonly key: string;
  readonly step: DraftStep;
  /** Keys of steps this one depends on; keys of steps not in the plan are ignored. */
  readonly needs: readonly string[];
}

/** The key of an object step (`create`/`update`/`delete`) or a link step (`link`/`unlink`). */
export function stepKey(
  action: PlanStep['action'],
  kind: string,
  name: string,
  link?: { relationship: string; relatedKind: string; relatedName: string },
): string {
  const base = `${action}\u0000${kind}\u0000${name}`;
  return link ? `${base}\u0000${link.relationship}\u0000${link.relatedKind}\u0000${link.relatedName}` : base;
}

const kindIndex = new Map<string, number>(KINDS.map((k, i) => [k.type, i]));

function codePointCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The position of a step's phase, level and kind; lower runs first. */
export function phaseOf(step: DraftStep): [phase: number, level: number, kind: number] {
  const phase = PLAN_ACTIONS.indexOf(step.action);
  const level = kindOf(step.kind).level;
  return [phase, step.action === 'delete' ? -level : level, kindIndex.get(step.kind) ?? 0];
}

/** Total order of steps (see the module comment). */
export function compareSteps(a: DraftStep, b: DraftStep): number {
  const pa = phaseOf(a);
  const pb = phaseOf(b);
  for (let i = 0; i < pa.length; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  const byName = codePointCompare(a.name, b.name);
  if (byName !== 0) return byName;
  if ((a.action === 'link' || a.action === 'unlink') && (b.action === 'link' || b.action === 'unlink')) {
    return (
      codePointCompare(a.relationship, b.relationship) ||
      (kindIndex.get(a.related.kind) ?? 0) - (kindIndex.get(b.related.kind) ?? 0) ||
      codePointCompare(a.related.name, b.related.name)
    );
  }
  return 0;
}

/**
 * Sorts the nodes into execution order, numbers them from 1 and turns `needs` into
 * `dependsOn` indexes (ascending).
 * @throws Error when a step would run before a step it needs (a programming error: the
 *   phase order is built so that this cannot happen)
 */
export function orderSteps(nodes: readonly StepNode[]): PlanStep[] {
  const sorted = [...nodes].sort((a, b) => compareSteps(a.step, b.step));
  const indexOf = new Map<string, number>(sorted.map((n, i) => [n.key, i + 1]));
  return sorted.map((node, i): PlanStep => {
    const index = i + 1;
    const dependsOn = [...new Set(node.needs.map((k) => indexOf.get(k)).filter((n): n is number => n !== undefined))].sort(
      (a, b) => a - b,
    );
    const late = dependsOn.find((d) => d >= index);
    if (late !== undefined) throw new Error(`step ${index} (${node.key}) would run before step ${late} it depends on`);
    return { ...node.step, index, dependsOn };
  });
}
