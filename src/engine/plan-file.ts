/**
 * The data of a plan file (`plan --out`): the plan's own members plus what `apply --plan`
 * needs without manifests (docs/architecture.md "Saved plans"), and the tuples its links
 * and declared relationships are saved as. Reading and writing the file is
 * src/operations/steps/saved-plan.ts. Pure.
 */
import { isResourceType, kindOf } from '../kinds/index.js';
import type { RelationshipDefinition, ResourceType, Variant } from '../kinds/index.js';
import type { AttributeObject, SourceLocation } from '../manifest/types.js';
import type { CommitInfo } from './commit-comment.js';
import type { OwnershipScope } from './fetch-scope.js';
import type { DeclaredRelationship, Link } from './model.js';
import type { Plan } from './plan-types.js';
import type { DriftIgnoreEntry } from '../manifest/drift-ignore.js';

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

/**
 * A link in a plan file, as a tuple: `[from kind, from name, relationship, to name]`, the
 * relationship being the canonical side's (model.ts `Link`), whose target kind is the kind
 * of the other end. A third the size of the link as an object: a plan of 100,000 mappings
 * holds some 200,000 of them.
 */
export type SavedLink = readonly [ResourceType, string, string, string];

/** A declared relationship in a plan file, as a tuple: `[kind, name, relationship]`. */
export type SavedDeclaredRelationship = readonly [ResourceType, string, string];

/** The desired state in a plan file. */
export interface SavedDesired {
  readonly objects: readonly SavedObject[];
  /** The desired state's links, in its order. */
  readonly links: readonly SavedLink[];
  /** The desired state's declared relationships, in its order. */
  readonly declaredRelationships: readonly SavedDeclaredRelationship[];
}

/** A link as a plan file holds it. */
export function savedLink(link: Link): SavedLink {
  return [link.from.kind, link.from.name, link.relationship, link.to.name];
}

/** A declared relationship as a plan file holds it. */
export function savedDeclaredRelationship(declared: DeclaredRelationship): SavedDeclaredRelationship {
  return [declared.object.kind, declared.object.name, declared.relationship];
}

/** The canonical relationship `relationship` of `kind`, when `kind` is a resource type that has it. */
function canonicalRelationship(kind: string, relationship: string): RelationshipDefinition | undefined {
  if (!isResourceType(kind) || !Object.hasOwn(kindOf(kind).relationships, relationship)) return undefined;
  const def = kindOf(kind).relationships[relationship];
  return def?.canonical ? def : undefined;
}

const strings = (value: unknown, length: number): value is readonly string[] =>
  Array.isArray(value) && value.length === length && value.every((part) => typeof part === 'string');

/** True when `value` (read from a plan file) is a {@link SavedLink}: four strings, a resource type and one of its canonical relationships among them. */
export function isSavedLink(value: unknown): value is SavedLink {
  return strings(value, 4) && canonicalRelationship(value[0] ?? '', value[2] ?? '') !== undefined;
}

/** True when `value` (read from a plan file) is a {@link SavedDeclaredRelationship}: three strings, a resource type and one of its relationships among them. */
export function isSavedDeclaredRelationship(value: unknown): value is SavedDeclaredRelationship {
  return strings(value, 3) && isResourceType(value[0] ?? '') && Object.hasOwn(kindOf(value[0] as ResourceType).relationships, value[2] ?? '');
}

/**
 * The link a {@link SavedLink} stands for.
 * @throws Error when its relationship is not a canonical one of its kind (check with {@link isSavedLink} first)
 */
export function linkOfSaved([kind, name, relationship, target]: SavedLink): Link {
  const def = canonicalRelationship(kind, relationship);
  if (!def) throw new Error(`no canonical relationship ${kind}.${relationship}`);
  return { from: { kind, name }, relationship, to: { kind: def.target, name: target } };
}

/** The declared relationship a {@link SavedDeclaredRelationship} stands for. */
export function declaredRelationshipOfSaved([kind, name, relationship]: SavedDeclaredRelationship): DeclaredRelationship {
  return { object: { kind, name }, relationship };
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
  /**
   * The `drift.ignore` entries in force when the plan was made (drift-ignore.ts): `apply
   * --plan` keeps the differences they match as the plan did (ignored-differences.ts).
   */
  readonly ignore?: readonly DriftIgnoreEntry[];
}

/** What a plan was made with besides its desired state: its options and commit (both have defaults for callers that know neither). */
export interface PlanOrigin {
  readonly options: SavedPlanOptions;
  readonly commit: CommitInfo;
}
