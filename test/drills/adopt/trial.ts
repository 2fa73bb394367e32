/**
 * One trial of the adopt drill: a generated project (world.ts) applied to its targets
 * through the CLI, random changes made on the staging gateway through the raw API, then
 * `drift --adopt --target staging`. Then, each a counted outcome:
 * - `validate` passes;
 * - staging's plan is empty (unless a difference is listed as not adopted);
 * - every other target's plan is what it was before;
 * - no file another target reads changed (the base, in a two-target project);
 * - in every file, the text outside the changed values is byte-identical.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Document, Node } from 'yaml';
import { isMap, isPair, isScalar, isSeq, parseAllDocuments } from 'yaml';
import { runCli } from '../../support/in-process-cli.js';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import type { GatewaySession } from '../../../src/gateway/index.js';
import { withSession } from '../../../src/gateway/index.js';
import type { Mutation, World } from './world.js';
import { groupName, mappingName, worldFiles } from './world.js';

/** What one trial found. */
export interface TrialResult {
  /** False when the generated project could not be applied, or no change reached the gateway. */
  readonly applicable: boolean;
  readonly mutations: number;
  readonly notAdopted: number;
  readonly invalid: number;
  readonly planNotEmpty: number;
  readonly otherPlanChanged: number;
  readonly sharedFileChanged: number;
  readonly bytesOutsideChanged: number;
  /** What went wrong, for the failure message. */
  readonly why: string[];
}

type Cli = (args: readonly string[]) => Promise<{ code: number; stdout: string; stderr: string }>;

function cliIn(dir: string): Cli {
  return (args) => runCli(args, { PATH: process.env.PATH, NO_COLOR: '1', CI: 'true' }, dir);
}

const at = <T>(list: readonly T[], i: number): T | undefined => list[i % Math.max(1, list.length)];

/** Applies the changes on the gateway in one session, activated; returns how many changed something. */
async function mutate(emulator: RunningEmulator, world: World, prefix: string, mutations: readonly Mutation[]): Promise<number> {
  return withSession({ url: emulator.url, apiKey: emulator.apiKey }, async (s: GatewaySession) => {
    await s.loadActive();
    let applied = 0;
    const one = async (collection: string, name: string): Promise<{ id: string; attributes: Record<string, unknown> } | undefined> => (await s.list(collection, [`name==${name}`]))[0];
    for (const m of mutations) {
      if (m.op === 'port' || m.op === 'host-name' || m.op === 'add-host' || m.op === 'remove-host' || m.op === 'checks') {
        const group = await one('back-end-groups', groupName(prefix, m.group % world.groups.length));
        if (!group) continue;
        const hosts = structuredClone((group.attributes.backendHosts ?? []) as Record<string, unknown>[]);
        let attributes: Record<string, unknown>;
        if (m.op === 'checks') {
          const checks = (group.attributes.outOfBandChecks ?? {}) as { enabled?: boolean };
          attributes = { outOfBandChecks: { ...checks, enabled: checks.enabled !== true } };
        } else {
          const h = at(hosts, m.op === 'port' || m.op === 'host-name' ? m.host : 0);
          if (m.op === 'port' && h) h.port = m.port;
          else if (m.op === 'host-name' && h) h.hostName = m.name;
          else if (m.op === 'add-host') hosts.push({ protocol: 'HTTP', hostName: m.name, port: 8443 });
          else if (m.op === 'remove-host' && hosts.length > 1) hosts.pop();
          else continue;
          attributes = { backendHosts: hosts };
        }
        await s.update('back-end-groups', group.id, { type: 'back-end-group', attributes });
        applied++;
      } else {
        const mapping = await one('mappings', mappingName(prefix, m.mapping % world.mappings.length));
        if (!mapping) continue;
        if (m.op === 'move') {
          const target = await one('back-end-groups', groupName(prefix, m.group % world.groups.length));
          const linked = await s.list('back-end-groups', []);
          if (!target) continue;
          await s.link('mappings', mapping.id, 'back-end-groups', [{ type: 'back-end-group', id: target.id }]);
          const others = linked.filter((g) => g.id !== target.id && String(g.attributes.name).startsWith(prefix)).map((g) => ({ type: 'back-end-group', id: g.id }));
          if (others.length > 0) await s.unlink('mappings', mapping.id, 'back-end-groups', others).catch(() => undefined);
        } else if (m.op === 'roles') {
          const access = structuredClone((mapping.attributes.access ?? {}) as { restrictions?: { authorizedRoles?: string[] }[] });
          const r = at(access.restrictions ?? [], m.restriction);
          if (!r) continue;
          r.authorizedRoles = [...m.roles];
          await s.update('mappings', mapping.id, { type: 'mapping', attributes: { access } });
        } else {
          await s.update('mappings', mapping.id, { type: 'mapping', attributes: m.op === 'backend-path' ? { backendPath: m.value } : { threatHandling: m.value } });
        }
        applied++;
      }
    }
    await s.activate('changed by hand');
    return applied;
  });
}

interface Walked {
  readonly node: Node;
  readonly path: readonly (string | number)[];
  /** Where its map pair starts (its key), for a map value. */
  readonly start?: number | undefined;
}

function walk(node: unknown, path: (string | number)[], out: Walked[]): void {
  if (isMap(node)) {
    for (const pair of node.items) {
      if (!isPair(pair) || !isScalar(pair.key)) continue;
      const child = [...path, String(pair.key.value)];
      if (isScalar(pair.value) || isMap(pair.value) || isSeq(pair.value)) out.push({ node: pair.value, path: child, start: pair.key.range?.[0] });
      walk(pair.value, child, out);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => {
      if (isScalar(item) || isMap(item) || isSeq(item)) out.push({ node: item, path: [...path, i] });
      walk(item, [...path, i], out);
    });
  }
}

/**
 * Where `after` lost text of `before` outside the values that changed: every byte outside the
 * scalars whose value changed and the items or pairs that are gone must still be in `after`,
 * in order (what adopt adds is new values). Returns where, or undefined.
 */
export function outsideChangedValues(before: string, after: string): string | undefined {
  const olds = parseAllDocuments(before) as Document.Parsed[];
  const news = parseAllDocuments(after) as Document.Parsed[];
  const allowed: [number, number][] = [];
  for (const old of olds) {
    const match = news.find((d) => d.get('kind') === old.get('kind') && d.get('name') === old.get('name'));
    if (!match) {
      allowed.push([old.range[0], old.range[2]]);
      continue;
    }
    const nodes: Walked[] = [];
    walk(old.contents, [], nodes);
    for (const { node, path, start } of nodes) {
      const range = node.range;
      if (!range) continue;
      const now: unknown = match.getIn(path, true);
      if (now === undefined) allowed.push([start ?? range[0], range[1]]);
      else if (isScalar(node) && (!isScalar(now) || now.value !== node.value)) allowed.push([range[0], range[1]]);
    }
  }
  // Separators next to a value that went may go with it (`, ` or `- ` and the line of a removed item).
  const free = new Array<boolean>(before.length).fill(false);
  const separator = (i: number): boolean => /[\s,\-:]/.test(before[i] ?? '');
  for (const [s, e] of allowed) {
    for (let i = s; i < e; i++) free[i] = true;
    for (let i = s - 1; i >= 0 && separator(i); i--) free[i] = true;
    for (let i = e; i < before.length && separator(i); i++) free[i] = true;
  }
  // Every other byte must still be there, in order (new text may be inserted anywhere).
  let j = 0;
  for (let i = 0; i < before.length; i++) {
    if (free[i]) continue;
    const c = before[i] ?? '';
    j = after.indexOf(c, j);
    if (j < 0) return `${JSON.stringify(before.slice(Math.max(0, i - 20), i + 20))}: ${JSON.stringify(c)} at offset ${i} is gone`;
    j++;
  }
  return undefined;
}

/** Runs one trial in `dir` (a fresh directory) against the two emulators. */
export async function runTrial(
  dir: string,
  prefix: string,
  world: World,
  mutations: readonly Mutation[],
  emulators: { readonly staging: RunningEmulator; readonly production: RunningEmulator },
): Promise<TrialResult> {
  const why: string[] = [];
  const result = { applicable: false, mutations: 0, notAdopted: 0, invalid: 0, planNotEmpty: 0, otherPlanChanged: 0, sharedFileChanged: 0, bytesOutsideChanged: 0, why };
  const files = worldFiles(world, prefix, { staging: emulators.staging.url, production: emulators.production.url });
  await writeFile(join(dir, 'staging-key'), emulators.staging.apiKey, { mode: 0o600 });
  await writeFile(join(dir, 'production-key'), emulators.production.apiKey, { mode: 0o600 });
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), text);
  }
  const cli = cliIn(dir);
  const targets = world.twoTargets ? ['staging', 'production'] : ['staging'];
  for (const target of targets) {
    const apply = await cli(['apply', '--yes', '--target', target]);
    if (apply.code !== 0) return { ...result, why: [`apply ${target}: ${apply.stdout}${apply.stderr}`] };
  }
  const otherPlans = new Map<string, string>();
  for (const target of targets.slice(1)) otherPlans.set(target, (await cli(['plan', '--no-server-check', '--target', target])).stdout);
  const applied = await mutate(emulators.staging, world, prefix, mutations).catch((e: unknown) => {
    why.push(`mutation refused: ${String(e)}`);
    return 0;
  });
  if (applied === 0) return result;
  const adopted = await cli(['drift', '--adopt', '--target', 'staging']);
  const notAdopted = /Not adopted:\n((?: {2}.*\n)*)/.exec(adopted.stderr)?.[1]?.split('\n').filter((l) => l !== '').length ?? 0;
  const out = { ...result, applicable: true, mutations: applied, notAdopted };
  const validate = await cli(['validate', '--target', 'staging']);
  if (validate.code !== 0) {
    out.invalid++;
    why.push(`validate after adopt: ${validate.stdout}${validate.stderr}`);
  }
  const plan = await cli(['plan', '--detailed-exitcode', '--no-server-check', '--target', 'staging']);
  if (plan.code !== 0 && notAdopted === 0) {
    out.planNotEmpty++;
    why.push(`staging plan after adopt (exit ${plan.code}):\n${plan.stdout}${plan.stderr}\nadopt said:\n${adopted.stderr}`);
  }
  for (const [target, before] of otherPlans) {
    const now = (await cli(['plan', '--no-server-check', '--target', target])).stdout;
    if (now !== before) {
      out.otherPlanChanged++;
      why.push(`${target}'s plan changed:\n${before}\n→\n${now}`);
    }
  }
  for (const [file, before] of Object.entries(files)) {
    const after = await readFile(join(dir, file), 'utf8').catch(() => '');
    if (world.twoTargets && file.startsWith('manifests/') && after !== before) {
      out.sharedFileChanged++;
      why.push(`${file}, which production reads, changed`);
    }
    const outside = after === '' ? undefined : outsideChangedValues(before, after);
    if (outside !== undefined) {
      out.bytesOutsideChanged++;
      why.push(`${file}: ${outside}\n--- before\n${before}--- after\n${after}`);
    }
  }
  return out;
}
