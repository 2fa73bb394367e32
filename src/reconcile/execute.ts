/**
 * Executes a Plan inside one gateway session, step by step, never re-diffing
 * (docs/architecture.md "Habits": pure planner, separate executor). Ids of objects created
 * by the plan are learnt from the POST responses and substituted into later paths and
 * bodies; secret values masked in the plan are refilled from the desired state just before
 * sending.
 */
import { kindOf } from '../kinds/index.js';
import type { ResourceType } from '../kinds/index.js';
import type { CreateCheck, GatewaySession } from '../gateway/index.js';
import type { ObjectKey } from '../object-key.js';
import { objectKey } from '../object-key.js';
import type { ObjectRef, State } from './model.js';
import { idOfUnknownRef } from './model.js';
import type { CreateStep, Plan, PlanStep, UpdateStep } from './plan-types.js';

/**
 * The calls of the REST client that execution needs (GatewaySession has them). Creates go
 * through `createChecked`, so a retried POST never duplicates an object.
 */
export type ExecutionClient = Pick<GatewaySession, 'createChecked' | 'update' | 'remove' | 'link' | 'unlink' | 'list'>;

/** Outcome of one step. */
export type StepOutcome =
  | { readonly step: number; readonly status: 'applied' }
  | { readonly step: number; readonly status: 'failed'; readonly error: string }
  | { readonly step: number; readonly status: 'skipped' };

/** What happened to every step of the plan. */
export interface ExecutionReport {
  readonly outcomes: readonly StepOutcome[];
  /** The error that stopped execution, if any. */
  readonly error?: unknown;
  /** Ids of the objects involved (live and created), by `objectKey(kind, name)` (src/object-key.ts). */
  readonly ids: ReadonlyMap<ObjectKey<ResourceType>, string>;
}

/** Raised inside execution when the run was interrupted (SIGINT/SIGTERM). */
export class ExecutionAborted extends Error {}

/** Progress callback: called before (`started`) and after (`done`) each step. */
export type ProgressListener = (event: { step: PlanStep; phase: 'started' | 'done'; total: number }) => void;

function decodePointer(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function getAt(value: unknown, segments: readonly string[]): unknown {
  let current = value;
  for (const segment of segments) {
    if (!current || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function setAt(value: unknown, segments: readonly string[], leaf: unknown): void {
  let current = value;
  for (const [i, segment] of segments.entries()) {
    if (!current || typeof current !== 'object') return;
    const record = current as Record<string, unknown>;
    if (i === segments.length - 1) record[segment] = leaf;
    else current = record[segment];
  }
}

/** The attributes of a create/update body with secrets refilled from the desired state. */
function attributesWithSecrets(step: CreateStep | UpdateStep, desired: State): Record<string, unknown> {
  const attributes = structuredClone(step.body.data.attributes);
  const object = desired.objects.get(step.kind)?.get(step.name);
  for (const pointer of step.secretPaths) {
    const segments = decodePointer(pointer);
    const inAttributes = segments[0] === 'data' && segments[1] === 'attributes' ? segments.slice(2) : segments;
    setAt(attributes, inAttributes, getAt(object?.attributes, inAttributes));
  }
  return attributes;
}

/**
 * Runs the steps in order. Stops at the first failure: that step is `failed`, the rest
 * `skipped` (docs/architecture.md "Habits": skipped, not failed);
 * nothing is activated here (activation is the caller's, after validator messages).
 * @param live the live state the plan was made against (ids of existing objects)
 * @param options.signal aborts between steps (the running call is cancelled by the session)
 * @returns the outcome of every step and the ids of every object involved, by kind and name
 */
export async function executePlan(
  client: ExecutionClient,
  plan: Plan,
  desired: State,
  live: State,
  options: { signal?: AbortSignal | undefined; onProgress?: ProgressListener | undefined } = {},
): Promise<ExecutionReport> {
  const ids = new Map<ObjectKey<ResourceType>, string>();
  for (const [kind, objects] of live.objects) {
    for (const object of objects.values()) if (object.id) ids.set(objectKey(kind, object.name), object.id);
  }
  const idOf = (ref: ObjectRef): string => {
    const id = ids.get(objectKey(ref.kind, ref.name)) ?? idOfUnknownRef(ref.name);
    if (id === undefined) throw new Error(`no id known for ${ref.kind} '${ref.name}' (plan out of order)`);
    return id;
  };
  const outcomes: StepOutcome[] = [];
  let error: unknown;
  for (const step of plan.steps) {
    if (error !== undefined) {
      outcomes.push({ step: step.index, status: 'skipped' });
      continue;
    }
    try {
      if (options.signal?.aborted) throw new ExecutionAborted('interrupted before step ' + String(step.index));
      options.onProgress?.({ step, phase: 'started', total: plan.steps.length });
      await runStep(client, step, desired, idOf, (id) => ids.set(objectKey(step.kind, step.name), id));
      outcomes.push({ step: step.index, status: 'applied' });
      options.onProgress?.({ step, phase: 'done', total: plan.steps.length });
    } catch (caught) {
      error = caught;
      outcomes.push({ step: step.index, status: 'failed', error: caught instanceof Error ? caught.message : String(caught) });
    }
  }
  const idsByObject = new Map(ids);
  return error === undefined ? { outcomes, ids: idsByObject } : { outcomes, ids: idsByObject, error };
}

async function runStep(
  client: ExecutionClient,
  step: PlanStep,
  desired: State,
  idOf: (ref: ObjectRef) => string,
  created: (id: string) => void,
): Promise<void> {
  const kind = kindOf(step.kind);
  const object = { kind: step.kind, name: step.name };
  switch (step.action) {
    case 'create': {
      const attributes = attributesWithSecrets(step, desired);
      const resource = { type: step.kind, attributes };
      const lookup = kind.identity.lookup(step.name, attributes);
      const check: CreateCheck =
        'name' in lookup
          ? { name: lookup.name, object }
          : {
              object,
              find: async () => {
                const all = await client.list(kind.collection, []);
                return all.find((r) => lookup.matches(r.attributes));
              },
            };
      const result = await client.createChecked(kind.collection, resource, check);
      created(result.id);
      return;
    }
    case 'update':
      await client.update(kind.collection, step.id, { type: step.kind, attributes: attributesWithSecrets(step, desired) }, object);
      return;
    case 'delete':
      await client.remove(kind.collection, step.id, object);
      return;
    case 'link':
    case 'unlink': {
      const rel = kind.relationships[step.relationship];
      const target = { type: step.related.kind, id: idOf(step.related) };
      const data = rel?.cardinality === 'one' ? target : [target];
      const id = idOf({ kind: step.kind, name: step.name });
      if (step.action === 'link') await client.link(kind.collection, id, step.relationship, data, object);
      else await client.unlink(kind.collection, id, step.relationship, data, object);
      return;
    }
  }
}
