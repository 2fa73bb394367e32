/**
 * The export round trip as a property (docs/adoption-guide.md "1. Export the gateway"): an
 * emulator of a random variant is populated at random through the raw API (every kind
 * that exists there, from each kind's example; labels and a `${...}` value where a kind
 * has a filter property; random links through every relationship, to the built-in objects
 * too), then random selections are exported through the real CLI (a subset of the kinds or
 * all of them; per kind, or for all, a filter on the name, on a filter property or on an
 * attribute the example's update sets). Every selection must:
 *
 * - export (exit 0, no crash) exactly the live objects the selection names (built-ins never);
 * - write an ownership scope for the filtered kinds only, each with its filters;
 * - validate, and plan with no change, `--prune` too, against the same gateway, with the
 *   certificates' private keys (readable secrets) set to the keys the gateway holds, and the
 *   API key's variable `GWOPS_API_KEY` set (a `${GWOPS_API_KEY}` read back as a variable
 *   would change the plan);
 * - leave the active configuration as it was.
 *
 * `npm test` runs a seeded sample; `npm run drills` (GWOPS_DRILLS=full) runs 1,000
 * selections (several per emulator). A violation names the seed, the population and the
 * selection (repeat it with GWOPS_DRILLS_SEED=<seed>).
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../support/in-process-cli.js';
import type { ExampleCertificate } from '../support/kind-examples.js';
import { KIND_EXAMPLES } from '../support/kind-examples.js';
import { selfSignedCertificate, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { GatewaySession } from '../../src/gateway/index.js';
import { isBuiltInId, withSession } from '../../src/gateway/index.js';
import type { KindDefinition, ResourceType, Variant } from '../../src/kinds/index.js';
import { KINDS, VARIANTS, kindExistsIn, kindOf, relationshipsIn } from '../../src/kinds/index.js';
import { drillMode, drillSeed, recordDrill } from './record.js';
import { prng, sample, showsCrash } from './support.js';

const FULL = drillMode() === 'full';
/** Emulators and selections per emulator: 1,000 selections under `npm run drills`, a few in `npm test`. */
const POPULATIONS = FULL ? 200 : 2;
const SELECTIONS = FULL ? 5 : 3;
const SEED = drillSeed(20261125);

/** The checks of one selection, in the order of the report's columns. */
const CHECKS = ['export fails', 'wrong objects', 'wrong ownership', 'validate fails', 'plan fails', 'plan changes', 'prune plan changes', 'gateway changed', 'crash'] as const;
type Check = (typeof CHECKS)[number];

const LABELS = ['team-a', 'team-b', 'shared'];
/** A value a manifest would read as a variable, unless written escaped. */
const DOLLAR_VALUE = '${GWOPS_API_KEY}';

interface Cli {
  (args: readonly string[], env?: Readonly<Record<string, string>>): Promise<{ code: number; stdout: string; stderr: string }>;
}

function cliFor(): Cli {
  return (args, env = {}) => runCli(args, { PATH: process.env.PATH, CI: 'true', NO_COLOR: '1', ...env }, tmpdir());
}

/** One live object the population made. */
interface Made {
  readonly kind: ResourceType;
  readonly id: string;
  readonly name: string;
  /** The relationships the kind's example needs a link through to be valid. */
  readonly requires?: readonly string[];
}

/** What a population holds, for building selections. */
interface Population {
  readonly variant: Variant;
  readonly kinds: readonly KindDefinition[];
  readonly objects: readonly Made[];
  /** Per kind, `attribute==value` filters that the example's update makes true for some objects. */
  readonly updateFilters: ReadonlyMap<ResourceType, readonly string[]>;
  /** Link calls the gateway refused (a built-in's to-one side): not a violation. */
  readonly refusedLinks: number;
  /** Objects deleted again because the validator refused them. */
  readonly dropped: number;
}

/** Sets `value` at `path` in a copy of `attributes`. */
function setPath(attributes: Record<string, unknown>, path: readonly string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined) return attributes;
  const child = attributes[head];
  return { ...attributes, [head]: rest.length === 0 ? value : setPath(typeof child === 'object' && child !== null ? (child as Record<string, unknown>) : {}, rest, value) };
}

/**
 * Populates the emulator at random and activates; objects or links the gateway refuses
 * are left out. Returns what was made.
 */
async function populate(emulator: RunningEmulator, variant: Variant, random: () => number, certificates: readonly ExampleCertificate[]): Promise<Population> {
  const kinds = KINDS.filter((k) => kindExistsIn(k, variant) && !k.singleton);
  const objects: Made[] = [];
  const updateFilters = new Map<ResourceType, string[]>();
  let refusedLinks = 0;
  const dropped = await withSession({ url: emulator.url, apiKey: emulator.apiKey }, async (s: GatewaySession) => {
    await s.loadActive();
    const pem = [...certificates].sort(() => random() - 0.5);
    for (const kind of kinds) {
      for (const built of await s.list(kind.collection)) {
        const name = built.attributes.name;
        if (isBuiltInId(built.id)) objects.push({ kind: kind.type, id: built.id, name: typeof name === 'string' ? name : `built-in ${built.id}` });
      }
      const count = Math.floor(random() * 5);
      for (let i = 0; i < count; i++) {
        const name = `${random() < 0.5 ? 'a' : 'b'}-${kind.type}-${i}`;
        const example = await Promise.resolve()
          .then(() =>
            KIND_EXAMPLES[kind.type](name, {
              certificate: () => {
                const next = pem.pop();
                return next ? Promise.resolve(next) : Promise.reject(new Error('no certificate left'));
              },
            }),
          )
          .catch(() => undefined);
        if (!example) continue;
        let attributes: Record<string, unknown> = { ...example.attributes, ...(kind.identity.byName ? { name } : {}) };
        if (random() < 0.5) {
          attributes = { ...attributes, ...example.update };
          for (const [key, value] of Object.entries(example.update)) {
            if (typeof value === 'string') updateFilters.set(kind.type, [...new Set([...(updateFilters.get(kind.type) ?? []), `${key}==${value}`])]);
          }
        }
        for (const path of Object.values(kind.filterProperties ?? {})) {
          attributes = setPath(attributes, path, [...sample(LABELS, Math.floor(random() * 3), random), ...(random() < 0.3 ? [DOLLAR_VALUE] : [])]);
        }
        const created = await s.create(kind.collection, { type: kind.type, attributes }).catch(() => undefined);
        if (created) objects.push({ kind: kind.type, id: created.id, name, requires: (example.requires ?? []).map((r) => r.relationship) });
      }
    }
    // Links through every canonical relationship, sent from a side that is no built-in.
    for (const kind of kinds) {
      for (const def of relationshipsIn(kind, variant).filter((r) => r.canonical && kinds.some((k) => k.type === r.target))) {
        const inverse = kindOf(def.target).relationships[def.inverse];
        const targets = objects.filter((o) => o.kind === def.target);
        for (const from of objects.filter((o) => o.kind === kind.type)) {
          const required = from.requires?.includes(def.name) === true;
          const chosen = sample(targets, def.cardinality === 'one' ? (random() < 0.6 ? 1 : 0) : Math.floor(random() * 3) + (required ? 1 : 0), random);
          for (const to of chosen) {
            if (isBuiltInId(from.id) && isBuiltInId(to.id)) continue;
            const call = isBuiltInId(from.id)
              ? inverse && def.cardinality === 'many' ? s.link(kindOf(def.target).collection, to.id, inverse.name, inverse.cardinality === 'one' ? { type: kind.type, id: from.id } : [{ type: kind.type, id: from.id }]) : Promise.reject(new Error('to-one'))
              : s.link(kind.collection, from.id, def.name, def.cardinality === 'one' ? { type: to.kind, id: to.id } : [{ type: to.kind, id: to.id }]);
            await call.catch(() => (refusedLinks += 1));
          }
        }
      }
    }
    // Objects the validator refuses (a mapping left without a back-end group, ...) are deleted.
    let dropped = 0;
    for (let round = 0; round < 5; round++) {
      const refused = (await s.validatorMessages()).filter((m) => m.severity === 'ERROR' && m.model !== undefined && !isBuiltInId(m.model.id));
      if (refused.length === 0) break;
      for (const { model } of refused) {
        const index = objects.findIndex((o) => o.kind === model?.type && o.id === model.id);
        const made = objects[index];
        if (!made) continue;
        objects.splice(index, 1);
        dropped += 1;
        await s.remove(kindOf(made.kind).collection, made.id);
      }
    }
    await s.activate('export drill population');
    return dropped;
  });
  return { variant, kinds, objects, updateFilters, refusedLinks, dropped };
}

/** One random selection: `--kind` flags (none: every kind) and `--filter` flags. */
interface Selection {
  readonly kinds: readonly ResourceType[];
  readonly filters: readonly string[];
}

function select(population: Population, random: () => number): Selection {
  const all = random() < 0.2;
  const kinds = all ? population.kinds.map((k) => k.type) : sample(population.kinds.map((k) => k.type), 1 + Math.floor(random() * population.kinds.length), random);
  const filters: string[] = [];
  if (kinds.every((k) => kindOf(k).identity.byName) && random() < 0.2) filters.push(`name=@${random() < 0.5 ? 'a-' : 'b-'}`);
  else {
    for (const kind of kinds) {
      const definition = kindOf(kind);
      const options: string[] = [...(population.updateFilters.get(kind) ?? [])];
      if (definition.identity.byName) {
        options.push(`name=@${random() < 0.5 ? 'a-' : 'b-'}`);
        const named = population.objects.filter((o) => o.kind === kind && !isBuiltInId(o.id));
        const one = named[Math.floor(random() * named.length)];
        if (one) options.push(`name==${one.name}`);
      }
      for (const property of Object.keys(definition.filterProperties ?? {})) options.push(`${property}==${LABELS[Math.floor(random() * LABELS.length)] ?? 'shared'}`);
      if (options.length > 0 && random() < 0.6) filters.push(`${kind}:${options[Math.floor(random() * options.length)] ?? ''}`);
    }
  }
  return { kinds: all ? [] : kinds, filters };
}

/** The filters of each exported kind, as export applies them (a plain filter to every kind). */
function filtersOf(selection: Selection, exported: readonly ResourceType[]): Map<ResourceType, string[]> {
  const out = new Map<ResourceType, string[]>();
  for (const given of selection.filters) {
    const colon = given.indexOf(':');
    const scoped = colon > 0 && exported.includes(given.slice(0, colon) as ResourceType) ? (given.slice(0, colon) as ResourceType) : undefined;
    for (const kind of scoped ? [scoped] : exported) out.set(kind, [...(out.get(kind) ?? []), scoped ? given.slice(colon + 1) : given]);
  }
  return out;
}

/** The checks that failed for one selection, with what was seen. */
/**
 * The value each exported secret variable must hold: a certificate's own private key (found
 * by the certificate its exported document holds), since keys are checked offline against
 * their certificates; a placeholder for every other secret.
 */
async function secretValues(dir: string, secrets: readonly { variable: string; kind: string; name: string; attribute: string }[], keyOf: (certificate: string) => string | undefined): Promise<Record<string, string>> {
  const certificateOf = new Map<string, string>();
  for (const kind of new Set(secrets.filter((v) => v.attribute === 'privateKey').map((v) => v.kind))) {
    for (const file of (await readdir(join(dir, kind)).catch(() => [] as string[])).filter((f) => f.endsWith('.yaml'))) {
      const doc = parse(await readFile(join(dir, kind, file), 'utf8')) as { name?: string; attributes?: { certificate?: unknown } };
      if (typeof doc.name === 'string' && typeof doc.attributes?.certificate === 'string') certificateOf.set(`${kind}/${doc.name}`, doc.attributes.certificate);
    }
  }
  return Object.fromEntries(
    secrets.map((v) => {
      const certificate = v.attribute === 'privateKey' ? certificateOf.get(`${v.kind}/${v.name}`) : undefined;
      return [v.variable, (certificate !== undefined ? keyOf(certificate) : undefined) ?? 'placeholder-not-a-secret'];
    }),
  );
}

async function trySelection(
  emulator: RunningEmulator,
  keyFile: string,
  population: Population,
  selection: Selection,
  cli: Cli,
  keyOf: (certificate: string) => string | undefined,
): Promise<[Check, string][]> {
  const failed: [Check, string][] = [];
  const dir = await mkdtemp(join(tmpdir(), 'gwops-export-drill-'));
  const before = JSON.stringify(emulator.activeSnapshot());
  const connection = ['--url', emulator.url, '--api-key-file', keyFile];
  try {
    const exported = await cli(['export', ...connection, '--variant', population.variant, '--out', dir, '--format', 'json', ...selection.kinds.flatMap((k) => ['--kind', k]), ...selection.filters.flatMap((f) => ['--filter', f])]);
    if (showsCrash(exported)) failed.push(['crash', exported.stderr]);
    if (exported.code !== 0) return [...failed, ['export fails', exported.stderr]];
    const result = JSON.parse(exported.stdout) as { secrets: { variable: string; kind: string; name: string; attribute: string }[] };
    const kinds = selection.kinds.length > 0 ? selection.kinds : population.kinds.map((k) => k.type);
    const filters = filtersOf(selection, kinds);

    // Exactly the selected live objects, per kind (built-ins never).
    const expected = await withSession({ url: emulator.url, apiKey: emulator.apiKey }, async (s) => {
      await s.loadActive();
      const counts = new Map<ResourceType, number>();
      for (const kind of kinds) counts.set(kind, (await s.list(kindOf(kind).collection, filters.get(kind) ?? [])).filter((r) => !isBuiltInId(r.id)).length);
      return counts;
    });
    for (const kind of kinds) {
      const files = (await readdir(join(dir, kind)).catch(() => [] as string[])).filter((f) => f.endsWith('.yaml') && !f.includes('.content.')).length;
      if (files !== expected.get(kind)) failed.push(['wrong objects', `${kind}: ${files} exported, ${expected.get(kind) ?? 0} selected`]);
    }
    const project = parse(await readFile(join(dir, 'gwops.yaml'), 'utf8')) as { ownership?: Record<string, string[]> };
    const ownership = Object.entries(project.ownership ?? {}).map(([k, f]) => `${k}: ${f.join(' & ')}`).sort();
    const wanted = [...filters].map(([k, f]) => `${k}: ${f.join(' & ')}`).sort();
    if (JSON.stringify(ownership) !== JSON.stringify(wanted)) failed.push(['wrong ownership', `${ownership.join('; ')} instead of ${wanted.join('; ')}`]);

    const env = { ...(await secretValues(dir, result.secrets, keyOf)), GWOPS_API_KEY: emulator.apiKey };
    // A selection may match nothing: then the project holds no document, which is meant.
    const config = ['--config', join(dir, 'gwops.yaml'), '--allow-empty'];
    const validate = await cli(['validate', ...config], env);
    if (validate.code !== 0) failed.push(['validate fails', `${validate.stdout}${validate.stderr}`]);
    for (const [flags, check] of [
      [[], 'plan changes'],
      [['--prune'], 'prune plan changes'],
    ] as const) {
      const plan = await cli(['plan', ...config, ...connection, '--detailed-exitcode', ...flags], env);
      if (showsCrash(plan)) failed.push(['crash', plan.stderr]);
      if (plan.code === 2) failed.push([check, plan.stdout]);
      else if (plan.code !== 0) failed.push(['plan fails', `${plan.stdout}${plan.stderr}`]);
    }
    if (JSON.stringify(emulator.activeSnapshot()) !== before) failed.push(['gateway changed', 'the active configuration differs']);
    return failed;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const counts = new Map<Variant, { selections: number; objects: number; refusedLinks: number; dropped: number } & Record<Check, number>>(
  VARIANTS.map((v) => [v, { selections: 0, objects: 0, refusedLinks: 0, dropped: 0, ...(Object.fromEntries(CHECKS.map((c) => [c, 0])) as Record<Check, number>) }]),
);
let first: string | undefined;
/** The first failure of each check, for the failure message. */
const firstOf = new Map<Check, string>();

describe('export round trip drill', () => {
  let certificates: ExampleCertificate[] = [];
  let keyDir = '';
  beforeAll(async () => {
    certificates = (await Promise.all(['x1', 'x2', 'x3', 'x4'].map((h) => selfSignedCertificate(`${h}.export-drill.example.com`)))).map((c) => ({ certificate: c.cert, privateKey: c.key }));
    keyDir = await mkdtemp(join(tmpdir(), 'gwops-export-drill-key-'));
  }, 120_000);
  afterAll(async () => {
    await rm(keyDir, { recursive: true, force: true });
  });

  it('random selections of randomly populated gateways export, validate and plan to no change', async () => {
    const plain = (pem: string): string => pem.replace(/\s+/g, '');
    const keyOf = (certificate: string): string | undefined => certificates.find((c) => plain(c.certificate) === plain(certificate))?.privateKey;
    const random = prng(SEED);
    const cli = cliFor();
    for (let p = 0; p < POPULATIONS; p++) {
      const variant = VARIANTS[Math.floor(random() * VARIANTS.length)] ?? 'latest';
      const emulator = await startEmulator({ port: 0, tls: false, variant });
      try {
        const keyFile = join(keyDir, `key-${p}`);
        await writeFile(keyFile, emulator.apiKey, { mode: 0o600 });
        const population = await populate(emulator, variant, random, certificates);
        const row = counts.get(variant);
        if (!row) throw new Error(`no row for ${variant}`);
        row.objects += population.objects.length;
        row.refusedLinks += population.refusedLinks;
        row.dropped += population.dropped;
        for (let i = 0; i < SELECTIONS; i++) {
          const selection = select(population, random);
          const failed = await trySelection(emulator, keyFile, population, selection, cli, keyOf);
          row.selections += 1;
          for (const check of new Set(failed.map(([c]) => c))) row[check] += 1;
          const [failure] = failed;
          for (const [check, what] of failed) if (!firstOf.has(check)) firstOf.set(check, `${check}: ${what.slice(0, 1500)}`);
          if (failure && first === undefined) {
            first =
              `seed ${SEED}, population ${p} (${variant}: ${population.objects.map((o) => `${o.kind} ${o.name}`).join(', ')}), ` +
              `selection --kind ${selection.kinds.join(' --kind ') || '(all)'} --filter ${selection.filters.join(' --filter ') || '(none)'}: ${failure[0]}\n${failure[1].slice(0, 3000)}`;
          }
        }
      } finally {
        await emulator.close();
      }
    }
    const violations = recordDrill({
      id: 'export-roundtrip',
      title: 'Export round trip of random selections',
      description:
        `${POPULATIONS * SELECTIONS} random selections (kinds and per-kind filters) of ${POPULATIONS} randomly populated emulators (every kind of a random variant, links through every relationship, ` +
        'to the built-in objects too, values holding ${...}), exported through the CLI, then validated and planned (with and without --prune) against the same gateway.',
      seed: SEED,
      columns: ['Variant', 'Selections', 'Live objects', 'Refused links', 'Refused objects', ...CHECKS],
      rows: VARIANTS.map((v) => {
        const c = counts.get(v);
        return [v, c?.selections ?? 0, c?.objects ?? 0, c?.refusedLinks ?? 0, c?.dropped ?? 0, ...CHECKS.map((check) => c?.[check] ?? 0)];
      }),
      mustBeZero: [...CHECKS],
    });
    expect(first, [...firstOf.values()].join('\n\n')).toBeUndefined();
    expect(violations).toEqual([]);
    expect([...counts.values()].reduce((n, c) => n + c.selections, 0)).toBe(POPULATIONS * SELECTIONS);
  }, FULL ? 6 * 3600_000 : 120_000);
});
