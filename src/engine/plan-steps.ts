/**
 * The steps of a plan, one builder per action (create, update, delete, link, unlink), as
 * the planner (plan.ts) orders them: each a step node with its key and the keys it needs.
 * Pure.
 */
import { kindOf } from '../kinds/index.js';
import type { ResourceType } from '../kinds/index.js';
import type { PublicKeys } from './diff.js';
import { creationChanges, diffAttributes, isWriteOnlyPath, redactAttributes } from './diff.js';
import { declaredWithItemDefaults } from './item-defaults.js';
import { collectionPathOf } from './live.js';
import type { Link, StateObject } from './model.js';
import type { StepKey, StepNode } from './order.js';
import { stepKey } from './order.js';
import type { AttributeChange, LinkStep } from './plan-types.js';
import { codePoint } from './code-point.js';
import { contentChange } from './content.js';
import { withoutSubResources } from './sub-resources.js';

/**
 * The reasons of steps whose kind, name and link say the rest: one string each, shared by
 * every step (a plan of 100,000 new mappings has 300,000 such steps, and a reason naming
 * them took 0.4 s of its planning to build).
 */
const REASONS = {
  create: 'declared by the manifests; the gateway does not have it',
  link: 'the manifests declare this link; the gateway does not have it',
  unlink: 'the gateway has this link; the manifests manage it and do not declare it',
  prune: 'inside the ownership scope, declared by no manifest, and pruning is on',
  'orphaned-certificate': 'matches no manifest, and this plan unlinks it from everything that used it',
} as const;

function objectPath(kind: ResourceType, id?: string): string {
  return id === undefined ? collectionPathOf(kind) : `${collectionPathOf(kind)}/${id}`;
}

/** The create step of a desired object that the gateway does not have (its secrets redacted from the body). */
export function createNode(object: StateObject, keys: PublicKeys): StepNode {
  // Sub-resources are changed by steps of their own, after the create (sub-resources.ts).
  const own = withoutSubResources(object.kind, object.attributes);
  const { attributes, secretPaths } = redactAttributes(object.kind, own, '/data/attributes');
  return {
    key: stepKey('create', object.kind, object.name),
    needs: [],
    step: {
      action: 'create',
      method: 'POST',
      kind: object.kind,
      name: object.name,
      path: objectPath(object.kind),
      body: { data: { type: object.kind, attributes } },
      secretPaths,
      changes: creationChanges(object.kind, own, keys),
      ...(object.content ? { content: contentChange(object.content, undefined) } : {}),
      reason: REASONS.create,
      ...(object.source ? { source: object.source } : {}),
    },
  };
}

/**
 * Changes of write-only secrets whose declared version differs from the applied one
 * (docs/manifest-reference.md "Secrets that rotate"); the values stay masked.
 */
function versionChanges(object: StateObject, applied: Readonly<Record<string, number>>): AttributeChange[] {
  const changes: AttributeChange[] = [];
  for (const [path, version] of Object.entries(object.secretVersions ?? {}).sort(([a], [b]) => codePoint(a, b))) {
    if (!isWriteOnlyPath(object.kind, path.split('.')) || applied[path] === version) continue;
    const before = applied[path];
    changes.push({
      path,
      before: `(sensitive value, version ${before === undefined ? 'not recorded' : before})`,
      after: `(sensitive value, version ${version})`,
      sensitive: true,
    });
  }
  return changes;
}

/**
 * The update step of a desired object whose declared attributes (or rotated write-only
 * secrets) differ from the live object, or undefined when none does: a PATCH of the changed
 * top-level attributes.
 */
export function updateNode(
  object: StateObject,
  liveObject: StateObject,
  id: string,
  keys: PublicKeys,
  appliedVersions: Readonly<Record<string, number>>,
): StepNode | undefined {
  const compared = diffAttributes(object.kind, withoutSubResources(object.kind, object.attributes), liveObject.attributes, kindOf(object.kind).identity.ignoredInDiff, keys);
  const rotated = versionChanges(object, appliedVersions);
  // Most objects of a large plan are unchanged: nothing more to build for them.
  if (compared.changes.length === 0 && rotated.length === 0 && !object.content) return undefined;
  const diff = {
    ...compared,
    changes: [...compared.changes, ...rotated],
    changedTopLevel: [...new Set([...compared.changedTopLevel, ...rotated.map((c) => c.path.split('.')[0] ?? c.path)])].sort(),
  };
  const content = object.content ? contentChange(object.content, liveObject.content) : undefined;
  if (diff.changes.length === 0 && !content) return undefined;
  const patch: Record<string, unknown> = {};
  // A changed list goes out whole, with its item defaults filled in (item-defaults.ts).
  for (const key of diff.changedTopLevel) patch[key] = declaredWithItemDefaults(object.kind, key, object.attributes, liveObject.attributes);
  const { attributes, secretPaths } = redactAttributes(object.kind, patch, '/data/attributes');
  const n = diff.changes.length;
  return {
    key: stepKey('update', object.kind, object.name),
    needs: [],
    step: {
      action: 'update',
      method: 'PATCH',
      kind: object.kind,
      name: object.name,
      id,
      path: objectPath(object.kind, id),
      body: { data: { type: object.kind, id, attributes } },
      secretPaths,
      changes: diff.changes,
      unchangedCount: diff.unchanged,
      ...(content ? { content } : {}),
      reason:
        n === 0
          ? "the declared content differs from the gateway's"
          : `${n} declared attribute${n === 1 ? '' : 's'}${content ? ' and the content' : ''} differ${n === 1 && !content ? 's' : ''} from the gateway`,
      ...(object.source ? { source: object.source } : {}),
    },
  };
}

/** The delete step of a live object: pruned, or a certificate orphaned by this plan. */
export function deleteNode(object: StateObject, id: string, cause: 'prune' | 'orphaned-certificate', needs: StepKey[]): StepNode {
  return {
    key: stepKey('delete', object.kind, object.name),
    needs,
    step: {
      action: 'delete',
      method: 'DELETE',
      kind: object.kind,
      name: object.name,
      id,
      path: objectPath(object.kind, id),
      secretPaths: [],
      cause,
      reason: REASONS[cause],
    },
  };
}

/** The parts of a link a step key names. */
export function linkParts(link: Link): { relationship: string; relatedKind: string; relatedName: string } {
  return { relationship: link.relationship, relatedKind: link.to.kind, relatedName: link.to.name };
}

/**
 * The link or unlink step of a link (canonical direction). Its members are written in one
 * literal and the optional `source` added last, so that every link step shares one hidden
 * class (a spread of a shared part gave each its own) and can be numbered in place (order.ts).
 */
export function linkNode(action: 'link' | 'unlink', link: Link, needs: StepKey[], source?: StateObject['source']): StepNode {
  const step: { -readonly [K in keyof LinkDraft]: LinkDraft[K] } = { action, kind: link.from.kind, name: link.from.name, relationship: link.relationship, related: link.to, reason: REASONS[action] };
  if (source) step.source = source;
  return { key: stepKey(action, link.from.kind, link.from.name, linkParts(link)), needs, step };
}

/** A link or unlink step before it is numbered. */
type LinkDraft = Omit<LinkStep, 'index' | 'action'> & { readonly action: 'link' | 'unlink' };
