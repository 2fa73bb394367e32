/**
 * What a run reads of the live gateway, decided from the desired state and the ownership
 * scope: the kinds to list, each list's filters (narrowed by the project's ownership
 * filters where that is safe), the attributes kept of each object, and which live objects
 * the scope owns (docs/architecture.md "The data path"). Pure: the fetch itself is
 * src/operations/steps/fetch.ts.
 */
import type { ResourceType } from '../kinds/index.js';
import { declaredEntries, objectsDeclaringSubResources, subResourcesOf } from './sub-resources.js';
import { KINDS, kindOf, relationshipNamed } from '../kinds/index.js';
import { matchesFilter, parseFilters } from '../api/filter.js';
import { desiredReferences } from './attribute-references.js';
import type { State, StateObject } from './model.js';
import { setOwnMember } from '../core/own-member.js';

/**
 * The attribute keys a plan reads of a kind's live objects: `true` keeps a whole value.
 * Keys are data (sub-resource keys are object names such as `__proto__` or `constructor`):
 * a shape has no prototype, so every key is its own.
 */
export interface Shape {
  [key: string]: Shape | true;
}

const newShape = (): Shape => Object.create(null) as Shape;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function addToShape(shape: Shape, declared: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(declared)) {
    const existing = shape[key];
    if (existing === true) continue;
    if (isPlainObject(value)) {
      const child = existing ?? newShape();
      shape[key] = child;
      addToShape(child, value);
    } else {
      shape[key] = true;
    }
  }
}

function addPath(shape: Shape, path: readonly string[]): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  const existing = shape[head];
  if (existing === true) return;
  if (rest.length === 0) {
    shape[head] = true;
    return;
  }
  const child = existing ?? newShape();
  shape[head] = child;
  addPath(child, rest);
}

/**
 * What a plan reads of the live objects of `kind`: the attributes any desired object of
 * the kind declares (objects by their declared keys, arrays and scalars whole), `name`,
 * the attributes that are the kind's identity (a certificate's `certificate`), and the
 * properties the ownership filters test (with the attribute a filter property of the kind
 * reads, KindDefinition `filterProperties`). Everything else of a full live tree (hundreds
 * of server defaults per mapping) is dropped as the list streams in.
 */
export function projectionShape(kind: ResourceType, desired: State, scope: OwnershipScope): Shape {
  const definition = kindOf(kind);
  const shape = newShape();
  shape.name = true;
  for (const attribute of definition.identity.attributes) shape[attribute] = true;
  for (const object of desired.objects.get(kind)?.values() ?? []) addToShape(shape, object.attributes);
  const filters = scope[kind];
  if (filters && filters.length > 0) {
    for (const group of parseFilters(filters).all) {
      for (const condition of group) {
        addPath(shape, condition.path);
        const reads = definition.filterProperties?.[condition.property];
        if (reads) addPath(shape, reads);
      }
    }
  }
  return shape;
}

/** The value restricted to `shape`. */
export function projectAttributes(shape: Shape, attributes: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, keep] of Object.entries(shape)) {
    if (!Object.hasOwn(attributes, key)) continue;
    const value = attributes[key];
    setOwnMember(out, key, keep === true || !isPlainObject(value) ? value : projectAttributes(keep, value));
  }
  return out;
}

/** Per kind, the API's GET filters that say which live objects a project owns. */
export type OwnershipScope = Partial<Record<ResourceType, readonly string[]>>;

/**
 * Which kinds to read: those with desired objects, those with an ownership scope, the
 * kinds of the objects desired attributes name, and the
 * kinds at the other end of every relationship a manifest declares (so that a desired link
 * finds its live target, and a managed live link is shown with its target's name). A kind
 * that nothing names is not read: the plan cannot touch it.
 */
export function kindsToFetch(desired: State, scope: OwnershipScope, available: readonly ResourceType[]): ResourceType[] {
  const wanted = new Set<ResourceType>();
  for (const [kind, objects] of desired.objects) if (objects.size > 0) wanted.add(kind);
  for (const kind of Object.keys(scope) as ResourceType[]) wanted.add(kind);
  for (const { object, relationship } of desired.declaredRelationships ?? []) {
    const def = relationshipNamed(kindOf(object.kind), relationship);
    if (def) wanted.add(def.target);
  }
  for (const link of desired.links) {
    wanted.add(link.from.kind);
    wanted.add(link.to.kind);
  }
  for (const reference of desiredReferences(desired)) wanted.add(reference.kind);
  // Sub-resources keyed by the names of other objects (sub-resources.ts) resolve them to ids.
  for (const object of objectsDeclaringSubResources(desired)) {
    for (const [name, def] of subResourcesOf(object.kind)) {
      if ('target' in def.key && declaredEntries(object.attributes, name).length > 0) wanted.add(def.key.target);
    }
  }
  // A singleton is read only when a manifest declares it: a project that declares none never changes one.
  for (const kind of KINDS) if (kind.singleton && !(desired.objects.get(kind.type)?.size ?? 0)) wanted.delete(kind.type);
  return KINDS.map((k) => k.type).filter((t) => wanted.has(t) && available.includes(t));
}

/**
 * The filters to send for one kind: the ownership filters when they are on `name` only
 * and every desired object of the kind matches them, and so does every object of the kind
 * that a desired link names (then the narrowed list is sure to contain every declared
 * object and every link end, undeclared ones included); otherwise none (the whole list,
 * ownership then evaluated locally by {@link ownershipPredicate}).
 */
export function fetchFilters(kind: ResourceType, desired: State, scope: OwnershipScope): string[] {
  const filters = scope[kind];
  if (!filters || filters.length === 0) return [];
  if (!kindOf(kind).identity.byName) return [];
  const nameOnly = filters.every((f) =>
    f.split(',').every((piece) => !/^[A-Za-z.]+(==|=@)/.test(piece) || /^name(==|=@)/.test(piece)),
  );
  if (!nameOnly) return [];
  const parsed = parseFilters(filters);
  for (const name of namedObjects(desired, kind)) {
    if (!matchesFilter(parsed, { type: kind, id: '', attributes: { name } })) return [];
  }
  return [...filters];
}

const named = new WeakMap<State, Map<ResourceType, ReadonlySet<string>>>();

/** The names of `kind` that the desired state declares or names in a link or an attribute (computed once per state and kind). */
function namedObjects(desired: State, kind: ResourceType): ReadonlySet<string> {
  let byKind = named.get(desired);
  if (!byKind) named.set(desired, (byKind = new Map<ResourceType, ReadonlySet<string>>()));
  const known = byKind.get(kind);
  if (known) return known;
  const names = new Set<string>(desired.objects.get(kind)?.keys() ?? []);
  for (const link of desired.links) {
    if (link.from.kind === kind) names.add(link.from.name);
    if (link.to.kind === kind) names.add(link.to.name);
  }
  for (const reference of desiredReferences(desired)) if (reference.kind === kind) names.add(reference.name);
  byKind.set(kind, names);
  return names;
}

/**
 * True for live objects inside the ownership scope. A kind without a scope owns nothing:
 * pruning never deletes objects no filter claims.
 * @throws FilterSyntaxError when a scope filter is not in the API's filter syntax
 */
export function ownershipPredicate(scope: OwnershipScope): (object: StateObject) => boolean {
  const parsed = new Map(
    Object.entries(scope).map(([kind, filters]) => [kind, filters && filters.length > 0 ? parseFilters(filters) : undefined]),
  );
  return (object) => {
    const filter = parsed.get(object.kind);
    if (!filter) return false;
    return matchesFilter(filter, { type: object.kind, id: object.id ?? '', attributes: object.attributes }, kindOf(object.kind).filterProperties);
  };
}

