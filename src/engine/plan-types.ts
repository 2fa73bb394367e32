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
import { isResourceType } from '../kinds/index.js';
import type { SourceLocation } from '../manifest/types.js';
import type { ObjectKey } from '../core/object-key.js';
import type { ObjectRef } from './model.js';
import type { KeptDifference } from './ignored-differences.js';

/**
 * Version of the plan's data format; bumped on any incompatible change of these types
 * (2.0: steps no longer carry `dependsOn`, which nothing read; 3.0: the plan lists the
 * requests apply sends in `calls`, link steps no longer carry a request of their own; 4.0:
 * plan files carry `gateway`, `ownership` and `desired`, so `apply --plan` needs no
 * manifests, see saved-plan.ts; 5.0: plan files carry the `options` and `commit` the plan
 * was made with, and the live digest covers readable secrets as a keyed hash; 6.0: a `content`
 * call uploads a document's declared bytes, and an update step may PATCH a sub-resource of
 * its object, such as a mapping's use of a deny rule group; 7.0: a plan file's links and
 * declared relationships are tuples of strings, and a step's `reason` no longer repeats
 * the step's kind and name).
 * `apply --plan` refuses plan files of another version.
 */
export const PLAN_FORMAT_VERSION = '7.0';

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
  /**
   * The object the step changes (for link/unlink: the link's canonical side, whose block
   * shows it in the renderings; the request may address either side, see {@link Plan.calls}).
   */
  readonly kind: ResourceType;
  readonly name: string;
  /**
   * Why the step exists, in words that leave out what the step itself says (its kind and
   * name, a link's relationship and other end). Display only: never parsed, never used to
   * decide anything.
   */
  readonly reason: string;
  /** Where the object (or for links, the declaring object) is declared. Display only. */
  readonly source?: SourceLocation;
}

/** The fields of a step that changes an object itself (create, update, delete). */
interface ObjectStepBase extends StepBase {
  /**
   * Path relative to the API base, e.g. `/configuration/mappings/4` (the same as its
   * call's). Ids of objects that exist live are literal; the id of an object created
   * earlier in the same plan is the placeholder {@link idPlaceholder} (e.g.
   * `{mapping:shop-api}`), which the executor substitutes. Placeholders occur only in
   * paths, in call ids and in the `id` members of relationship identifiers.
   */
  readonly path: string;
  /** The JSON:API request body with secrets masked; absent for DELETE of an object. */
  readonly body?: unknown;
  /** JSON pointers into `body` (e.g. `/data/attributes/privateKey`) whose masked values the executor refills from the desired object's attributes (the pointer minus `/data/attributes`). */
  readonly secretPaths: readonly string[];
}

/**
 * A change of a document's content sub-resource (kinds with `KindDefinition.content`;
 * docs/manifest-reference.md "Document content"): digests and the diff of the text, never
 * the bytes (those travel once, in the plan's {@link ContentCall}).
 */
export interface ContentChange {
  /** `sha256:<hex>` of the live content; absent when the object is created. */
  readonly before?: string;
  /** `sha256:<hex>` of the declared content. */
  readonly after: string;
  /** Size of the declared content in bytes. Display only. */
  readonly bytes: number;
  /** Unified diff of the live text (`gateway`) against the declared text (`manifest`), without file headers. Display only. */
  readonly diff?: string;
  /** Lines of the diff cut off after `diff`. Display only. */
  readonly omittedLines?: number;
  /** True when either side is not UTF-8 text: no diff, digests only. Display only. */
  readonly binary?: boolean;
  /** True when too many lines changed for a diff (engine/content.ts `CONTENT_DIFF_EDITS`): digests only. Display only. */
  readonly tooManyChanges?: boolean;
}

/** POST a new object: the declared attributes, secrets included (masked here). */
export interface CreateStep extends ObjectStepBase {
  readonly action: 'create';
  readonly method: 'POST';
  readonly body: JsonApiResourceBody;
  /** Every declared leaf attribute (objects flattened, arrays whole). */
  readonly changes: readonly AttributeChange[];
  /** The declared content, uploaded right after the create (a {@link ContentCall}). */
  readonly content?: ContentChange;
}

/** PATCH an existing object: only the changed top-level attributes (their declared subtrees). */
export interface UpdateStep extends ObjectStepBase {
  readonly action: 'update';
  readonly method: 'PATCH';
  readonly id: string;
  readonly body: JsonApiResourceBody;
  readonly changes: readonly AttributeChange[];
  /** Number of declared leaf attributes that already match. Display only. */
  readonly unchangedCount: number;
  /** The declared content when it differs from the live one (uploaded by a {@link ContentCall}); `changes` may then be empty. */
  readonly content?: ContentChange;
  /**
   * Set when the step PATCHes a sub-resource of the object (KindDefinition `subResources`,
   * src/engine/sub-resources.ts) instead of the object: the manifest attribute, its key as
   * declared, and the key's id in the path (literal or a placeholder). `body.data.type` is
   * then the sub-resource's type, and `changes` paths start with `{attribute}.{key}`.
   */
  readonly subResource?: { readonly attribute: string; readonly key: string; readonly id: string };
}

/** DELETE an existing object (its remaining links go with it: the API removes them). */
export interface DeleteStep extends ObjectStepBase {
  readonly action: 'delete';
  readonly method: 'DELETE';
  readonly id: string;
  /**
   * Why: pruning an owned undeclared object, a replaced certificate this plan orphans, or
   * (in a rollback preview) an object the configuration rolled back to does not hold.
   */
  readonly cause: 'prune' | 'orphaned-certificate' | 'rollback';
}

/**
 * Link two objects (stored in the canonical direction). The request that makes the link is
 * a call of {@link Plan.calls}: a PATCH of either side's relationship endpoint, possibly
 * with other links of the same object, or the `relationships` member of a create.
 */
export interface LinkStep extends StepBase {
  readonly action: 'link';
  /** The canonical side's relationship name, e.g. `mappings`. */
  readonly relationship: string;
  readonly related: ObjectRef;
}

/** Remove one link (canonical direction); its request is a DELETE of a call in {@link Plan.calls}. */
export interface UnlinkStep extends StepBase {
  readonly action: 'unlink';
  readonly relationship: string;
  readonly related: ObjectRef;
}

/** One step of a plan, discriminated on `action`. */
export type PlanStep = CreateStep | UpdateStep | DeleteStep | LinkStep | UnlinkStep;

/** `{data:{type, id?, attributes}}` of a POST or PATCH. */
export interface JsonApiResourceBody {
  /** `type` is the object's resource type, or a sub-resource's type (UpdateStep `subResource`). */
  readonly data: { readonly type: string; readonly id?: string; readonly attributes: Record<string, unknown> };
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

/** The fields every call carries. */
interface CallBase {
  /** 1-based position in `Plan.calls` (the order apply sends them in). */
  readonly index: number;
  /** The object the request addresses (for a POST: the object it creates). */
  readonly kind: ResourceType;
  readonly name: string;
  /**
   * Path relative to the API base, with literal ids of live objects and
   * {@link idPlaceholder} placeholders for objects created earlier in the plan, e.g.
   * `/configuration/back-end-groups/7/relationships/mappings`.
   */
  readonly path: string;
  /**
   * Indexes of the steps this request carries, ascending (each step is carried by exactly
   * one call). A failed call fails all of them.
   */
  readonly steps: readonly number[];
}

/**
 * A request to an object's own endpoint: the create, update or delete of the step
 * `steps[0]`, whose `body` it sends (secrets refilled). A create may carry link steps too:
 * their links go in the create body's `relationships` member (KindDefinition
 * `createRelationships`).
 */
export interface ObjectCall extends CallBase {
  readonly endpoint: 'object';
  readonly method: 'POST' | 'PATCH' | 'DELETE';
  /** POST only: the `relationships` member of the create body, by the kind's relationship name. */
  readonly relationships?: Readonly<Record<string, RelationshipBody>>;
}

/**
 * A request to a relationship endpoint, `PATCH` (link) or `DELETE` (unlink)
 * `/configuration/{collection}/{id}/relationships/{relationship}`, carrying every link
 * step of the plan that this object's relationship batches (docs/gateway-api.md
 * "Relationships").
 */
export interface RelationshipCall extends CallBase {
  readonly endpoint: 'relationship';
  readonly method: 'PATCH' | 'DELETE';
  /** The addressed object's id: literal, or a placeholder. */
  readonly id: string;
  /** The addressed object's relationship name (the canonical one or its inverse). */
  readonly relationship: string;
  /** One identifier per step carried, in step order; a to-one relationship takes one identifier, not an array. */
  readonly body: RelationshipBody;
}

/**
 * `PUT /configuration/{collection}/{id}/content` with an `application/octet-stream` body:
 * uploads the declared content of the create or update step `of` (docs/gateway-api.md
 * "OpenAPI and GraphQL documents"). It comes right after that step's object call, or
 * carries the update step itself when no attribute changes (`steps` is then `[of]`, else
 * empty). Apply sends exactly these bytes, after checking them against `digest`.
 */
export interface ContentCall extends CallBase {
  readonly endpoint: 'content';
  readonly method: 'PUT';
  /** The addressed object's id: literal, or a placeholder. */
  readonly id: string;
  /** The index of the step whose content this uploads. */
  readonly of: number;
  /** `sha256:<hex>` of the bytes. */
  readonly digest: string;
  /** The bytes, base64. */
  readonly data: string;
}

/** One request that apply sends, discriminated on `endpoint`. */
export type PlanCall = ObjectCall | RelationshipCall | ContentCall;

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
  /** Steps in execution order; `steps[i].index === i + 1`. One object-level change each: what the renderings show. */
  readonly steps: readonly PlanStep[];
  /**
   * The requests apply sends, in order (`calls[i].index === i + 1`): the steps batched
   * into the fewest calls (batch.ts). The executor sends exactly these.
   */
  readonly calls: readonly PlanCall[];
  /** Live objects inside the ownership scope that no manifest declares and this plan keeps (drift reports them). */
  readonly unmanaged: readonly ObjectRef[];
  /**
   * The differences this plan keeps because a `drift.ignore` entry in force matches them
   * (ignored-differences.ts); absent when it keeps none.
   */
  readonly ignored?: readonly KeptDifference[];
}

/** The id placeholder of an object created in the same plan: `{kind:name}`. */
export function idPlaceholder(ref: ObjectRef): string {
  return `{${ref.kind}:${ref.name}}`;
}

/** The object an {@link idPlaceholder} names, or undefined when `id` is a literal id. */
export function placeholderRef(id: string): ObjectRef | undefined {
  const match = /^\{([a-z0-9-]+):(.*)\}$/s.exec(id);
  const kind = match?.[1];
  const name = match?.[2];
  return kind !== undefined && name !== undefined && isResourceType(kind) ? { kind, name } : undefined;
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
  /** Ids of the objects involved (live and created), by `objectKey(kind, name)` (src/core/object-key.ts). */
  readonly ids: ReadonlyMap<ObjectKey<ResourceType>, string>;
}
