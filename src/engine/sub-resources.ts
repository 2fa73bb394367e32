/**
 * Sub-resources of an object (KindDefinition `subResources`): map attributes of a manifest
 * whose keys each name a resource below the object (a mapping's use of the deny rule group
 * `SQLI_PARAM_VALUE` at `.../mappings/{id}/deny-rule-groups/SQLI_PARAM_VALUE`). The live
 * state holds them as the same map attributes, read key by key for the declared keys only
 * (src/operations/steps/sub-resources.ts), so the differ compares them like any attribute and
 * only what a manifest declares is managed. A change becomes one PATCH step per key (an
 * update step with {@link UpdateStep.subResource}); the object's own create and update
 * bodies never carry them. Pure.
 */
import { kindOf } from '../kinds/index.js';
import type { ResourceType, SubResourceDefinition } from '../kinds/index.js';
import type { AttributeObject } from '../manifest/types.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { objectDiagnostic } from '../core/diagnostics.js';
import { codePoint } from './code-point.js';
import type { PublicKeys } from './diff.js';
import { diffAttributes } from './diff.js';
import { declaredWithItemDefaults } from './item-defaults.js';
import { collectionPathOf } from './live.js';
import type { ObjectRef, State, StateObject } from './model.js';
import type { StepKey, StepNode } from './order.js';
import { stepKey } from './order.js';
import { idPlaceholder, placeholderRef } from './plan-types.js';
import { ownMember } from '../core/own-member.js';

const definitions = new Map<ResourceType, readonly (readonly [string, SubResourceDefinition])[]>();

/** The sub-resource attributes of `kind`, by manifest attribute name (none for most kinds). */
export function subResourcesOf(kind: ResourceType): readonly (readonly [string, SubResourceDefinition])[] {
  let defs = definitions.get(kind);
  if (!defs) definitions.set(kind, (defs = Object.entries(kindOf(kind).subResources ?? {})));
  return defs;
}

const declaringMemo = new WeakMap<State, readonly StateObject[]>();

/**
 * The desired objects that declare at least one sub-resource entry, in state order: the
 * fetch, the reading of sub-resources and the planner look at these only (computed once
 * per state; at 100,000 mappings asking every object each time cost seconds).
 */
export function objectsDeclaringSubResources(desired: State): readonly StateObject[] {
  const known = declaringMemo.get(desired);
  if (known) return known;
  const out: StateObject[] = [];
  for (const [kind, objects] of desired.objects) {
    const defs = subResourcesOf(kind);
    if (defs.length === 0) continue;
    for (const object of objects.values()) if (defs.some(([name]) => declaresEntries(object.attributes, name))) out.push(object);
  }
  declaringMemo.set(desired, out);
  return out;
}

/** True when `attributes` declares at least one entry of the sub-resource attribute `name` ({@link declaredEntries} not empty). */
function declaresEntries(attributes: AttributeObject, name: string): boolean {
  const map = attributes[name];
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return false;
  for (const value of Object.values(map as Record<string, unknown>)) if (typeof value === 'object' && value !== null && !Array.isArray(value)) return true;
  return false;
}

const namesOfKind = new Map<ResourceType, readonly string[]>();

/** `attributes` without the kind's sub-resource attributes (what the object's own calls send and compare). */
export function withoutSubResources(kind: ResourceType, attributes: AttributeObject): AttributeObject {
  let names = namesOfKind.get(kind);
  if (!names) namesOfKind.set(kind, (names = subResourcesOf(kind).map(([name]) => name)));
  if (names.length === 0) return attributes;
  if (!names.some((n) => Object.hasOwn(attributes, n))) return attributes;
  return Object.fromEntries(Object.entries(attributes).filter(([k]) => !names.includes(k)));
}

/** The declared entries of one sub-resource attribute: key → declared attributes. */
export function declaredEntries(attributes: AttributeObject, name: string): [string, AttributeObject][] {
  const map = attributes[name];
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return [];
  return Object.entries(map as Record<string, unknown>)
    .filter((e): e is [string, AttributeObject] => typeof e[1] === 'object' && e[1] !== null && !Array.isArray(e[1]))
    .sort(([a], [b]) => codePoint(a, b));
}

/** The path of one sub-resource: `/configuration/{collection}/{objectId}/{segment}/{keyId}` (ids literal or placeholders). */
export function subResourcePath(kind: ResourceType, def: SubResourceDefinition, objectId: string, keyId: string): string {
  return `${collectionPathOf(kind)}/${objectId}/${def.segment}/${keyId}`;
}

/** What the planner offers {@link subResourceNodes}: the id (literal or placeholder) of an object by reference. */
export type IdOf = (ref: ObjectRef) => string | undefined;

/**
 * The PATCH steps of the declared sub-resources of `object` whose declared attributes
 * differ from the live ones (the kind's `defaults` for a key the gateway did not show, as on
 * a new object), one per key, after the object's create and the target's create; and the
 * `unresolved-link` diagnostic of every key that names an object neither the manifests nor
 * the gateway have, located where the key is written (`referenceSources`).
 */
export function subResourceNodes(object: StateObject, liveObject: StateObject | undefined, idOf: IdOf, keys: PublicKeys): { nodes: StepNode[]; unresolved: Diagnostic[] } {
  const nodes: StepNode[] = [];
  const unresolved: Diagnostic[] = [];
  const objectId = idOf(object) ?? idPlaceholder(object);
  for (const [name, def] of subResourcesOf(object.kind)) {
    const liveMap = liveObject?.attributes[name];
    for (const [key, declared] of declaredEntries(object.attributes, name)) {
      let keyId = key;
      const needs: StepKey[] = [];
      if ('target' in def.key) {
        const target = { kind: def.key.target, name: key };
        const id = idOf(target);
        if (id === undefined) {
          unresolved.push(
            objectDiagnostic({
              code: 'unresolved-link',
              object,
              source: object.referenceSources?.[`${name}.${key}`] ?? object.source,
              message: `${object.kind} '${object.name}' ${name} names ${def.key.target} '${key}', which no manifest declares and the gateway does not have: declare it, or remove the entry`,
            }),
          );
          continue;
        }
        keyId = id;
        if (placeholderRef(id)) needs.push(stepKey('create', target.kind, target.name));
      }
      if (placeholderRef(objectId)) needs.push(stepKey('create', object.kind, object.name));
      const liveEntry = (typeof liveMap === 'object' && liveMap !== null ? ownMember(liveMap as Record<string, unknown>, key) : undefined) ?? def.defaults;
      const declaredTree = { [name]: { [key]: declared } };
      const liveTree = { [name]: { [key]: liveEntry } } as AttributeObject;
      const diff = diffAttributes(object.kind, declaredTree, liveTree, [], keys);
      if (diff.changes.length === 0) continue;
      const filled = declaredWithItemDefaults(object.kind, name, declaredTree, liveTree) as Record<string, Record<string, unknown>>;
      const attributes = filled[key] ?? declared;
      const n = diff.changes.length;
      nodes.push({
        key: stepKey('update', object.kind, object.name, { relationship: name, relatedKind: def.type, relatedName: key }),
        needs,
        step: {
          action: 'update',
          method: 'PATCH',
          kind: object.kind,
          name: object.name,
          id: objectId,
          path: subResourcePath(object.kind, def, objectId, keyId),
          body: { data: { type: def.type, ...(def.bodyId ? { id: keyId } : {}), attributes } },
          secretPaths: [],
          changes: diff.changes,
          unchangedCount: diff.unchanged,
          subResource: { attribute: name, key, id: keyId },
          reason: `${n} declared attribute${n === 1 ? '' : 's'} of the ${def.label} '${key}' differ${n === 1 ? 's' : ''} from the gateway`,
          ...(object.source ? { source: object.source } : {}),
        },
      });
    }
  }
  return { nodes, unresolved };
}
