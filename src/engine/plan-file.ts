/**
 * The data of a plan file (`plan --out`): the plan's own members plus what `apply --plan`
 * needs without manifests (docs/architecture.md "Saved plans"). Reading and writing the
 * file is src/operations/steps/saved-plan.ts.
 */
import type { ResourceType, Variant } from '../kinds/index.js';
import type { AttributeObject, SourceLocation } from '../manifest/types.js';
import type { CommitInfo } from './commit-comment.js';
import type { OwnershipScope } from './fetch-scope.js';
import type { DeclaredRelationship, Link } from './model.js';
import type { Plan } from './plan-types.js';

/** The gateway a plan was made against. */
export interface PlanGateway {
  /** Base URL of the configuration REST API, as the run resolved it. */
  readonly url: string;
  readonly variant: Variant;
  /** The target of the project file, when the run used one. */
  readonly target?: string;
}

/** One desired object in a plan file: secret attributes hold their {@link SecretReference}. */
export interface SavedObject {
  readonly kind: ResourceType;
  readonly name: string;
  readonly attributes: AttributeObject;
  readonly identityKey?: string;
  readonly source?: SourceLocation;
  /** The declared versions of its write-only secrets by dotted attribute path (numbers, never secrets). */
  readonly secretVersions?: Readonly<Record<string, number>>;
  /**
   * The digest of its declared content (docs/manifest-reference.md "Document content"); the
   * bytes are in the plan's content call when the plan uploads them, never twice in a file.
   */
  readonly content?: { readonly digest: string };
}

/** The desired state in a plan file. */
export interface SavedDesired {
  readonly objects: readonly SavedObject[];
  readonly links: readonly Link[];
  readonly declaredRelationships: readonly DeclaredRelationship[];
}

/** The options a plan was made with; `apply --plan` makes the plan again with them. */
export interface SavedPlanOptions {
  /** `--prune`. */
  readonly prune: boolean;
  /** `--allow-mass-delete`. */
  readonly allowMassDelete: boolean;
  /** The project file's `massDeleteShare` (a share from 0 to 1). */
  readonly massDeleteShare: number;
}

/** A plan file: the plan's own members plus what apply needs without manifests. */
export interface PlanFile extends Plan {
  readonly gateway: PlanGateway;
  readonly ownership: OwnershipScope;
  readonly options: SavedPlanOptions;
  /** The commit the plan was made from (commit-comment.ts); `apply --plan` derives its activation comment from it. */
  readonly commit: CommitInfo;
  readonly desired: SavedDesired;
}

/** What a plan was made with besides its desired state: its options and commit (both have defaults for callers that know neither). */
export interface PlanOrigin {
  readonly options: SavedPlanOptions;
  readonly commit: CommitInfo;
}
