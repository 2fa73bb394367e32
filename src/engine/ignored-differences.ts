/**
 * Ignored differences that a plan keeps (README.md "Drift", "Known differences"; the idea
 * is Terraform's `ignore_changes` and Argo CD's `RespectIgnoreDifferences`): a difference
 * between the manifests and the gateway that a `drift.ignore` entry in force matches is
 * not undone by `plan` or `apply` until the entry's `until` day is over. The differences
 * are the ones the drift report shows (src/engine/drift-report.ts), matched by the same
 * rule (`matchingEntry`):
 *
 * - an attribute changed on the gateway (`path` as the plan's change names it, a
 *   sub-resource entry's attributes and `content` included): the desired value at that
 *   path becomes the live one, so nothing is sent for it, and a PATCH that carries the
 *   attribute's parent for another change carries the live value there;
 * - a link added or deleted on the gateway (`relationships.<name>`, named from the
 *   link's canonical side): the live link is kept, or the missing one not made again;
 * - an object added on the gateway inside the ownership scope (only `*` matches): it is
 *   never pruned.
 *
 * A declared object the gateway does not have is always created, as Terraform's
 * `ignore_changes` never stops a create: without the state gwops last applied, an object
 * deleted on the gateway cannot be told from one new in the manifests, and an entry such
 * as `mapping/*` with `*` must not stop every new mapping.
 * Rotated write-only secrets (a declared `version`) are no gateway change and are never
 * kept. Pure: which entries are in force at which time is the caller's (drift-ignore.ts
 * `entriesInForce`); the desired state given is never changed, a new one is returned.
 */
import type { ResourceType } from '../kinds/index.js';
import type { DriftIgnoreEntry } from '../manifest/drift-ignore.js';
import { matchingEntry } from '../manifest/drift-ignore.js';
import type { AttributeObject } from '../manifest/types.js';
import { isPlainObject, isWriteOnlyPath } from './diff.js';
import type { Link, ObjectRef, State, StateObject } from './model.js';
import { linkKey } from './model.js';
import type { PlanStep } from './plan-types.js';

/** How a kept difference differs, seen from the gateway (the drift report's directions). */
export type KeptDirection = 'changed' | 'added' | 'link-added' | 'link-deleted';

/** One difference a plan kept because an ignore entry in force matches it. */
export interface KeptDifference {
  readonly direction: KeptDirection;
  readonly kind: ResourceType;
  readonly name: string;
  /** The attribute path (`changed`), `relationships.<name>` (links); absent for a whole object. */
  readonly path?: string;
  /** For links: the object at the other end. */
  readonly related?: ObjectRef;
  /** The entry that keeps it, as the project file writes it. */
  readonly ignoredBy: { readonly object: string; readonly attribute: string; readonly reason: string; readonly until: string };
}

function by(entry: DriftIgnoreEntry): KeptDifference['ignoredBy'] {
  return { object: entry.object, attribute: entry.attribute, reason: entry.reason, until: entry.until };
}

/**
 * The differences of `steps` (a plan made without ignores) that an entry of `entries`
 * matches, in step order. The segments of each `changed` path are kept beside it
 * (a sub-resource key may hold a dot).
 */
function matched(steps: readonly PlanStep[], entries: readonly DriftIgnoreEntry[]): { kept: KeptDifference; segments?: readonly string[] }[] {
  const out: { kept: KeptDifference; segments?: readonly string[] }[] = [];
  const created = new Set<string>();
  for (const step of steps) {
    switch (step.action) {
      case 'update': {
        const prefix = step.subResource ? [step.subResource.attribute, step.subResource.key] : [];
        const prefixText = prefix.map((s) => `${s}.`).join('');
        for (const change of step.changes) {
          const rest = change.path.slice(prefixText.length);
          const segments = [...prefix, ...rest.split('.')];
          if (isWriteOnlyPath(step.kind, segments)) continue;
          const entry = matchingEntry(entries, step.kind, step.name, change.path);
          if (entry) out.push({ kept: { direction: 'changed', kind: step.kind, name: step.name, path: change.path, ignoredBy: by(entry) }, segments });
        }
        const content = step.content ? matchingEntry(entries, step.kind, step.name, 'content') : undefined;
        if (content) out.push({ kept: { direction: 'changed', kind: step.kind, name: step.name, path: 'content', ignoredBy: by(content) } });
        break;
      }
      case 'create': {
        // Created even when an entry matches (see the module's header), with the links the manifests give it.
        created.add(`${step.kind}\u0000${step.name}`);
        break;
      }
      case 'delete': {
        const entry = step.cause === 'prune' ? matchingEntry(entries, step.kind, step.name, undefined) : undefined;
        if (entry) out.push({ kept: { direction: 'added', kind: step.kind, name: step.name, ignoredBy: by(entry) } });
        break;
      }
      case 'link':
      case 'unlink': {
        const path = `relationships.${step.relationship}`;
        const entry = matchingEntry(entries, step.kind, step.name, path);
        const direction = step.action === 'link' ? 'link-deleted' : 'link-added';
        if (entry) out.push({ kept: { direction, kind: step.kind, name: step.name, path, related: step.related, ignoredBy: by(entry) } });
        break;
      }
    }
  }
  // The links of an object that is created are made with it, whatever an entry says.
  return out.filter(({ kept }) => kept.direction !== 'link-deleted' || (!created.has(`${kept.kind}\u0000${kept.name}`) && !(kept.related && created.has(`${kept.related.kind}\u0000${kept.related.name}`))));
}

/** `attributes` with the value at `segments` set to `value` (removed when undefined); only the objects on the way are copied. */
function withValueAt(attributes: AttributeObject, segments: readonly string[], value: unknown): AttributeObject {
  const [head, ...rest] = segments;
  if (head === undefined) return attributes;
  const copy: AttributeObject = { ...attributes };
  if (rest.length === 0) {
    if (value === undefined) delete copy[head];
    else copy[head] = value;
    return copy;
  }
  const child = copy[head];
  if (!isPlainObject(child)) return attributes;
  copy[head] = withValueAt(child, rest, value);
  return copy;
}

/** The value at `segments` of `attributes` (own members only), or undefined. */
function valueAt(attributes: AttributeObject, segments: readonly string[]): unknown {
  let node: unknown = attributes;
  for (const segment of segments) {
    if (!isPlainObject(node) || !Object.hasOwn(node, segment)) return undefined;
    node = node[segment];
  }
  return node;
}

/** What {@link keepIgnored} returns. */
export interface KeptIgnored {
  /** The desired state to plan with: `desired` where nothing is kept. */
  readonly desired: State;
  readonly kept: readonly KeptDifference[];
  /** Objects added on the gateway that are kept (never pruned), by `kind\u0000name`. */
  readonly keptObjects: ReadonlySet<string>;
}

/**
 * The desired state that keeps every difference of `steps` (the plan of `desired` against
 * `live`, made without ignores) that an entry of `entries` matches (see this module's
 * header), and those differences.
 */
export function keepIgnored(desired: State, live: State, steps: readonly PlanStep[], entries: readonly DriftIgnoreEntry[]): KeptIgnored {
  const found = entries.length === 0 ? [] : matched(steps, entries);
  if (found.length === 0) return { desired, kept: [], keptObjects: new Set() };
  const objects = new Map<ResourceType, Map<string, StateObject>>();
  for (const [kind, byName] of desired.objects) objects.set(kind, new Map(byName));
  let links: Link[] = [...desired.links];
  const keptObjects = new Set<string>();
  for (const { kept, segments } of found) {
    const byName = objects.get(kept.kind);
    const object = byName?.get(kept.name);
    const liveObject = live.objects.get(kept.kind)?.get(kept.name);
    switch (kept.direction) {
      case 'changed': {
        if (!byName || !object || !liveObject) break;
        if (segments === undefined) {
          // The content: not managed while the entry is in force.
          const { content: _content, ...rest } = object;
          byName.set(kept.name, rest);
        } else {
          byName.set(kept.name, { ...object, attributes: withValueAt(object.attributes, segments, valueAt(liveObject.attributes, segments)) });
        }
        break;
      }
      case 'added':
        keptObjects.add(`${kept.kind}\u0000${kept.name}`);
        break;
      case 'link-added':
      case 'link-deleted': {
        if (!kept.related || kept.path === undefined) break;
        const link: Link = { from: { kind: kept.kind, name: kept.name }, relationship: kept.path.slice('relationships.'.length), to: kept.related };
        const key = linkKey(link);
        links = kept.direction === 'link-added' ? [...links, link] : links.filter((l) => linkKey(l) !== key);
        break;
      }
    }
  }
  return { desired: { ...desired, objects, links }, kept: found.map((f) => f.kept), keptObjects };
}
