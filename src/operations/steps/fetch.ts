/**
 * Reads live state: one GET list per kind that the manifests or the ownership scope
 * involve, narrowed by the project's ownership filters where that is safe
 * (docs/architecture.md "The data path", step 2). No per-object GETs (declared
 * sub-resources are read apart, by sub-resources.ts).
 */
import type { ResourceType } from '../../kinds/index.js';
import { kindOf } from '../../kinds/index.js';
import type { ApiResource } from '../../api/documents.js';
import type { State } from '../../engine/model.js';
import type { OwnershipScope } from '../../engine/fetch-scope.js';
import { fetchFilters, projectAttributes, projectionShape } from '../../engine/fetch-scope.js';

/** The one call of the REST client that fetching needs (GatewaySession has it). */
export interface ListClient {
  /** GET `/configuration/{collection}` with `filter` parameters (AND), each resource shrunk by `project` as it arrives. */
  list(collection: string, filters: readonly string[], options: { project: (resource: ApiResource) => ApiResource; fields?: Iterable<string> }): Promise<readonly ApiResource[]>;
}

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
    lists[kind] = await client.list(kindOf(kind).collection, fetchFilters(kind, desired, scope), { project, fields: Object.keys(shape) });
    onList?.((done += 1));
  }
  return lists;
}
