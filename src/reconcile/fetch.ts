/**
 * Reads live state: one GET list per kind that the manifests or the ownership scope
 * involve, narrowed by the project's ownership filters where that is safe (issue 4,
 * "Fetching live state"). No per-object GETs.
 */
import type { ResourceType } from '../kinds/index.js';
import { KINDS, kindOf } from '../kinds/index.js';
import { matchesFilter, parseFilters } from '../emulator/filter.js';
import type { ApiResource } from './live.js';
import type { State, StateObject } from './model.js';

/** The one call of the REST client that fetching needs. */
export interface ListClient {
  /** GET `/configuration/{collection}` with `filter` parameters (AND). */
  list(collection: string, filters: readonly string[]): Promise<readonly ApiResource[]>;
}

/** Per kind, the API's GET filters that say which live objects a project owns. */
export type OwnershipScope = Partial<Record<ResourceType, readonly string[]>>;

/** Which kinds to read: those with desired objects, those with an ownership scope, and link targets. */
export function kindsToFetch(desired: State, scope: OwnershipScope, available: readonly ResourceType[]): ResourceType[] {
  const wanted = new Set<ResourceType>();
  for (const [kind, objects] of desired.objects) if (objects.size > 0) wanted.add(kind);
  for (const kind of Object.keys(scope) as ResourceType[]) wanted.add(kind);
  for (const kind of [...wanted]) {
    for (const rel of Object.values(kindOf(kind).relationships)) wanted.add(rel.target);
  }
  return KINDS.map((k) => k.type).filter((t) => wanted.has(t) && available.includes(t));
}

/**
 * The filters to send for one kind: the ownership filters when they are on `name` only
 * and every desired object of the kind matches them (then the narrowed list is sure to
 * contain every declared object); otherwise none (the whole list, ownership then
 * evaluated locally by {@link ownershipPredicate}).
 */
export function fetchFilters(kind: ResourceType, desired: State, scope: OwnershipScope): string[] {
  const filters = scope[kind];
  if (!filters || filters.length === 0) return [];
  if (kindOf(kind).identity !== 'name') return [];
  const nameOnly = filters.every((f) =>
    f.split(',').every((piece) => !/^[A-Za-z.]+(==|=@)/.test(piece) || /^name(==|=@)/.test(piece)),
  );
  if (!nameOnly) return [];
  const parsed = parseFilters(filters);
  for (const object of desired.objects.get(kind)?.values() ?? []) {
    if (!matchesFilter(parsed, { type: kind, id: '', attributes: { name: object.name } })) return [];
  }
  return [...filters];
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
    return matchesFilter(filter, { type: object.kind, id: object.id ?? '', attributes: object.attributes });
  };
}

/** Fetches the lists, one GET per kind, sequentially (clients are sequential inside one session). */
export async function fetchLiveLists(
  client: ListClient,
  kinds: readonly ResourceType[],
  desired: State,
  scope: OwnershipScope,
): Promise<Partial<Record<ResourceType, readonly ApiResource[]>>> {
  const lists: Partial<Record<ResourceType, readonly ApiResource[]>> = {};
  for (const kind of kinds) {
    lists[kind] = await client.list(kindOf(kind).collection, fetchFilters(kind, desired, scope));
  }
  return lists;
}
