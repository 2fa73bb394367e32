/**
 * The check that a plan's calls (`Plan.calls`, batch.ts) can be sent in order for its
 * steps, run on every plan the planner makes and again before any plan is executed (a plan
 * file may have been edited). Pure.
 */
import { kindOf } from '../kinds/index.js';
import { joinKey } from '../core/object-key.js';
import type { PlanCall, PlanStep } from './plan-types.js';
import { idPlaceholder, placeholderRef } from './plan-types.js';
import type { LinkLike } from './batch.js';
import { canonicalDef, identifiersOf } from './batch.js';

/**
 * Checks that `calls` can be sent in order for `steps`: numbered from 1; every step carried
 * by exactly one call; every placeholder names an object a previous call created; no call
 * names an object a previous call deleted; each unlink of a to-one relationship comes before
 * the link that replaces it (by either side's key).
 * @throws Error naming the first problem (a planner bug, or a plan file edited by hand)
 */
export function checkCalls(steps: readonly PlanStep[], calls: readonly PlanCall[]): void {
  // The same arrays (never changed once planned) were checked already: the planner checks
  // what it made, and executing that plan in the same run asks again.
  if (checked.get(calls) === steps) return;
  checkCallsOnce(steps, calls);
  checked.set(calls, steps);
}

/** Calls already found sendable, with the steps they were checked against. */
const checked = new WeakMap<readonly PlanCall[], readonly PlanStep[]>();

/** Something per step index (a Map, or slots by position). */
interface StepSlots<T> {
  get(index: number): T | undefined;
  has(index: number): boolean;
  set(index: number, value: T): unknown;
}

/**
 * Something per step index: kept by position when the steps are numbered 1..n in order
 * (every plan the planner makes, 300,000 steps for 100,000 new mappings), else in a map (a
 * plan file edited by hand may number them anyhow).
 */
function perStep<T>(steps: readonly PlanStep[]): StepSlots<T> {
  if (!steps.every((s, i) => s.index === i + 1)) return new Map<number, T>();
  const slots = new Array<T | undefined>(steps.length + 1).fill(undefined);
  const at = (index: number): boolean => Number.isInteger(index) && index >= 1 && index <= steps.length;
  return {
    get: (index) => (at(index) ? slots[index] : undefined),
    has: (index) => at(index) && slots[index] !== undefined,
    set: (index, value) => {
      if (!at(index)) throw new RangeError(`no step ${index}`);
      slots[index] = value;
    },
  };
}

function checkCallsOnce(steps: readonly PlanStep[], calls: readonly PlanCall[]): void {
  const stepByIndex = perStep<PlanStep>(steps);
  for (const step of steps) stepByIndex.set(step.index, step);
  const callOfStep = perStep<number>(steps);
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i] as PlanCall;
    if (call.index !== i + 1) throw new Error(`call ${i + 1} has index ${call.index}`);
    for (const index of call.steps) {
      if (!stepByIndex.has(index)) throw new Error(`call ${call.index} carries step ${index}, which the plan does not have`);
      if (callOfStep.has(index)) throw new Error(`step ${index} is carried by calls ${callOfStep.get(index) ?? ''} and ${call.index}`);
      callOfStep.set(index, call.index);
    }
  }
  for (const step of steps) if (!callOfStep.has(step.index)) throw new Error(`step ${step.index} is carried by no call`);

  // The placeholders of the objects created so far: a placeholder names one object, written one way (idPlaceholder).
  const created = new Set<string>();
  const deleted = new Set<string>();
  const check = (call: PlanCall, kind: string, id: string): void => {
    // A literal id (every id but a placeholder begins with another character than a brace) names no object this plan creates.
    if (id.startsWith('{') && !created.has(id)) {
      const ref = placeholderRef(id);
      if (ref) throw new Error(`call ${call.index} names ${ref.kind} '${ref.name}' before it is created`);
    }
    if (deleted.size > 0 && deleted.has(joinKey(kind, id))) throw new Error(`call ${call.index} names ${kind} ${id} after it is deleted`);
  };
  for (const call of calls) {
    if (call.endpoint === 'content') {
      const of = stepByIndex.get(call.of);
      if (of?.action !== 'create' && of?.action !== 'update') throw new Error(`call ${call.index} uploads the content of step ${call.of}, which creates or updates nothing`);
      if (call.steps.some((i) => i !== call.of)) throw new Error(`call ${call.index} carries another step than the one whose content it uploads`);
      check(call, call.kind, call.id);
    } else if (call.endpoint === 'relationship') {
      check(call, call.kind, call.id);
      for (const ident of identifiersOf(call.body)) check(call, ident.type, ident.id);
    } else {
      for (const body of Object.values(call.relationships ?? {})) for (const ident of identifiersOf(body)) check(call, ident.type, ident.id);
      const step = stepByIndex.get(call.steps[0] ?? 0);
      if (step?.action === 'update' || step?.action === 'delete') check(call, step.kind, step.id);
      if (step?.action === 'create') created.add(idPlaceholder(step));
      if (step?.action === 'delete') deleted.add(joinKey(step.kind, step.id));
    }
  }

  // To-one replacements: the unlink's call before the link's, on the canonical key and on the inverse one.
  const unlinkCalls = new Map<string, number[]>();
  const toOneKeys = (step: LinkLike): string[] => {
    const def = canonicalDef(step);
    const keys: string[] = [];
    if (def.cardinality === 'one') keys.push(joinKey(step.kind, step.name, def.name));
    if (kindOf(def.target).relationships[def.inverse]?.cardinality === 'one') keys.push(joinKey(step.related.kind, step.related.name, def.inverse));
    return keys;
  };
  for (const step of steps) {
    if (step.action !== 'unlink') continue;
    for (const key of toOneKeys(step)) {
      const list = unlinkCalls.get(key);
      if (list) list.push(callOfStep.get(step.index) ?? 0);
      else unlinkCalls.set(key, [callOfStep.get(step.index) ?? 0]);
    }
  }
  // Without an unlink there is no replacement to check.
  if (unlinkCalls.size === 0) return;
  for (const step of steps) {
    if (step.action !== 'link') continue;
    const at = callOfStep.get(step.index) ?? 0;
    for (const key of toOneKeys(step)) {
      if ((unlinkCalls.get(key) ?? []).some((u) => u >= at)) throw new Error(`step ${step.index} links before the unlink it replaces`);
    }
  }
}
