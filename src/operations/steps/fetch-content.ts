/**
 * Reads the content sub-resource of live documents (docs/manifest-reference.md "Document
 * content"): for plan, one `GET /{id}/content` per document whose manifest declares
 * `content`, none for the others, so content no manifest manages is never read; for a
 * rollback preview, of every document of the loaded configuration.
 */
import { contentResourceOf, kindOf } from '../../kinds/index.js';
import type { ResourceType } from '../../kinds/index.js';
import type { GatewaySession } from '../../gateway/index.js';
import { objectContent } from '../../engine/content.js';
import type { State, StateObject } from '../../engine/model.js';

/** The call of the REST client that reading content needs (GatewaySession has it). */
export type ContentClient = Pick<GatewaySession, 'readContent'>;

/**
 * `live` with the content of every live object whose desired object declares content.
 * @returns `live` itself when no desired object declares content
 * @throws ApiError when a GET fails
 */
export async function withLiveContent(client: ContentClient, desired: State, live: State): Promise<State> {
  return withContentOf(client, live, (kind, name) => desired.objects.get(kind)?.get(name)?.content !== undefined);
}

/**
 * `live` (the objects of the loaded configuration) with the content of every object of a
 * kind with a content sub-resource: what a rollback preview compares.
 * @throws ApiError when a GET fails
 */
export async function withEveryContent(client: ContentClient, live: State): Promise<State> {
  return withContentOf(client, live, () => true);
}

/** `live` with the content of the objects of content kinds that `wanted` selects (one GET each). */
async function withContentOf(client: ContentClient, live: State, wanted: (kind: ResourceType, name: string) => boolean): Promise<State> {
  let objects: Map<ResourceType, ReadonlyMap<string, StateObject>> | undefined;
  for (const [kind, byName] of live.objects) {
    if (kindOf(kind).content !== true) continue;
    let copy: Map<string, StateObject> | undefined;
    for (const liveObject of byName.values()) {
      if (liveObject.id === undefined || !wanted(kind, liveObject.name)) continue;
      const bytes = await client.readContent(kindOf(kind).collection, liveObject.id, { kind, name: liveObject.name }, contentResourceOf(kindOf(kind)));
      copy ??= new Map(byName);
      copy.set(liveObject.name, { ...liveObject, content: objectContent(bytes) });
    }
    if (copy) (objects ??= new Map(live.objects)).set(kind, copy);
  }
  return objects ? { ...live, objects } : live;
}
