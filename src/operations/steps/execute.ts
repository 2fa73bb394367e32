/**
 * Executes a Plan inside one gateway session, call by call (`Plan.calls`: each call
 * carries one or more steps, batch.ts), never re-diffing (docs/architecture.md "Habits":
 * pure planner, separate executor). Ids of objects created by the plan are learnt from the
 * POST responses and substituted into later paths and bodies; secret values masked in the
 * plan are refilled from the desired state just before sending.
 */
import { contentResourceOf, kindOf } from '../../kinds/index.js';
import type { ResourceType } from '../../kinds/index.js';
import { InputError } from '../../core/errors.js';
import { contentDigest } from '../../crypto/digest.js';
import type { CreateCheck, GatewaySession, NewResource } from '../../gateway/index.js';
import type { ObjectKey } from '../../core/object-key.js';
import { objectKey } from '../../core/object-key.js';
import { identifiersOf } from '../../engine/batch.js';
import { checkCalls } from '../../engine/call-check.js';
import { decodePointer, getAt } from '../../engine/diff.js';
import type { State } from '../../engine/model.js';
import { liveIdOf } from '../../engine/model.js';
import { mapReferences } from '../../schema/references.js';
import type { CreateStep, Plan, PlanCall, PlanStep, RelationshipBody, ResourceIdentifier, UpdateStep } from '../../engine/plan-types.js';
import { placeholderRef } from '../../engine/plan-types.js';
import type { ExecutionReport, StepOutcome } from '../../engine/plan-types.js';

/**
 * The calls of the REST client that execution needs (GatewaySession has them). Creates go
 * through `createChecked`, so a retried POST never duplicates an object.
 */
export type ExecutionClient = Pick<GatewaySession, 'createChecked' | 'update' | 'remove' | 'link' | 'unlink' | 'list' | 'writeContent' | 'updateSingleton'>;

/** Raised inside execution when the run was interrupted (SIGINT/SIGTERM). */
export class ExecutionAborted extends Error {}

/** Progress callback: called before (`started`) and after (`done`) each step, around the call that carries it. */
export type ProgressListener = (event: { step: PlanStep; phase: 'started' | 'done'; total: number }) => void;

/**
 * Work that may be done while the calls wait for the gateway's answers, a slice at a time
 * (the text of the plan, written while it is applied: src/cli/backlog.ts).
 */
export interface Backlog {
  /** Does some of the work, returning once about `budgetMs` milliseconds have passed or nothing is left. */
  run(budgetMs: number): void;
  /** Does all that is left. */
  finish(): void;
}

/**
 * How long a {@link Backlog} works while one call waits for its answer, in milliseconds.
 * It starts once the request is sent, and the emulator takes longer than this to answer
 * the cheapest call, so the answer never waits for it there; a gateway across a network
 * takes longer still.
 */
export const BACKLOG_SLICE_MS = 0.04;


function setAt(value: unknown, segments: readonly string[], leaf: unknown): void {
  let current = value;
  for (const [i, segment] of segments.entries()) {
    if (!current || typeof current !== 'object') return;
    const record = current as Record<string, unknown>;
    if (i === segments.length - 1) record[segment] = leaf;
    else current = record[segment];
  }
}

/**
 * The attributes of a create/update body with secrets refilled from the desired state, and
 * the names that attributes hold of other objects (schema `x-gwops-reference`) replaced by
 * their ids as JSON numbers.
 * @throws Error when a named object has no id by now (a plan out of order: the planner
 *   refuses names that resolve to nothing)
 */
function sentAttributes(step: CreateStep | UpdateStep, desired: State, idOf: (kind: ResourceType, name: string) => string | undefined): Record<string, unknown> {
  return mapReferences(step.kind, attributesWithSecrets(step, desired), (target, name) => {
    const id = idOf(target, String(name));
    if (id === undefined) throw new Error(`no id known for ${target} '${String(name)}' (plan out of order)`);
    return Number(id);
  });
}

/**
 * The attributes of a create/update body with secrets refilled from the desired state: a
 * copy when it has secrets to refill, else the step's own (never changed: sent as is, and
 * `mapReferences` copies what it replaces), so most calls copy nothing.
 */
function attributesWithSecrets(step: CreateStep | UpdateStep, desired: State): Readonly<Record<string, unknown>> {
  if (step.secretPaths.length === 0) return step.body.data.attributes;
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
 * Sends the plan's calls (`Plan.calls`) in order; each carries one or more steps. Stops at
 * the first failure: every step of the failed call is `failed`, the steps of later calls
 * `skipped` (docs/architecture.md "Habits": skipped, not failed); nothing is activated here
 * (activation is the caller's, after validator messages).
 * @param live the live state the plan was made against (ids of existing objects, for the report)
 * @param options.signal aborts between calls (the running call is cancelled by the session)
 * @param options.backlog worked on for {@link BACKLOG_SLICE_MS} while each call waits for
 *   its answer (not finished here: the caller finishes it)
 * @returns the outcome of every step, in step order, and the ids of every object involved,
 *   by kind and name
 * @throws InputError when the plan's calls do not carry its steps in a valid order (a plan
 *   file edited by hand), before anything is sent
 */
export async function executePlan(
  client: ExecutionClient,
  plan: Plan,
  desired: State,
  live: State,
  options: { signal?: AbortSignal | undefined; onProgress?: ProgressListener | undefined; backlog?: Backlog | undefined } = {},
): Promise<ExecutionReport> {
  try {
    checkCalls(plan.steps, plan.calls);
  } catch (error) {
    throw new InputError(`the plan's calls cannot be sent: ${error instanceof Error ? error.message : String(error)}`);
  }
  // Exactly the bytes the plan showed: content whose bytes no longer have the plan's digest is refused before anything is sent.
  for (const call of plan.calls) {
    if (call.endpoint === 'content' && contentDigest(Buffer.from(call.data, 'base64')) !== call.digest) {
      throw new InputError(`the plan's call ${call.index} uploads content of ${call.kind} '${call.name}' whose digest is not ${call.digest}: the plan was changed after it was made`);
    }
  }
  const ids = new Map<ObjectKey<ResourceType>, string>();
  for (const [kind, objects] of live.objects) {
    for (const object of objects.values()) if (object.id) ids.set(objectKey(kind, object.name), object.id);
  }
  const resolve = (id: string): string => {
    const ref = placeholderRef(id);
    if (!ref) return id;
    const known = ids.get(objectKey(ref.kind, ref.name));
    if (known === undefined) throw new Error(`no id known for ${ref.kind} '${ref.name}' (plan out of order)`);
    return known;
  };
  const stepByIndex = new Map(plan.steps.map((s) => [s.index, s]));
  const idOf = (kind: ResourceType, name: string): string | undefined => ids.get(objectKey(kind, name)) ?? liveIdOf(live, { kind, name });
  const outcomes = new Map<number, StepOutcome>();
  const total = plan.steps.length;
  const backlog = options.backlog;
  let error: unknown;
  for (const call of plan.calls) {
    const carried = call.steps.map((i) => stepByIndex.get(i)).filter((s): s is PlanStep => s !== undefined);
    if (error !== undefined) {
      for (const step of carried) outcomes.set(step.index, { step: step.index, status: 'skipped' });
      continue;
    }
    try {
      if (options.signal?.aborted) throw new ExecutionAborted('interrupted before step ' + String(call.steps[0] ?? ''));
      for (const step of carried) options.onProgress?.({ step, phase: 'started', total });
      const sent = sendCall(client, call, stepByIndex, desired, resolve, idOf, (id) => ids.set(objectKey(call.kind, call.name), id));
      // After the request went out (the microtasks that send it run first), before its answer is read.
      if (backlog) setImmediate(() => backlog.run(BACKLOG_SLICE_MS));
      await sent;
      for (const step of carried) outcomes.set(step.index, { step: step.index, status: 'applied' });
      for (const step of carried) options.onProgress?.({ step, phase: 'done', total });
    } catch (caught) {
      error = caught;
      const message = caught instanceof Error ? caught.message : String(caught);
      for (const step of carried) outcomes.set(step.index, { step: step.index, status: 'failed', error: message });
      // An upload that carries no step fails the create or update whose content it is.
      if (call.endpoint === 'content' && carried.length === 0) outcomes.set(call.of, { step: call.of, status: 'failed', error: `uploading its content failed: ${message}` });
    }
  }
  const ordered = plan.steps.map((s): StepOutcome => outcomes.get(s.index) ?? { step: s.index, status: 'skipped' });
  const idsByObject = new Map(ids);
  return error === undefined ? { outcomes: ordered, ids: idsByObject } : { outcomes: ordered, ids: idsByObject, error };
}

/** The identifiers of a relationship body with placeholders resolved, in the body's shape. */
function resolvedData(body: RelationshipBody, resolve: (id: string) => string): ResourceIdentifier | ResourceIdentifier[] {
  const resolved = identifiersOf(body).map((ident): ResourceIdentifier => ({ type: ident.type, id: resolve(ident.id) }));
  const [first] = resolved;
  return Array.isArray(body.data) || !first ? resolved : first;
}

async function sendCall(
  client: ExecutionClient,
  call: PlanCall,
  stepByIndex: ReadonlyMap<number, PlanStep>,
  desired: State,
  resolve: (id: string) => string,
  idOf: (kind: ResourceType, name: string) => string | undefined,
  created: (id: string) => void,
): Promise<void> {
  const kind = kindOf(call.kind);
  const object = { kind: call.kind, name: call.name };
  if (call.endpoint === 'relationship') {
    const data = resolvedData(call.body, resolve);
    // The link endpoint, when the relationship's calls go to another name than its GET key.
    const endpoint = kind.relationships[call.relationship]?.endpoint ?? call.relationship;
    if (call.method === 'PATCH') await client.link(kind.collection, resolve(call.id), endpoint, data, object);
    else await client.unlink(kind.collection, resolve(call.id), endpoint, data, object);
    return;
  }
  if (call.endpoint === 'content') {
    await client.writeContent(kind.collection, resolve(call.id), Buffer.from(call.data, 'base64'), object, contentResourceOf(kind));
    return;
  }
  const step = stepByIndex.get(call.steps[0] ?? 0);
  if (!step) throw new Error(`call ${call.index} carries no step`);
  switch (step.action) {
    case 'create': {
      const attributes = sentAttributes(step, desired, idOf);
      const relationships = call.relationships
        ? Object.fromEntries(Object.entries(call.relationships).map(([name, body]) => [name, { data: resolvedData(body, resolve) }]))
        : undefined;
      // docs/gateway-api.md "Relationships": a create body may carry `relationships` (KindDefinition createRelationships).
      const resource: NewResource = {
        type: step.kind,
        attributes,
        ...(relationships ? { relationships } : {}),
      };
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
    case 'update': {
      const sub = step.subResource;
      const def = sub === undefined ? undefined : kind.subResources?.[sub.attribute];
      if (sub && def) {
        // A sub-resource (src/engine/sub-resources.ts): its own path and type; an id in the body only where the API wants one.
        const collection = `${kind.collection}/${resolve(step.id)}/${def.segment}`;
        await client.update(collection, resolve(sub.id), { type: def.type, attributes: step.body.data.attributes }, object, { withId: def.bodyId });
        return;
      }
      if (kind.singleton) {
        // A singleton's path has no id (docs/gateway-api.md "Singletons").
        await client.updateSingleton(kind.singleton.path, { type: step.kind, attributes: sentAttributes(step, desired, idOf) }, object);
        return;
      }
      await client.update(kind.collection, step.id, { type: step.kind, attributes: sentAttributes(step, desired, idOf) }, object);
      return;
    }
    case 'delete':
      if (kind.singleton) throw new Error(`call ${call.index} deletes the singleton ${step.kind}`);
      await client.remove(kind.collection, step.id, object);
      return;
    case 'link':
    case 'unlink':
      throw new Error(`call ${call.index} sends ${step.action} step ${step.index} to an object endpoint`);
  }
}
