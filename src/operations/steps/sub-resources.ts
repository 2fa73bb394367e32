/**
 * Reads the sub-resources that manifests declare (KindDefinition `subResources`,
 * src/engine/sub-resources.ts) into the live state: one GET per declared key of each
 * declared object that exists live, nothing for undeclared keys, so what no manifest names
 * is never read, changed or reported as drift. Keys that name a catalogue entry (a built-in
 * deny rule group's short name) are first checked against one GET of the catalogue, so an
 * unknown one stops the run before anything is sent.
 */
import type { ApiResource } from '../../api/documents.js';
import { kindOf } from '../../kinds/index.js';
import type { Diagnostic } from '../../core/diagnostics.js';
import { objectDiagnostic } from '../../core/diagnostics.js';
import { UnknownSubResourceError } from '../../engine/errors.js';
import type { State, StateObject } from '../../engine/model.js';
import { liveIdOf } from '../../engine/model.js';
import { declaredEntries, objectsDeclaringSubResources, subResourcesOf } from '../../engine/sub-resources.js';
import { suggestion } from '../../manifest/schema-check.js';
import { setOwnMember } from '../../core/own-member.js';

/** The calls of the REST client that reading sub-resources needs (GatewaySession has them). */
export interface SubResourceClient {
  list(collection: string, filters: readonly string[]): Promise<readonly ApiResource[]>;
  get(collection: string, id: string): Promise<ApiResource>;
}

/** The declared objects that have sub-resource entries, with their live counterpart (undefined when new). */
function declaring(desired: State, live: State): { object: StateObject; liveObject: StateObject | undefined }[] {
  return objectsDeclaringSubResources(desired).map((object) => ({ object, liveObject: live.objects.get(object.kind)?.get(object.name) }));
}

/**
 * Checks every declared key that names a catalogue entry against the catalogue (one GET per
 * catalogue that some manifest uses).
 * @throws UnknownSubResourceError locating each unknown key, with the nearest known one
 */
async function checkCatalogues(client: SubResourceClient, found: ReturnType<typeof declaring>): Promise<void> {
  const catalogues = new Map<string, readonly string[]>();
  const problems: Diagnostic[] = [];
  for (const { object } of found) {
    for (const [name, def] of subResourcesOf(object.kind)) {
      if (!('catalogue' in def.key)) continue;
      const entries = declaredEntries(object.attributes, name);
      if (entries.length === 0) continue;
      const catalogue = def.key.catalogue;
      let known = catalogues.get(catalogue);
      if (!known) {
        known = (await client.list(catalogue, [])).map((r) => r.id);
        catalogues.set(catalogue, known);
      }
      for (const [key] of entries) {
        if (known.includes(key)) continue;
        problems.push(
          objectDiagnostic({
            code: 'unresolved-link',
            object,
            source: object.referenceSources?.[`${name}.${key}`] ?? object.source,
            message: `${object.kind} '${object.name}' ${name} names the ${def.label} '${key}', which the gateway does not have${suggestion(key, known)}`,
          }),
        );
      }
    }
  }
  if (problems.length > 0) throw new UnknownSubResourceError(problems);
}

/**
 * `live` with the declared sub-resources of the declared objects that exist live read in,
 * as the map attributes the manifests write (`attributes.denyRuleGroups.SQLI_PARAM_VALUE`).
 * A key whose target object does not exist live yet is not read (the planner compares it
 * with the kind's defaults).
 * @throws UnknownSubResourceError when a declared key names no catalogue entry
 * @throws ApiError when a GET fails
 */
export async function readSubResources(client: SubResourceClient, desired: State, live: State): Promise<State> {
  const found = declaring(desired, live);
  if (found.length === 0) return live;
  await checkCatalogues(client, found);
  const objects = new Map(live.objects);
  for (const { object, liveObject } of found) {
    if (liveObject?.id === undefined) continue;
    const kind = kindOf(object.kind);
    const attributes: Record<string, unknown> = { ...liveObject.attributes };
    for (const [name, def] of subResourcesOf(object.kind)) {
      const read: Record<string, unknown> = {};
      for (const [key] of declaredEntries(object.attributes, name)) {
        const id = 'target' in def.key ? liveIdOf(live, { kind: def.key.target, name: key }) : key;
        if (id === undefined) continue;
        // Keys are object names: `__proto__` is one like any other.
        setOwnMember(read, key, (await client.get(`${kind.collection}/${liveObject.id}/${def.segment}`, id)).attributes);
      }
      if (Object.keys(read).length > 0) attributes[name] = read;
    }
    const ofKind = new Map(objects.get(object.kind));
    ofKind.set(object.name, { ...liveObject, attributes });
    objects.set(object.kind, ofKind);
  }
  return { ...live, objects };
}
