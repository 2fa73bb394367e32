/**
 * The Plan: plain, versioned, JSON-serialisable data (docs/architecture.md "Decisions";
 * Terraform `plans.Plan` + `jsonplan.FormatVersion`). Built by `buildPlan` (plan.ts), read
 * by the executor and the renderers, never re-diffed.
 *
 * Secrets never appear in a plan: values of attributes marked `x-gwops-secret` are replaced
 * by {@link SENSITIVE_MASK} in `body` and in `changes`, before and after values alike; the
 * executor refills them from the desired state through `secretPaths`.
 */
import type { ResourceType } from '../kinds/index.js';
import type { SourceLocation } from '../manifest/types.js';
import type { ObjectRef } from './model.js';

/**
 * Version of the plan's data format; bumped on any incompatible change of these types
 * (2.0: steps no longer carry `dependsOn`, which nothing read: the executor runs the steps
 * in order and stops at the first failure). `apply --plan` refuses plan files of another
 * version.
 */
export const PLAN_FORMAT_VERSION = '2.0';

/** What replaces a secret value everywhere in a plan and in rendered output. */
export const SENSITIVE_MASK = '(sensitive value)';

/** The five things a step can do (Terraform `plans/action.go`). */
export type PlanAction = 'create' | 'update' | 'delete' | 'link' | 'unlink';

/** Every action, in the order the plan runs their phases (deletes last). */
export const PLAN_ACTIONS: readonly PlanAction[] = ['create', 'update', 'unlink', 'link', 'delete'];

/** One changed attribute of a create or update. */
export interface AttributeChange {
  /**
   * Dotted attribute path relative to `attributes`, e.g. `networkInterface.http.port`.
   * Arrays compare and replace whole, so a path never points into an array.
   */
  readonly path: string;
  /** Live value; absent when the attribute is not set live (always absent on create). Masked when sensitive. */
  readonly before?: unknown;
  /** Desired value. Masked when sensitive. */
  readonly after?: unknown;
  /** True when `before`/`after` are (or contain) masked secret values. */
  readonly sensitive: boolean;
}

/** The fields every step carries. */
interface StepBase {
  /** 1-based position in `Plan.steps` (execution order). */
  readonly index: number;
  readonly action: PlanAction;
  /** The object the call is sent to (for link/unlink: the canonical side). */
  readonly kind: ResourceType;
  readonly name: string;
  /**
   * Path relative to the API base, e.g. `/configuration/mappings/4`. Ids of objects that
   * exist live are literal; the id of an object created earlier in the same plan is the
   * placeholder {@link idPlaceholder} (e.g. `{mapping:shop-api}`), which the executor
   * substitutes. Placeholders occur only in `path` and in the `id` members of
   * relationship bodies.
   */
  readonly path: string;
  /** The JSON:API request body with secrets masked; absent for DELETE of an object. */
  readonly body?: unknown;
  /** JSON pointers into `body` (e.g. `/data/attributes/privateKey`) whose masked values the executor refills from the desired object's attributes (the pointer minus `/data/attributes`). */
  readonly secretPaths: readonly string[];
  /** Why the step exists. Display only: never parsed, never used to decide anything. */
  readonly reason: string;
  /** Where the object (or for links, the declaring object) is declared. Display only. */
  readonly source?: SourceLocation;
}

/** POST a new object: the declared attributes, secrets included (masked here). */
export interface CreateStep extends StepBase {
  readonly action: 'create';
  readonly method: 'POST';
  readonly body: JsonApiResourceBody;
  /** Every declared leaf attribute (objects flattened, arrays whole). */
  readonly changes: readonly AttributeChange[];
}

/** PATCH an existing object: only the changed top-level attributes (their declared subtrees). */
export interface UpdateStep extends StepBase {
  readonly action: 'update';
  readonly method: 'PATCH';
  readonly id: string;
  readonly body: JsonApiResourceBody;
  readonly changes: readonly AttributeChange[];
  /** Number of declared leaf attributes that already match. Display only. */
  readonly unchangedCount: number;
}

/** DELETE an existing object (its remaining links go with it: the API removes them). */
export interface DeleteStep extends StepBase {
  readonly action: 'delete';
  readonly method: 'DELETE';
  readonly id: string;
  /** Why: pruning an owned undeclared object, or a replaced certificate this plan orphans. */
  readonly cause: 'prune' | 'orphaned-certificate';
}

/** Link two objects through the canonical side's relationship endpoint (PATCH adds). */
export interface LinkStep extends StepBase {
  readonly action: 'link';
  readonly method: 'PATCH';
  /** The canonical side's relationship name, e.g. `mappings`. */
  readonly relationship: string;
  readonly related: ObjectRef;
  readonly body: RelationshipBody;
}

/** Remove one link through the canonical side's relationship endpoint (DELETE with a body). */
export interface UnlinkStep extends StepBase {
  readonly action: 'unlink';
  readonly method: 'DELETE';
  readonly relationship: string;
  readonly related: ObjectRef;
  readonly body: RelationshipBody;
}

/** One step of a plan, discriminated on `action`. */
export type PlanStep = CreateStep | UpdateStep | DeleteStep | LinkStep | UnlinkStep;

/** `{data:{type, id?, attributes}}` of a POST or PATCH. */
export interface JsonApiResourceBody {
  readonly data: { readonly type: ResourceType; readonly id?: string; readonly attributes: Record<string, unknown> };
}

/** A JSON:API resource identifier. */
export interface ResourceIdentifier {
  readonly type: ResourceType;
  readonly id: string;
}

/** Body of a relationship call: an array for to-many, one identifier for to-one. */
export interface RelationshipBody {
  readonly data: ResourceIdentifier | readonly ResourceIdentifier[];
}

/** Step counts by action. */
export interface PlanSummary {
  readonly create: number;
  readonly update: number;
  readonly delete: number;
  readonly link: number;
  readonly unlink: number;
}

/** The plan. */
export interface Plan {
  readonly formatVersion: typeof PLAN_FORMAT_VERSION;
  /** `liveStateDigest(live, desired)` (plan.ts) of the live state the plan was made against (`apply --plan` refuses when it changed). */
  readonly liveDigest: string;
  readonly summary: PlanSummary;
  /** Steps in execution order; `steps[i].index === i + 1`. */
  readonly steps: readonly PlanStep[];
  /** Live objects inside the ownership scope that no manifest declares and this plan keeps (drift reports them). */
  readonly unmanaged: readonly ObjectRef[];
}

/** The id placeholder of an object created in the same plan: `{kind:name}`. */
export function idPlaceholder(ref: ObjectRef): string {
  return `{${ref.kind}:${ref.name}}`;
}

/** True when the plan changes nothing. */
export function isEmptyPlan(plan: Plan): boolean {
  return plan.steps.length === 0;
}

/** One refused kind of a mass delete. */
export interface MassDeleteCount {
  readonly kind: ResourceType;
  /** Owned live objects of the kind the plan would delete. */
  readonly deletes: number;
  /** Owned live objects of the kind. */
  readonly owned: number;
}

/** The reconciler's errors live in errors.ts; re-exported for existing callers. */
export { DesiredStateError, MassDeleteError, UnresolvedReferenceError } from './errors.js';
