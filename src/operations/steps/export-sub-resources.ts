/**
 * The sub-resources of exported objects (KindDefinition `subResources`,
 * src/engine/sub-resources.ts) for `gwops export --deny-rule-use`: for each exported object
 * of a kind that has them, one GET per key the gateway could hold (each entry of a
 * catalogue, listed once; each exported object of a target kind), and only the entries
 * whose use differs from the kind's defaults kept, as the map attributes manifests write
 * (docs/manifest-reference.md "Deny rule use"). Keys that name a target object hold its id
 * here; the documents name it (src/export/build.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import type { ApiResource } from '../../api/documents.js';
import { isBuiltInId } from '../../gateway/index.js';
import type { ResourceType } from '../../kinds/index.js';
import { kindOf } from '../../kinds/index.js';
import { subResourcesOf } from '../../engine/sub-resources.js';
import type { SubResourceClient } from './sub-resources.js';

/** Input of {@link withSubResources}. */
export interface SubResourceExport {
  readonly kind: ResourceType;
  /** The exported objects of `kind` (built-in ones are skipped). */
  readonly resources: readonly ApiResource[];
  /** The exported lists: the objects of a target kind are the keys read. */
  readonly exported: Partial<Record<ResourceType, readonly ApiResource[]>>;
  /** `--keep-defaults`: a differing entry is written with every member, not only the differing ones. */
  readonly keepDefaults: boolean;
}

/**
 * The members of `live` that differ from `defaults` (every member `defaults` has, with
 * `keepDefaults`), or undefined when none differs. Members the defaults do not name are
 * not known to gwops and are left out.
 */
export function differingUse(live: Readonly<Record<string, unknown>>, defaults: Readonly<Record<string, unknown>>, keepDefaults: boolean): Record<string, unknown> | undefined {
  const known = Object.keys(defaults).filter((member) => member in live);
  const differing = known.filter((member) => !isDeepStrictEqual(live[member], defaults[member]));
  if (differing.length === 0) return undefined;
  return Object.fromEntries((keepDefaults ? known : differing).map((member) => [member, live[member]]));
}

/**
 * `input.resources` with each one's sub-resources that differ from the defaults among its
 * attributes (a map attribute only when it has an entry). Calls are made one after the other
 * on the session (it carries one call at a time).
 * @param onObject called after each object is read, with the count so far (progress)
 * @throws ApiError when a GET fails
 */
export async function withSubResources(client: SubResourceClient, input: SubResourceExport, onObject?: (done: number) => void): Promise<ApiResource[]> {
  const defs = subResourcesOf(input.kind);
  if (defs.length === 0) return [...input.resources];
  const keys = new Map<string, readonly string[]>();
  for (const [name, def] of defs) {
    keys.set(name, 'catalogue' in def.key ? (await client.list(def.key.catalogue, [])).map((r) => r.id) : (input.exported[def.key.target] ?? []).map((r) => r.id).filter((id) => !isBuiltInId(id)));
  }
  const collection = kindOf(input.kind).collection;
  const out: ApiResource[] = [];
  for (const resource of input.resources) {
    if (isBuiltInId(resource.id)) {
      out.push(resource);
      continue;
    }
    const attributes: Record<string, unknown> = { ...resource.attributes };
    for (const [name, def] of defs) {
      const entries: Record<string, unknown> = {};
      for (const key of keys.get(name) ?? []) {
        const live = (await client.get(`${collection}/${resource.id}/${def.segment}`, key)).attributes;
        const use = differingUse(live, def.defaults, input.keepDefaults);
        if (use !== undefined) entries[key] = use;
      }
      if (Object.keys(entries).length > 0) attributes[name] = entries;
    }
    out.push({ ...resource, attributes });
    onObject?.(out.length);
  }
  return out;
}
