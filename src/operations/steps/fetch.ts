/**
 * Reads live state: one GET list per kind that the manifests or the ownership scope
 * involve, narrowed by the project's ownership filters where that is safe
 * (docs/architecture.md "The data path", step 2). No per-object GETs (declared
 * sub-resources are read apart, by sub-resources.ts).
 */
import type { ResourceType } from '../../kinds/index.js';
import { kindOf, relationshipNamed } from '../../kinds/index.js';
import type { KindListClient } from './kind-list.js';
import { listKind } from './kind-list.js';
import type { ApiResource } from '../../api/documents.js';
import { isBuiltInId } from '../../api/documents.js';
import { joinKey } from '../../core/object-key.js';
import { attributeReferences } from '../../schema/references.js';
import type { State } from '../../engine/model.js';
import type { OwnershipScope } from '../../engine/fetch-scope.js';
import { fetchFilters, projectAttributes, projectionShape } from '../../engine/fetch-scope.js';

/** The calls of the REST client that fetching needs (GatewaySession has them): see KindListClient. */
export type ListClient = KindListClient;

/**
 * Fetches the lists, one GET per kind, sequentially (clients are sequential inside one
 * session). `onList` is told the number of lists read so far after each one.
 */
export async function fetchLiveLists(
  client: ListClient,
  kinds: readonly ResourceType[],
  desired: State,
  scope: OwnershipScope,
  onList?: (done: number) => void,
): Promise<Partial<Record<ResourceType, readonly ApiResource[]>>> {
  const lists: Partial<Record<ResourceType, readonly ApiResource[]>> = {};
  let done = 0;
  for (const kind of kinds) {
    const shape = projectionShape(kind, desired, scope);
    const project = (resource: ApiResource): ApiResource => ({ ...resource, attributes: projectAttributes(shape, resource.attributes) });
    // The shape's top-level names are the sparse fieldset: the other attributes are cut out unparsed.
    lists[kind] = await listKind(client, kindOf(kind), fetchFilters(kind, desired, scope), { project, fields: Object.keys(shape) });
    onList?.((done += 1));
  }
  return lists;
}

/**
 * The objects outside `lists` that a link or a reference of a listed object names (built-in
 * objects apart), read only for their names: one GET list per kind that has any, with the
 * kind's identity attributes only (a sparse fieldset), kept to the ids named. For drift, so
 * that a report names such a link end instead of `#id:<id>` (src/engine/live.ts `linkEnds`).
 */
export async function fetchLinkEnds(client: ListClient, lists: Partial<Record<ResourceType, readonly ApiResource[]>>): Promise<Partial<Record<ResourceType, readonly ApiResource[]>>> {
  const listed = new Set<string>();
  for (const [kind, list] of Object.entries(lists)) for (const r of list) listed.add(joinKey(kind, r.id));
  const wanted = new Map<ResourceType, Set<string>>();
  const want = (kind: ResourceType, id: string): void => {
    if (isBuiltInId(id) || listed.has(joinKey(kind, id))) return;
    const ids = wanted.get(kind) ?? new Set<string>();
    wanted.set(kind, ids.add(id));
  };
  for (const [kind, list] of Object.entries(lists) as [ResourceType, readonly ApiResource[]][]) {
    for (const r of list) {
      for (const name in r.relationships) {
        const member = r.relationships[name];
        const def = relationshipNamed(kindOf(kind), name);
        if (!def || !member || member.data === null) continue;
        for (const ident of Array.isArray(member.data) ? member.data : [member.data]) want(def.target, ident.id);
      }
      for (const reference of attributeReferences(kind, r.attributes)) want(reference.target, String(reference.value));
    }
  }
  const out: Partial<Record<ResourceType, readonly ApiResource[]>> = {};
  for (const [kind, ids] of wanted) {
    const identity = kindOf(kind).identity.attributes;
    const project = (resource: ApiResource): ApiResource => ({ ...resource, attributes: Object.fromEntries(identity.filter((a) => a in resource.attributes).map((a) => [a, resource.attributes[a]])) });
    out[kind] = (await listKind(client, kindOf(kind), [], { project, fields: identity })).filter((r) => ids.has(r.id));
  }
  return out;
}
