/**
 * The bare client of the scale bench's apply and server-checked plan (tools/bench/scale.ts):
 * the calls gwops makes for scenario `new` of a {@link Shape}, made through the REST
 * client (`GatewaySession`) with no manifests, desired state or diff. It is told the
 * changes: the mappings from `existing` on are new, each linked to its back-end group and
 * virtual host, which exist.
 *
 * The calls, one at a time as gwops sends them: session create, the node status (gwops
 * reads the variant from it), load-active, one GET per collection of the project with
 * gwops's filters (each body parsed, the type, id and name of each resource kept: the
 * groups' and hosts' ids are needed), one POST per new mapping, one link call per back-end group and per virtual
 * host carrying all its new mappings, the validator messages; for `apply` the
 * configurations list, the activation and the configurations list again; session
 * terminate.
 */
import { GatewaySession } from '#src/gateway/index.js';
import type { ApiResource } from '#src/gateway/index.js';
import type { Shape } from './scenario.js';
import { SCENARIO_COLLECTIONS, groupName, hostName, mappingAttributes, mappingName } from './scenario.js';

/**
 * The filters gwops sends with each list: the project's ownership of the kinds owned by
 * name (tools/bench/apply-data.ts); a filter on anything else would not be safe to send.
 */
const LIST_FILTERS: Readonly<Record<string, readonly string[]>> = { 'back-end-groups': ['name=@bench-'], 'virtual-hosts': ['name=@bench-'] };

/**
 * Makes the calls of `gwops apply` (or of `gwops plan` with the server check) for the new
 * mappings `existing` .. `shape.mappings - 1` against the gateway at `url`.
 * @throws whatever the REST client throws (ApiError, ConnectionError, ...); Error when a
 *   group or host of the shape is not on the gateway
 */
export async function runMinimumCalls(command: 'apply' | 'plan', shape: Shape, existing: number, gateway: { readonly url: string; readonly apiKey: string }): Promise<void> {
  const session = new GatewaySession({ url: gateway.url, apiKey: gateway.apiKey });
  const keep = (resource: ApiResource): ApiResource => ({ type: resource.type, id: resource.id, attributes: { name: resource.attributes.name }, relationships: {} });
  try {
    await session.open();
    await session.nodeVersion();
    await session.loadActive();
    const ids = new Map<string, string>();
    for (const collection of SCENARIO_COLLECTIONS) {
      for (const r of await session.list(collection, LIST_FILTERS[collection] ?? [], { plain: true, project: keep })) ids.set(`${r.type}:${String(r.attributes.name)}`, r.id);
    }
    const idOf = (type: string, name: string): string => {
      const id = ids.get(`${type}:${name}`);
      if (id === undefined) throw new Error(`minimum calls: ${type} ${name} is not on the gateway`);
      return id;
    };
    type Refs = { type: string; id: string }[];
    const byGroup = new Map<number, Refs>();
    const byHost = new Map<number, Refs>();
    const add = (map: Map<number, Refs>, key: number, ref: { type: string; id: string }): void => {
      const refs = map.get(key) ?? [];
      refs.push(ref);
      map.set(key, refs);
    };
    for (let i = existing; i < shape.mappings; i++) {
      const created = await session.create('mappings', { type: 'mapping', attributes: { name: mappingName(i), ...mappingAttributes(i, false) } });
      add(byGroup, i % shape.groups, { type: 'mapping', id: created.id });
      add(byHost, i % shape.hosts, { type: 'mapping', id: created.id });
    }
    for (const [g, refs] of byGroup) await session.link('back-end-groups', idOf('back-end-group', groupName(g)), 'mappings', refs);
    for (const [h, refs] of byHost) await session.link('virtual-hosts', idOf('virtual-host', hostName(h)), 'mappings', refs);
    await session.validatorMessages();
    if (command === 'apply') {
      await session.configurations();
      await session.activate('gwops bench minimum calls');
      await session.configurations();
    }
  } finally {
    await session.terminate();
  }
}
