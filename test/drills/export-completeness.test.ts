/**
 * Export completeness (docs/adoption-guide.md "What an export does not write"): a gateway
 * is built by hand at random through the raw API (objects of every kind from each kind's
 * example, with and without its update, the links they need; each object's sub-resources
 * changed at random from their defaults, e.g. a mapping's use of a built-in deny rule group
 * in log-only mode with an exception; a mapping's readable token secret beside a reference
 * by name; a URL with credentials; links to built-in objects), then exported whole with a plain `gwops export`. The
 * oracle is a second, fresh gateway: the export applied to it must reproduce every object's
 * attributes, links and sub-resources as the raw API reads them on the first, except what
 * the export's summary lists as not exported (naming the object). Besides, every export
 * must validate, plan to no change with `--prune` against the first gateway, and write each
 * secret as `{ fromEnv }` with its line in `secrets.env.example`.
 *
 * `npm test` runs a seeded sample; `npm run drills` (GWOPS_DRILLS=full) runs 100 gateways.
 * Both gateways are of the latest variant (other variants: export-roundtrip.test.ts).
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { runCli } from '../support/in-process-cli.js';
import type { ExampleCertificate } from '../support/kind-examples.js';
import { KIND_EXAMPLES } from '../support/kind-examples.js';
import { selfSignedCertificate, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { ApiResource, GatewaySession } from '../../src/gateway/index.js';
import { isBuiltInId, withSession } from '../../src/gateway/index.js';
import type { KindDefinition, ResourceType } from '../../src/kinds/index.js';
import { KINDS, kindExistsIn, kindOf, relationshipsIn } from '../../src/kinds/index.js';
import { subResourcesOf } from '../../src/engine/sub-resources.js';
import { drillMode, drillSeed, recordDrill } from './record.js';
import { prng, sample, showsCrash } from './support.js';

const FULL = drillMode() === 'full';
const GATEWAYS = FULL ? 100 : 1;
const SEED = drillSeed(20261207);
const VARIANT = 'latest';

const CHECKS = ['export fails', 'secret not fromEnv', 'validate fails', 'plan changes', 'apply fails', 'unlisted omission', 'crash'] as const;
type Check = (typeof CHECKS)[number];

const EXCEPTION = { enabled: true, parameterNamePattern: { enabled: true, pattern: '^q$', name: 'search' } };
const URL_PASSWORD = 'drill-url-password-7Qx';

type Cli = (args: readonly string[], env?: Readonly<Record<string, string>>) => Promise<{ code: number; stdout: string; stderr: string }>;
const cli: Cli = (args, env = {}) => runCli(args, { PATH: process.env.PATH, CI: 'true', NO_COLOR: '1', ...env }, tmpdir());

/** One object made by hand. */
interface Made {
  readonly kind: ResourceType;
  readonly id: string;
  readonly requires: readonly string[];
}

/** What one gateway was given by hand, counted for the report. */
interface Built {
  objects: number;
  subResources: number;
  secrets: number;
  urlCredentials: number;
}

/** A changed use: each member of the defaults flipped or filled, at random. */
function changedUse(defaults: Readonly<Record<string, unknown>>, random: () => number): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [member, value] of Object.entries(defaults)) {
    if (random() < 0.5) continue;
    if (typeof value === 'boolean') out[member] = !value;
    else if (Array.isArray(value) && member === 'exceptions') out[member] = [EXCEPTION];
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Builds a gateway by hand at random (see the module comment) and activates it. */
async function build(emulator: RunningEmulator, random: () => number, certificates: ExampleCertificate[]): Promise<Built> {
  const built: Built = { objects: 0, subResources: 0, secrets: 0, urlCredentials: 0 };
  const kinds = KINDS.filter((k) => kindExistsIn(k, VARIANT) && !k.singleton);
  await withSession({ url: emulator.url, apiKey: emulator.apiKey }, async (s: GatewaySession) => {
    await s.loadActive();
    const made: Made[] = [];
    const pem = [...certificates];
    for (const kind of kinds) {
      const count = 1 + Math.floor(random() * 2);
      for (let i = 0; i < count; i++) {
        const name = `hand-${kind.type}-${i}`;
        const example = await Promise.resolve()
          .then(() => KIND_EXAMPLES[kind.type](name, { certificate: () => (pem.length > 0 ? Promise.resolve(pem.pop() as ExampleCertificate) : Promise.reject(new Error('no certificate left'))) }))
          .catch(() => undefined);
        if (!example) continue;
        let attributes: Record<string, unknown> = { ...example.attributes, ...(kind.identity.byName ? { name } : {}), ...(random() < 0.5 ? example.update : {}) };
        if (kind.type === 'remote-json-web-key-set' && random() < 0.5) {
          attributes = { ...attributes, url: `https://svc:${URL_PASSWORD}@idp.example/jwks` };
          built.urlCredentials += 1;
        }
        const created = await s.create(kind.collection, { type: kind.type, attributes }).catch(() => undefined);
        if (created) made.push({ kind: kind.type, id: created.id, requires: (example.requires ?? []).map((r) => r.relationship) });
      }
    }
    // The links each example needs, and at random one more through each canonical relationship, to a built-in object too.
    const builtIns: Made[] = [];
    for (const kind of kinds) for (const r of await s.list(kind.collection, [])) if (isBuiltInId(r.id)) builtIns.push({ kind: kind.type, id: r.id, requires: [] });
    for (const from of made) {
      const kind = kindOf(from.kind);
      for (const def of relationshipsIn(kind, VARIANT).filter((r) => r.canonical)) {
        if (!from.requires.includes(def.name) && random() < 0.6) continue;
        const to = sample([...made, ...(random() < 0.3 ? builtIns : [])].filter((m) => m.kind === def.target), 1, random)[0];
        if (!to) continue;
        await s.link(kind.collection, from.id, def.name, def.cardinality === 'one' ? { type: to.kind, id: to.id } : [{ type: to.kind, id: to.id }]).catch(() => undefined);
      }
    }
    // Sub-resources changed by hand, and a readable token secret beside a reference by name.
    for (const object of made) {
      const kind = kindOf(object.kind);
      for (const [, def] of subResourcesOf(object.kind)) {
        const keys = 'catalogue' in def.key ? (await s.list(def.key.catalogue, [])).map((r) => r.id) : made.filter((m) => 'target' in def.key && m.kind === def.key.target).map((m) => m.id);
        for (const key of sample(keys, Math.floor(random() * 3), random)) {
          const use = changedUse(def.defaults, random);
          if (!use) continue;
          await s.update(`${kind.collection}/${object.id}/${def.segment}`, key, { type: def.type, attributes: use }, undefined, { withId: def.bodyId });
          built.subResources += 1;
        }
      }
      const list = made.find((m) => m.kind === 'ip-address-list');
      if (object.kind === 'mapping' && list && random() < 0.5) {
        await s.update(kind.collection, object.id, {
          type: 'mapping',
          attributes: {
            access: { tokenVerification: { jweKey: `jwe-${Math.floor(random() * 1e9)}`, jwsAlgorithm: 'HS_256', jwsKey: `hs-${Math.floor(random() * 1e9)}` } },
            ipRules: { ipAddressWhitelists: { pathWhitelists: [{ enabled: true, pathPattern: { pattern: '^/admin/', caseIgnored: false, inverted: false }, ipAddressListIds: [Number(list.id)] }] } },
          },
        });
        built.secrets += 2;
      }
    }
    // Objects the validator refuses are deleted again.
    for (let round = 0; round < 5; round++) {
      const refused = (await s.validatorMessages()).filter((m) => m.severity === 'ERROR' && m.model !== undefined && !isBuiltInId(m.model.id));
      if (refused.length === 0) break;
      for (const { model } of refused) if (model) await s.remove(kindOf(model.type as ResourceType).collection, model.id).catch(() => undefined);
    }
    built.objects = made.length;
    await s.activate('built by hand');
  });
  return built;
}

/** How an object is known on both gateways: its kind and its identity attribute's value. */
function keyOf(kind: KindDefinition, resource: ApiResource): string {
  return `${kind.type} ${JSON.stringify(resource.attributes[kind.identity.attributes[0] ?? 'name'] ?? resource.id)}`;
}

/** Sorted-key JSON, for comparing values read from two gateways. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));
}

/**
 * Everything the raw API reads of a gateway's objects (built-ins apart), by {@link keyOf}:
 * attributes, canonical links by the other end's key, and each sub-resource entry that
 * differs from its defaults, by its catalogue key or its target's key.
 */
async function surface(emulator: RunningEmulator): Promise<Map<string, { name: string; value: string }>> {
  return withSession({ url: emulator.url, apiKey: emulator.apiKey }, async (s) => {
    await s.loadActive();
    const kinds = KINDS.filter((k) => kindExistsIn(k, VARIANT) && !k.singleton);
    const lists = new Map<ResourceType, ApiResource[]>();
    const byId = new Map<string, string>();
    for (const kind of kinds) {
      const list = await s.list(kind.collection, []);
      lists.set(kind.type, list);
      for (const r of list) byId.set(`${kind.type}/${r.id}`, keyOf(kind, r));
    }
    const out = new Map<string, { name: string; value: string }>();
    for (const kind of kinds) {
      for (const r of lists.get(kind.type) ?? []) {
        if (isBuiltInId(r.id)) continue;
        const links: Record<string, string[]> = {};
        for (const def of relationshipsIn(kind, VARIANT).filter((d) => d.canonical)) {
          const data = r.relationships?.[def.name]?.data;
          if (data === undefined || data === null) continue;
          links[def.name] = (Array.isArray(data) ? data : [data]).map((d) => byId.get(`${def.target}/${d.id}`) ?? '?').sort();
        }
        const uses: Record<string, unknown> = {};
        for (const [name, def] of subResourcesOf(kind.type)) {
          const keys = 'catalogue' in def.key ? (await s.list(def.key.catalogue, [])).map((c) => [c.id, c.id] as const) : (lists.get(def.key.target) ?? []).filter((t) => !isBuiltInId(t.id)).map((t) => [t.id, byId.get(`${t.type}/${t.id}`) ?? t.id] as const);
          for (const [id, shown] of keys) {
            const live = (await s.get(`${kind.collection}/${r.id}/${def.segment}`, id)).attributes;
            if (Object.keys(def.defaults).some((m) => canonical(live[m]) !== canonical(def.defaults[m]))) uses[`${name} ${shown}`] = live;
          }
        }
        const name = typeof r.attributes.name === 'string' ? r.attributes.name : r.id;
        out.set(keyOf(kind, r), { name, value: canonical({ attributes: r.attributes, links, uses }) });
      }
    }
    return out;
  });
}

/**
 * The values the exported variables must hold: a readable secret's live value (read raw from
 * the object whose identity the exported document holds), a placeholder for a write-only one.
 */
async function secretEnv(emulator: RunningEmulator, dir: string, secrets: readonly { variable: string; kind: string; name: string; attribute: string; writeOnly: boolean }[]): Promise<Record<string, string>> {
  const documents = new Map<string, Record<string, unknown>>();
  for (const file of await readdir(dir, { recursive: true })) {
    if (!String(file).endsWith('.yaml') || String(file) === 'gwops.yaml') continue;
    for (const doc of parseAllDocuments(await readFile(join(dir, String(file)), 'utf8'))) {
      const value = doc.toJS() as { kind?: string; name?: string; attributes?: Record<string, unknown> } | null;
      if (value?.kind !== undefined && value.name !== undefined) documents.set(`${value.kind}/${value.name}`, { ...value.attributes, name: value.name });
    }
  }
  return withSession({ url: emulator.url, apiKey: emulator.apiKey }, async (s) => {
    await s.loadActive();
    const env: Record<string, string> = {};
    for (const secret of secrets) {
      let value: unknown = 'placeholder-not-a-secret';
      if (!secret.writeOnly) {
        const kind = kindOf(secret.kind as ResourceType);
        const identity = kind.identity.attributes[0] ?? 'name';
        const written = documents.get(`${secret.kind}/${secret.name}`)?.[identity];
        const plain = (v: unknown): string => (typeof v === 'string' ? v.replace(/\s+/g, '') : '');
        const object = (await s.list(kind.collection, [])).find((r) => plain(r.attributes[identity]) === plain(written));
        value = secret.attribute.split('.').reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), object?.attributes);
      }
      env[secret.variable] = typeof value === 'string' ? value : 'placeholder-not-a-secret';
    }
    return env;
  });
}

/** The checks one gateway fails, with what was seen. */
async function tryGateway(original: RunningEmulator, keyDir: string, random: () => number): Promise<[Check, string][]> {
  const failed: [Check, string][] = [];
  const dir = await mkdtemp(join(tmpdir(), 'gwops-completeness-'));
  const replica = await startEmulator({ port: 0, tls: false, variant: VARIANT });
  try {
    const keyFile = join(keyDir, 'original');
    const replicaKey = join(keyDir, 'replica');
    await writeFile(keyFile, original.apiKey, { mode: 0o600 });
    await writeFile(replicaKey, replica.apiKey, { mode: 0o600 });
    const layout = random() < 0.5 ? 'per-object' : 'per-kind';
    const exported = await cli(['export', '--url', original.url, '--api-key-file', keyFile, '--out', dir, '--format', 'json', '--layout', layout]);
    if (showsCrash(exported)) failed.push(['crash', exported.stderr]);
    if (exported.code !== 0) return [...failed, ['export fails', exported.stderr]];
    const result = JSON.parse(exported.stdout) as { secrets: { variable: string; kind: string; name: string; attribute: string; writeOnly: boolean }[]; notExported: string[] };
    const example = await readFile(join(dir, 'secrets.env.example'), 'utf8').catch(() => '');
    for (const secret of result.secrets) if (!example.includes(`${secret.variable}=`)) failed.push(['secret not fromEnv', `${secret.variable} has no line in secrets.env.example`]);
    for (const file of await readdir(dir, { recursive: true })) {
      if (!String(file).endsWith('.yaml')) continue;
      const text = await readFile(join(dir, String(file)), 'utf8');
      if (/writeOnly:/.test(text)) failed.push(['secret not fromEnv', `${String(file)} holds an export slot instead of { fromEnv }`]);
      if (text.includes(URL_PASSWORD)) failed.push(['secret not fromEnv', `${String(file)} holds a URL's password`]);
    }
    const env = await secretEnv(original, dir, result.secrets);
    const config = ['--config', join(dir, 'gwops.yaml'), '--allow-empty'];
    const validate = await cli(['validate', ...config], env);
    if (validate.code !== 0) failed.push(['validate fails', `${validate.stdout}${validate.stderr}`]);
    const plan = await cli(['plan', ...config, '--url', original.url, '--api-key-file', keyFile, '--prune', '--detailed-exitcode'], env);
    if (showsCrash(plan)) failed.push(['crash', plan.stderr]);
    if (plan.code !== 0) failed.push(['plan changes', `${plan.stdout}${plan.stderr}`]);
    const apply = await cli(['apply', ...config, '--url', replica.url, '--api-key-file', replicaKey, '--yes'], env);
    if (showsCrash(apply)) failed.push(['crash', apply.stderr]);
    if (apply.code !== 0) return [...failed, ['apply fails', `${apply.stdout}${apply.stderr}`]];
    // Every difference between the gateways is listed as not exported, naming its object.
    const [want, got] = [await surface(original), await surface(replica)];
    for (const [key, { name, value }] of want) {
      if (got.get(key)?.value === value) continue;
      if (result.notExported.some((line) => line.includes(`'${name}'`))) continue;
      failed.push(['unlisted omission', `${key}:\n  gateway ${value}\n  replica ${got.get(key)?.value ?? '(missing)'}\n  not exported: ${result.notExported.join(' | ')}`]);
    }
    return failed;
  } finally {
    await replica.close();
    await rm(dir, { recursive: true, force: true });
  }
}

describe('export completeness drill', () => {
  let certificates: ExampleCertificate[] = [];
  let keyDir = '';
  beforeAll(async () => {
    certificates = (await Promise.all(['c1', 'c2', 'c3'].map((h) => selfSignedCertificate(`${h}.completeness-drill.example.com`)))).map((c) => ({ certificate: c.cert, privateKey: c.key }));
    keyDir = await mkdtemp(join(tmpdir(), 'gwops-completeness-key-'));
  }, 120_000);
  afterAll(async () => {
    await rm(keyDir, { recursive: true, force: true });
  });

  it('every export of a gateway built by hand reproduces it on a fresh one, or lists what it left out', async () => {
    const random = prng(SEED);
    const counts: Record<Check, number> & Built & { gateways: number } = { gateways: 0, objects: 0, subResources: 0, secrets: 0, urlCredentials: 0, ...(Object.fromEntries(CHECKS.map((c) => [c, 0])) as Record<Check, number>) };
    const firstOf = new Map<Check, string>();
    for (let g = 0; g < GATEWAYS; g++) {
      const original = await startEmulator({ port: 0, tls: false, variant: VARIANT });
      try {
        const built = await build(original, random, certificates);
        for (const field of ['objects', 'subResources', 'secrets', 'urlCredentials'] as const) counts[field] += built[field];
        const failed = await tryGateway(original, keyDir, random);
        counts.gateways += 1;
        for (const check of new Set(failed.map(([c]) => c))) counts[check] += 1;
        for (const [check, what] of failed) if (!firstOf.has(check)) firstOf.set(check, `seed ${SEED}, gateway ${g}: ${check}: ${what.slice(0, 2500)}`);
      } finally {
        await original.close();
      }
    }
    const violations = recordDrill({
      id: 'export-completeness',
      title: 'Export completeness of gateways built by hand',
      description:
        `${GATEWAYS} gateways (latest variant) built by hand at random through the raw API: objects of every kind, the links they need, sub-resources changed from their defaults ` +
        '(deny rule use in log-only mode with exceptions), readable token secrets beside references by name, URLs with credentials, links to built-in objects; each exported with a plain gwops export, ' +
        'validated, planned with --prune against it, and applied to a fresh gateway, whose objects, links and sub-resources must equal the original ones unless the export listed the object as not exported.',
      seed: SEED,
      columns: ['Gateways', 'Objects', 'Sub-resources changed', 'Secrets', 'URLs with credentials', ...CHECKS],
      rows: [[counts.gateways, counts.objects, counts.subResources, counts.secrets, counts.urlCredentials, ...CHECKS.map((c) => counts[c])]],
      mustBeZero: [...CHECKS],
    });
    expect([...firstOf.values()].join('\n\n')).toBe('');
    expect(violations).toEqual([]);
    expect(counts.gateways).toBe(GATEWAYS);
  }, FULL ? 6 * 3600_000 : 120_000);
});
