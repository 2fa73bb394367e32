/**
 * Steps grouped by the object they change, for renderers that show one section per object
 * (Terraform shows one block per resource). A link step belongs to its canonical side's
 * object, so a virtual host's relinks appear inside the virtual host's block.
 */
import type { ObjectRef } from '../engine/model.js';
import { ByObject } from '../engine/model.js';
import type { CreateStep, DeleteStep, LinkStep, Plan, UnlinkStep, UpdateStep } from '../engine/plan-types.js';

/** The steps of one object. */
export interface ObjectGroup {
  readonly ref: ObjectRef;
  /** The create, update or delete of the object itself, if any. */
  readonly change?: CreateStep | UpdateStep | DeleteStep;
  /** Link and unlink steps of this object as the links' canonical side (their calls may address either side), in plan order. */
  readonly links: readonly (LinkStep | UnlinkStep)[];
}

/** `change` showing the attribute changes of `more` as well (display only). */
function withChangesOf(change: CreateStep | UpdateStep, more: UpdateStep): CreateStep | UpdateStep {
  const changes = [...change.changes, ...more.changes];
  return change.action === 'update' ? { ...change, changes, unchangedCount: change.unchangedCount + more.unchangedCount } : { ...change, changes };
}

/**
 * Groups the plan's steps by object, ordered by each object's first step; an object's
 * several update steps (its own and its sub-resources') show as one change.
 */
export function groupSteps(plan: Plan): ObjectGroup[] {
  // Looked up by kind and name, without a key built per step (300,000 steps for 100,000 new mappings).
  const byObject = new ByObject<{ ref: ObjectRef; change?: CreateStep | UpdateStep | DeleteStep; links: (LinkStep | UnlinkStep)[] }>();
  const groups: ObjectGroup[] = [];
  for (const step of plan.steps) {
    let group = byObject.get(step);
    if (!group) {
      group = byObject.set(step, { ref: { kind: step.kind, name: step.name }, links: [] });
      groups.push(group);
    }
    switch (step.action) {
      case 'update':
        // An object's sub-resources are updated by steps of their own (src/engine/sub-resources.ts): one block shows them all.
        group.change = group.change && group.change.action !== 'delete' ? withChangesOf(group.change, step) : step;
        break;
      case 'create':
      case 'delete':
        group.change = step;
        break;
      case 'link':
      case 'unlink':
        group.links.push(step);
        break;
    }
  }
  return groups;
}

/** The verb a group's header uses. */
export function groupVerb(group: ObjectGroup): string {
  switch (group.change?.action) {
    case 'create':
      return 'will be created';
    case 'update':
      return 'will be updated in place';
    case 'delete':
      return 'will be destroyed';
    case undefined:
      return 'will be relinked';
  }
}

/** Why a delete happens, in words (display only). */
export function deleteCause(step: DeleteStep): string {
  switch (step.cause) {
    // The step's own reason says it in these words.
    case 'prune':
    case 'rollback':
      return step.reason;
    case 'orphaned-certificate':
      return 'a replaced certificate: no manifest declares it and this plan unlinks its last virtual host';
  }
}
