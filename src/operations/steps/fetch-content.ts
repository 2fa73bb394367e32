/**
 * Reads the content sub-resource of the live documents whose manifests declare `content`
 * (docs/manifest-reference.md "Document content"): one `GET /{id}/content` per such
 * document, none for the others, so content no manifest manages is never read.
 */
import { kindOf } from '../../kinds/index.js';
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
  let objects: Map<ResourceType, ReadonlyMap<string, StateObject>> | undefined;
  for (const [kind, wanted] of desired.objects) {
    if (kindOf(kind).content !== true) continue;
    for (const object of wanted.values()) {
      const liveObject = live.objects.get(kind)?.get(object.name);
      if (!object.content || liveObject?.id === undefined) continue;
      const bytes = await client.readContent(kindOf(kind).collection, liveObject.id, { kind, name: object.name });
      objects ??= new Map(live.objects);
      const copy = new Map(objects.get(kind));
      copy.set(object.name, { ...liveObject, content: objectContent(bytes) });
      objects.set(kind, copy);
    }
  }
  return objects ? { ...live, objects } : live;
}
