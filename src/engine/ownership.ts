/**
 * The ownership scope seen from a declared object (docs/architecture.md "Decisions",
 * "Ownership is a GET filter"): a live object of a kind that has a scope, and that the
 * scope does not match, belongs to someone else. A manifest that declares its name would
 * update (or, for a certificate, delete) it in place, so the plan refuses it, naming the
 * object, the values the scope's filters test, and the scope.
 */
import { matchesFilter, parseFilters } from '../api/filter.js';
import { kindOf } from '../kinds/index.js';
import type { OwnershipScope } from './fetch-scope.js';
import { ownershipPredicate } from './fetch-scope.js';
import type { StateObject } from './model.js';

/** Why a live object is outside the scope: the scope of its kind and the values its filters test. */
export interface OutsideScope {
  /** The scope's filters for the object's kind, as written in gwops.yaml. */
  readonly filters: readonly string[];
  /** Per attribute path the filters test (dotted), the object's live value there (absent when it has none). */
  readonly tested: Readonly<Record<string, unknown>>;
}

/** The value at a dotted path; undefined when absent. */
function valueAt(attributes: Record<string, unknown>, path: readonly string[]): unknown {
  let node: unknown = attributes;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node) || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * A test of live objects against `scope`: for an object of a kind that has a scope and
 * that the scope does not match, what the scope is and what its filters saw; undefined
 * for owned objects and for kinds without a scope (a project without a scope for a kind
 * manages the declared objects of that kind wherever they are).
 * @throws FilterSyntaxError when a scope filter is not in the API's filter syntax
 */
export function outsideScopeTest(scope: OwnershipScope): (object: StateObject) => OutsideScope | undefined {
  const isOwned = ownershipPredicate(scope);
  return (object) => {
    const filters = scope[object.kind];
    if (!filters || filters.length === 0 || isOwned(object)) return undefined;
    const tested: Record<string, unknown> = {};
    for (const group of parseFilters(filters).all) {
      for (const condition of group) {
        // A filter property such as a mapping's `label` reads another attribute (`labels`).
        const reads = kindOf(object.kind).filterProperties?.[condition.property] ?? condition.path;
        const shown = reads.join('.');
        const value = valueAt(object.attributes, reads);
        if (value !== undefined) tested[shown] = value;
      }
    }
    return { filters, tested };
  };
}

/**
 * The message of a declared object that exists live outside the scope: the object, the
 * values the scope's filters tested (`labels ["teamB"]`), the scope, and what to do.
 */
export function outsideScopeMessage(object: Pick<StateObject, 'kind' | 'name'> & Partial<Pick<StateObject, 'attributes'>>, outside: OutsideScope): string {
  const parts = Object.entries(outside.tested).map(([path, value]) => `${path} ${JSON.stringify(value)}`);
  const tested = parts.length > 0 ? `with ${parts.join(', ')}` : 'without any attribute its filters test';
  // The manifest may declare what would put the object inside the scope (a label): declaring never takes an object over.
  const declaredInside =
    object.attributes !== undefined &&
    matchesFilter(parseFilters(outside.filters), { type: object.kind, id: '', attributes: object.attributes }, kindOf(object.kind).filterProperties);
  return (
    `${object.kind} '${object.name}' exists on the gateway outside this project's ownership scope ` +
    `(${object.kind}: ${outside.filters.join(' and ')}), ${tested}: it belongs to someone else, and gwops neither updates ` +
    'nor deletes it; give the object another name, or widen the ownership scope in the project file if this project owns it' +
    (declaredInside
      ? '. The manifest gives it what the scope asks for, but declaring never takes an object over: if this project created it outside its scope, ' +
        'set that value on the gateway by hand once (with the consent of whoever else uses it), and gwops manages it from then on'
      : '')
  );
}
