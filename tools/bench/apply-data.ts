/**
 * The data of the apply-at-latency bench (tools/bench/apply.ts): a scenario's project on disk,
 * the gateway state it starts from, and the hand-written script it is compared with (the
 * objects themselves: tools/bench/scenario.ts).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { GatewaySession } from '#src/gateway/index.js';
import type { ApiResource } from '#src/gateway/index.js';
import type { BenchEmulator } from './apply-emulator.js';
import { openBareSession } from './apply-emulator.js';
import type { Shape } from './scenario.js';
import { groupAttributes, groupName, hostAttributes, hostName, isChanged, mappingAttributes, mappingName } from './scenario.js';

export type { Shape } from './scenario.js';
export { SCENARIO_COLLECTIONS } from './scenario.js';

const PROJECT = `manifests: [manifests]
ownership:
  mapping: ['label==bench']
  back-end-group: ['name=@bench-']
  virtual-host: ['name=@bench-']
`;

/** Writes the project (gwops.yaml and manifests) of the desired state of `shape` into `dir`. */
export async function writeProject(dir: string, shape: Shape): Promise<void> {
  await mkdir(path.join(dir, 'manifests'), { recursive: true });
  await writeFile(path.join(dir, 'gwops.yaml'), PROJECT);
  const doc = (kind: string, name: string, attributes: Record<string, unknown>, relationships = ''): string =>
    `---\napiVersion: gwops/v1\nkind: ${kind}\nname: ${name}\nattributes: ${JSON.stringify(attributes)}\n${relationships}`;
  let shared = '';
  for (let g = 0; g < shape.groups; g++) shared += doc('back-end-group', groupName(g), groupAttributes(g));
  for (let h = 0; h < shape.hosts; h++) shared += doc('virtual-host', hostName(h), hostAttributes(h));
  await writeFile(path.join(dir, 'manifests', 'shared.yaml'), shared);
  const perFile = 1000;
  for (let start = 0; start < shape.mappings; start += perFile) {
    let text = '';
    for (let i = start; i < Math.min(shape.mappings, start + perFile); i++) {
      const links = `relationships:\n  back-end-groups: [${groupName(i % shape.groups)}]\n  virtual-hosts: [${hostName(i % shape.hosts)}]\n`;
      text += doc('mapping', mappingName(i), mappingAttributes(i, isChanged(shape, i)), links);
    }
    await writeFile(path.join(dir, 'manifests', `mappings-${String(start).padStart(6, '0')}.yaml`), text);
  }
}

/**
 * Puts the unchanged state of `shape` on the emulator (which should add no latency) and
 * activates it: objects with a few requests in flight, then one link call per group and
 * per host, from their side.
 */
export async function populate(emulator: Pick<BenchEmulator, 'url' | 'apiKey'>, shape: Shape): Promise<void> {
  const session = await openBareSession(emulator, 4);
  const call = session.call;
  try {
    const groups: string[] = [];
    const hosts: string[] = [];
    for (let g = 0; g < shape.groups; g++) {
      groups.push(await call('POST', '/configuration/back-end-groups', { data: { type: 'back-end-group', attributes: { name: groupName(g), ...groupAttributes(g) } } }));
    }
    for (let h = 0; h < shape.hosts; h++) {
      hosts.push(await call('POST', '/configuration/virtual-hosts', { data: { type: 'virtual-host', attributes: { name: hostName(h), ...hostAttributes(h) } } }));
    }
    const mappings: string[] = new Array<string>(shape.mappings);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < shape.mappings) {
        const i = next++;
        mappings[i] = await call('POST', '/configuration/mappings', { data: { type: 'mapping', attributes: { name: mappingName(i), ...mappingAttributes(i, false) } } });
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    const linkAll = async (collection: string, ids: readonly string[]): Promise<void> => {
      for (const [k, id] of ids.entries()) {
        const data = mappings.flatMap((m, i) => (i % ids.length === k ? [{ type: 'mapping', id: m }] : []));
        await call('PATCH', `/configuration/${collection}/${id}/relationships/mappings`, { data });
      }
    };
    await linkAll('back-end-groups', groups);
    await linkAll('virtual-hosts', hosts);
    await call('POST', '/configuration/configurations/activate', { comment: 'bench data' });
  } finally {
    await session.close();
  }
}

/** The baseline script's figures. */
export interface BaselineFigures {
  readonly requests: number;
  readonly wallMs: number;
}

/**
 * The apply of `shape` as a typical hand-written script does it, through GatewaySession:
 * a GET by name before each change, then the change; one link per call; the activation.
 * Scenario `new` creates everything; `changed` updates the changed mappings only.
 */
export async function runBaseline(scenario: 'new' | 'changed', shape: Shape, emulator: Pick<BenchEmulator, 'url' | 'apiKey'>): Promise<number> {
  const t0 = performance.now();
  const session = new GatewaySession({ url: emulator.url, apiKey: emulator.apiKey });
  const byName = async (collection: string, name: string): Promise<ApiResource | undefined> => (await session.list(collection, [`name==${name}`]))[0];
  try {
    await session.open();
    await session.loadActive();
    if (scenario === 'new') {
      const ensure = async (collection: string, type: string, name: string, attributes: Record<string, unknown>): Promise<string> =>
        (await byName(collection, name))?.id ?? (await session.create(collection, { type, attributes: { name, ...attributes } })).id;
      const groups: string[] = [];
      const hosts: string[] = [];
      for (let g = 0; g < shape.groups; g++) groups.push(await ensure('back-end-groups', 'back-end-group', groupName(g), groupAttributes(g)));
      for (let h = 0; h < shape.hosts; h++) hosts.push(await ensure('virtual-hosts', 'virtual-host', hostName(h), hostAttributes(h)));
      for (let i = 0; i < shape.mappings; i++) {
        const id = await ensure('mappings', 'mapping', mappingName(i), mappingAttributes(i, isChanged(shape, i)));
        await session.link('mappings', id, 'back-end-groups', [{ type: 'back-end-group', id: groups[i % shape.groups] ?? '' }]);
        await session.link('virtual-hosts', hosts[i % shape.hosts] ?? '', 'mappings', [{ type: 'mapping', id }]);
      }
    } else {
      for (let i = 0; i < shape.mappings; i++) {
        if (!isChanged(shape, i)) continue;
        const live = await byName('mappings', mappingName(i));
        if (!live) throw new Error(`baseline: mapping ${mappingName(i)} not found`);
        await session.update('mappings', live.id, { type: 'mapping', attributes: { backendPath: '/v2/' } });
      }
    }
    await session.activate('gwops bench baseline');
  } finally {
    await session.terminate();
  }
  return performance.now() - t0;
}
