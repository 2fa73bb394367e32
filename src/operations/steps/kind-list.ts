/**
 * The live objects of one kind: the GET list of its collection, or for a singleton kind
 * (KindDefinition `singleton`) the one object its path serves, as a list of one
 * (docs/gateway-api.md "Singletons").
 */
import type { KindDefinition } from '../../kinds/index.js';
import type { ApiResource } from '../../api/documents.js';

/** The REST calls reading a kind needs (GatewaySession has them). */
export interface KindListClient {
  /** GET `/configuration/{collection}` with `filter` parameters (AND), each resource shrunk by `project` as it arrives. */
  list(collection: string, filters: readonly string[], options: { project: (resource: ApiResource) => ApiResource; fields?: Iterable<string> }): Promise<readonly ApiResource[]>;
  /** GET `/configuration/{path}` of a singleton: its one resource. */
  readSingleton(path: string): Promise<ApiResource>;
}

/**
 * The objects of `kind` on the gateway, each shrunk by `options.project`. Filters do not
 * apply to a singleton (its one object is always read).
 * @throws whatever the client throws (ApiError, UnexpectedResponseError, ...)
 */
export async function listKind(
  client: KindListClient,
  kind: KindDefinition,
  filters: readonly string[],
  options: { project: (resource: ApiResource) => ApiResource; fields?: Iterable<string> },
): Promise<readonly ApiResource[]> {
  if (kind.singleton) return [options.project(await client.readSingleton(kind.singleton.path))];
  return client.list(kind.collection, filters, options);
}
