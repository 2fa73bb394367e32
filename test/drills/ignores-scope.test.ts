/**
 * Drill "ignores and scope": two promises about what a project leaves alone.
 *
 * 1. An ignored difference holds (README.md "Drift"): for random kinds and random attribute
 *    paths of their schemas (every scalar leaf outside a list, with a sibling that differs
 *    too), a live value that differs from the declared one, and a `drift.ignore` entry in
 *    force that names the path, an ancestor of it or `*`, the planner never changes what
 *    the entry matches (no change there, and a PATCH of the parent carries the live value);
 *    once the entry has expired the difference is planned again. Then end to end against
 *    the emulator, per kind with an updatable example (test/support/kind-examples.ts): the
 *    example is applied, changed on the gateway by hand, and `apply` with the entry in
 *    force keeps the hand-made value, `apply` after the `until` day reverts it.
 * 2. An object the project would create matches its kind's ownership filters: random
 *    scopes (by name, by `tenant`, by a mapping's `label`/`labels`; AND and OR) and a
 *    random declared object; gwops either refuses it offline (no call reaches the gateway)
 *    or creates it, after which `plan` is empty. The oracle is the emulator's own filter:
 *    the object, created by hand, is in the filtered list exactly when gwops accepted it.
 *
 * `npm test` runs a seeded sample, `npm run drills` (GWOPS_DRILLS=full) the larger matrix.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { NODE_PUBLIC_KEYS } from '../../src/jwks/node-keys.js';
import { describe, expect, it } from 'vitest';
import type { ResourceType } from '../../src/kinds/index.js';
import { KINDS, kindOf } from '../../src/kinds/index.js';
import { deref, documentSchema, walkAttributes, secretAttributes } from '../../src/schema/index.js';
import type { JsonSchema } from '../../src/schema/index.js';
import { isPlainObject, isWriteOnlyPath, matchesDeclared } from '../../src/engine/diff.js';
import type { State, StateObject } from '../../src/engine/model.js';
import { planOutcome } from '../../src/engine/plan.js';
import type { DriftIgnoreEntry } from '../../src/manifest/drift-ignore.js';
import { matchingEntry } from '../../src/manifest/drift-ignore.js';
import { withSession } from '../../src/gateway/index.js';
import type { GatewaySession } from '../../src/gateway/index.js';
import { KIND_EXAMPLES } from '../support/kind-examples.js';
import type { DrillGateway } from './support.js';
import { prng, sample, startDrillGateway } from './support.js';
import { drillMode, drillSeed, recordDrill } from './record.js';

const FULL = drillMode() === 'full';
const SEED = drillSeed(20261207);
const ENGINE_RUNS = FULL ? 5_000 : 300;
const APPLY_KINDS = FULL ? 100 : 3;
const SCOPE_RUNS = FULL ? 60 : 4;

// ---------------------------------------------------------------------------------------
// 1a. The planner keeps what an entry in force matches.

/** A scalar leaf of a kind's schema, outside any list, with two values it can take. */
interface Leaf {
  readonly segments: readonly string[];
  readonly values: readonly [unknown, unknown];
}

function twoValues(schema: JsonSchema): readonly [unknown, unknown] | undefined {
  const values = schema.enum;
  if (Array.isArray(values)) return values.length >= 2 ? [values[0], values[1]] : undefined;
  const scalars: Readonly<Record<string, readonly [unknown, unknown]>> = { string: ['declared-value', 'live-value'], integer: [3, 4], number: [3, 4], boolean: [false, true] };
  return typeof schema.type === 'string' && Object.hasOwn(scalars, schema.type) ? scalars[schema.type] : undefined;
}

function leavesOf(kind: ResourceType): Leaf[] {
  const root = documentSchema(kind);
  const identity = new Set<string>([...kindOf(kind).identity.attributes, ...kindOf(kind).identity.ignoredInDiff, 'name']);
  const out: Leaf[] = [];
  for (const p of walkAttributes(kind)) {
    if (p.segments.includes('*') || identity.has(p.segments[0] ?? '') || isWriteOnlyPath(kind, p.segments)) continue;
    const values = twoValues(deref(p.schema, root));
    if (values) out.push({ segments: p.segments, values });
  }
  return out;
}

const LEAVES = new Map<ResourceType, Leaf[]>(KINDS.map((k) => [k.type, leavesOf(k.type)]));
const LEAF_KINDS = KINDS.map((k) => k.type).filter((k) => (LEAVES.get(k)?.length ?? 0) > 0);

function setAt(target: Record<string, unknown>, segments: readonly string[], value: unknown): void {
  let node = target;
  for (const segment of segments.slice(0, -1)) {
    const next = node[segment];
    if (!isPlainObject(next)) node[segment] = {};
    node = node[segment] as Record<string, unknown>;
  }
  node[segments[segments.length - 1] ?? ''] = value;
}

function getAt(value: unknown, segments: readonly string[]): unknown {
  let node = value;
  for (const s of segments) node = isPlainObject(node) ? node[s] : undefined;
  return node;
}

const state = (object: StateObject): State => ({ objects: new Map([[object.kind, new Map([[object.name, object]])]]), links: [] });

interface EngineCase {
  readonly kind: ResourceType;
  readonly leaf: number;
  readonly sibling: number;
  /** How many leading segments of the path the entry names (0: `*`). */
  readonly prefix: number;
}

const engineCase: fc.Arbitrary<EngineCase> = fc.constantFrom(...LEAF_KINDS).chain((kind) => {
  const n = LEAVES.get(kind)?.length ?? 1;
  return fc.record({ kind: fc.constant(kind), leaf: fc.nat({ max: n - 1 }), sibling: fc.nat({ max: n - 1 }), prefix: fc.nat({ max: 8 }) });
});

interface EngineFigures {
  trials: number;
  undone: number;
  notListed: number;
  keptAfterExpiry: number;
}

const engineFigures = new Map<ResourceType, EngineFigures>();

/** One planner trial; returns a violation message or undefined. */
function engineTrial(c: EngineCase): string | undefined {
  const leaves = LEAVES.get(c.kind) ?? [];
  const leaf = leaves[c.leaf];
  const other = leaves[c.sibling];
  if (!leaf || !other) return undefined;
  // Two leaves of which neither holds the other (the sibling may be the leaf itself).
  const sibling = other.segments.join('.').startsWith(`${leaf.segments.join('.')}.`) || leaf.segments.join('.').startsWith(`${other.segments.join('.')}.`) ? leaf : other;
  const declared: Record<string, unknown> = kindOf(c.kind).identity.byName ? { name: 'drilled' } : {};
  const live: Record<string, unknown> = kindOf(c.kind).identity.byName ? { name: 'drilled' } : {};
  for (const l of [leaf, sibling]) {
    setAt(declared, l.segments, l.values[0]);
    setAt(live, l.segments, l.values[1]);
  }
  const prefix = Math.min(c.prefix, leaf.segments.length);
  const attribute = prefix === 0 ? '*' : leaf.segments.slice(0, prefix).join('.');
  const entry: DriftIgnoreEntry = { object: `${c.kind}/drilled`, kind: c.kind, name: 'drilled', attribute, reason: 'drill', until: '2999-12-31' };
  const desiredState = state({ kind: c.kind, name: 'drilled', attributes: declared, source: { file: 'drill.yaml', line: 1, column: 1 } });
  const liveState = state({ kind: c.kind, name: 'drilled', id: '7', attributes: live });
  const options = { prune: false, isOwned: () => false, allowMassDelete: false, massDeleteShare: 0.5 };
  const figures = engineFigures.get(c.kind) ?? { trials: 0, undone: 0, notListed: 0, keptAfterExpiry: 0 };
  engineFigures.set(c.kind, figures);
  figures.trials += 1;
  const path = leaf.segments.join('.');

  const kept = planOutcome(desiredState, liveState, { ...options, ignore: [entry] }).plan;
  for (const step of kept.steps) {
    if (step.action !== 'update') continue;
    const touched = step.changes.find((ch) => matchingEntry([entry], c.kind, 'drilled', ch.path));
    const body = step.body as { data: { attributes: Record<string, unknown> } };
    const sent = getAt(body.data.attributes, leaf.segments);
    if (touched || (sent !== undefined && sent !== leaf.values[1])) {
      figures.undone += 1;
      return `${c.kind} ${path} ignored by '${attribute}' is undone by the plan: ${JSON.stringify(step.changes)} ${JSON.stringify(body)}`;
    }
  }
  if (!kept.ignored?.some((k) => k.path === path)) {
    figures.notListed += 1;
    return `${c.kind} ${path} ignored by '${attribute}' is not listed as kept: ${JSON.stringify(kept.ignored)}`;
  }
  const expired = planOutcome(desiredState, liveState, options).plan;
  if (!expired.steps.some((s) => s.action === 'update' && s.changes.some((ch) => ch.path === path))) {
    figures.keptAfterExpiry += 1;
    return `${c.kind} ${path} is not planned once the entry has expired`;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------
// 1b. End to end: a hand-made change survives apply until the entry expires.

const noFixtures = { certificate: (): Promise<never> => Promise.reject(new Error('no certificate in this drill')) };

/**
 * The example of a kind that applies on its own (or with the example of what it requires),
 * without secrets or certificates, and whose update changes an attribute it declares.
 */
async function applicableExample(kind: ResourceType): Promise<{ yaml: string; update: Record<string, unknown>; attributes: Record<string, unknown> } | undefined> {
  const example = await Promise.resolve(KIND_EXAMPLES[kind]('drilled', noFixtures)).catch(() => undefined);
  // The hand-made change is made to declared attributes (what is not declared is not managed, hence never reverted).
  const declared = example ? Object.keys(example.update).filter((k) => Object.hasOwn(example.attributes, k)) : [];
  if (!example || declared.length === 0) return undefined;
  const update = Object.fromEntries(declared.map((k) => [k, (example.update as Record<string, unknown>)[k]]));
  const secret = new Set(secretAttributes(kind).map((p) => p.segments[0]));
  if (Object.keys({ ...example.attributes, ...example.update }).some((k) => secret.has(k))) return undefined;
  const docs: string[] = [];
  const relationships: Record<string, string[]> = {};
  for (const requirement of example.requires ?? []) {
    const target = kindOf(kind).relationships[requirement.relationship]?.target;
    if (!target) return undefined;
    const needed = await Promise.resolve(KIND_EXAMPLES[target]('needed', noFixtures)).catch(() => undefined);
    if (!needed || (needed.requires ?? []).length > 0) return undefined;
    docs.push(JSON.stringify({ apiVersion: 'gwops/v1', kind: target, name: 'needed', attributes: needed.attributes }));
    relationships[requirement.relationship] = ['needed'];
  }
  docs.push(JSON.stringify({ apiVersion: 'gwops/v1', kind, name: 'drilled', attributes: example.attributes, relationships }));
  return { yaml: docs.join('\n---\n'), update, attributes: example.attributes };
}

const project = (kind: ResourceType, attribute: string, until: string): string =>
  `manifests: [objects.yaml]\ndrift:\n  ignore:\n    - { object: ${kind}/drilled, attribute: '${attribute}', reason: drill, until: ${until} }\n`;

async function raw<T>(gateway: DrillGateway, fn: (session: GatewaySession) => Promise<T>, activate?: string): Promise<T> {
  return withSession({ url: gateway.emulator.url, apiKey: gateway.emulator.apiKey }, async (session) => {
    await session.loadActive();
    const result = await fn(session);
    if (activate !== undefined) await session.activate(activate);
    return result;
  });
}

interface ApplyFigures {
  kind: ResourceType;
  attribute: string;
  revertedBeforeExpiry: number;
  keptAfterExpiry: number;
}

// ---------------------------------------------------------------------------------------
// 2. Objects created inside their own scope.

const NAMES = ['shop-web', 'shop-api', 'web-backend', 'team-a-orders'] as const;
const TEAMS = ['team-a', 'team-b'] as const;

interface ScopeCase {
  readonly kind: 'back-end-group' | 'mapping';
  readonly filters: readonly string[];
  readonly name: string;
  readonly tenant: string;
  readonly labels: readonly string[];
}

function condition(kind: ScopeCase['kind']): fc.Arbitrary<string> {
  const options = [
    fc.constantFrom(...NAMES).map((n) => `name==${n}`),
    fc.constantFrom('shop-', 'web', 'team-a-').map((p) => `name=@${p}`),
    fc.constantFrom(...TEAMS).map((t) => `tenant==${t}`),
  ];
  if (kind === 'mapping') options.push(fc.constantFrom(...TEAMS).map((t) => `label==${t}`), fc.constantFrom(...TEAMS).map((t) => `labels==${t}`));
  return fc.oneof(...options);
}

const scopeCase: fc.Arbitrary<ScopeCase> = fc.constantFrom('back-end-group' as const, 'mapping' as const).chain((kind) =>
  fc.record({
    kind: fc.constant(kind),
    filters: fc.array(fc.array(condition(kind), { minLength: 1, maxLength: 2 }).map((c) => c.join(',')), { minLength: 1, maxLength: 2 }),
    name: fc.constantFrom(...NAMES),
    tenant: fc.constantFrom(...TEAMS),
    labels: kind === 'mapping' ? fc.subarray([...TEAMS]) : fc.constant([]),
  }),
);

function scopeDocuments(c: ScopeCase): string {
  const group = { apiVersion: 'gwops/v1', kind: 'back-end-group', name: c.kind === 'mapping' ? 'needed-group' : c.name, attributes: { tenant: c.tenant, backendHosts: [{ hostName: 'b.internal', port: 8080 }] } };
  if (c.kind === 'back-end-group') return JSON.stringify(group);
  const mapping = {
    apiVersion: 'gwops/v1',
    kind: 'mapping',
    name: c.name,
    attributes: { tenant: c.tenant, ...(c.labels.length > 0 ? { labels: [...c.labels] } : {}), entryPath: { value: '/drill/' }, backendPath: '/' },
    relationships: { 'back-end-groups': ['needed-group'] },
  };
  return `${JSON.stringify({ ...group, attributes: { backendHosts: group.attributes.backendHosts } })}\n---\n${JSON.stringify(mapping)}`;
}

interface ScopeFigures {
  trials: number;
  refused: number;
  created: number;
  sentWhenRefused: number;
  wronglyRefused: number;
  createdOutside: number;
  stuck: number;
}

const scopeFigures: Record<ScopeCase['kind'], ScopeFigures> = {
  'back-end-group': { trials: 0, refused: 0, created: 0, sentWhenRefused: 0, wronglyRefused: 0, createdOutside: 0, stuck: 0 },
  mapping: { trials: 0, refused: 0, created: 0, sentWhenRefused: 0, wronglyRefused: 0, createdOutside: 0, stuck: 0 },
};

/** Whether the emulator's filtered list holds the declared object (created by hand when gwops did not). */
async function insideByTheGateway(gateway: DrillGateway, c: ScopeCase, create: boolean): Promise<boolean> {
  const collection = kindOf(c.kind).collection;
  return raw(gateway, async (session) => {
    if (create) {
      const attributes: Record<string, unknown> = { name: c.name, tenant: c.tenant };
      if (c.kind === 'mapping') Object.assign(attributes, { labels: [...c.labels], entryPath: { value: '/drill/' }, backendPath: '/' });
      await session.create(collection, { type: c.kind, attributes });
    }
    const listed = await session.list(collection, [...c.filters]);
    return listed.some((r) => r.attributes.name === c.name);
  });
}

async function scopeTrial(c: ScopeCase): Promise<string | undefined> {
  const gateway = await startDrillGateway();
  const figures = scopeFigures[c.kind];
  figures.trials += 1;
  try {
    const dir = join(gateway.dir, 'scope');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(dir, { recursive: true });
    const config = join(dir, 'gwops.yaml');
    await writeFile(config, `manifests: [objects.yaml]\nownership:\n  ${c.kind}: ${JSON.stringify(c.filters)}\n`);
    await writeFile(join(dir, 'objects.yaml'), scopeDocuments(c));
    gateway.resetCount();
    const applied = await gateway.cli(['apply', '--yes', '--config', config, ...gateway.viaProxy]);
    const refused = applied.code !== 0;
    if (refused) {
      figures.refused += 1;
      if (!applied.stderr.includes('[outside-ownership-scope]')) return `apply failed for another reason: ${applied.stderr}`;
      if (gateway.count > 0) {
        figures.sentWhenRefused += 1;
        return `refused after ${gateway.count} calls: ${applied.stderr}`;
      }
      if (await insideByTheGateway(gateway, c, true)) {
        figures.wronglyRefused += 1;
        return `refused, but the gateway's filter ${JSON.stringify(c.filters)} lists ${c.kind} '${c.name}': ${applied.stderr}`;
      }
      return undefined;
    }
    figures.created += 1;
    if (!(await insideByTheGateway(gateway, c, false))) {
      figures.createdOutside += 1;
      return `created ${c.kind} '${c.name}' outside the scope ${JSON.stringify(c.filters)}`;
    }
    const plan = await gateway.cli(['plan', '--detailed-exitcode', '--config', config, ...gateway.viaProxy]);
    if (plan.code !== 0) {
      figures.stuck += 1;
      return `after the create, plan exits ${plan.code}: ${plan.stderr}`;
    }
    return undefined;
  } finally {
    await gateway.close();
  }
}

function failOn<T>(details: fc.RunDetails<T>): void {
  if (!details.failed) return;
  const why = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  expect.fail(`${why}\n\n${fc.defaultReportMessage(details) ?? ''}`);
}

describe('drill: ignores and scope', () => {
  it('an ignored difference is kept by the planner until it expires, for random kinds and attribute paths', () => {
    let failing = false;
    const details = fc.check(
      fc.property(engineCase, (c) => {
        if (failing) return;
        const violation = engineTrial(c);
        if (violation !== undefined) {
          failing = true;
          throw new Error(violation);
        }
      }),
      { seed: SEED, numRuns: ENGINE_RUNS, endOnFailure: true },
    );
    const violations = recordDrill({
      id: 'ignores-planner',
      title: 'Ignored differences in the planner',
      description:
        `${ENGINE_RUNS} random cases: a random kind, a random scalar attribute path of its schema outside any list and a sibling path, ` +
        'both different live, and a drift.ignore entry in force naming the path, an ancestor of it or *. The plan must not change ' +
        'what the entry matches (nor send another value there in a PATCH of the parent) and must list it as kept; once the entry has expired, the difference is planned again.',
      seed: SEED,
      columns: ['Kind', 'Cases', 'Undone while in force', 'Not listed as kept', 'Not planned after expiry'],
      rows: [...engineFigures.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([kind, f]) => [kind, f.trials, f.undone, f.notListed, f.keptAfterExpiry]),
      mustBeZero: ['Undone while in force', 'Not listed as kept', 'Not planned after expiry'],
    });
    failOn(details);
    expect(violations).toEqual([]);
    expect(engineFigures.size).toBeGreaterThan(3);
  }, 120_000);

  it('a change made on the gateway and ignored survives apply until the entry expires, then apply reverts it', async () => {
    const random = prng(SEED);
    const candidates: { kind: ResourceType; example: NonNullable<Awaited<ReturnType<typeof applicableExample>>> }[] = [];
    // Objects created by name: a singleton (no name, never created) has its own test (test/e2e/singletons.test.ts).
    for (const k of KINDS.filter((kind) => !kind.singleton)) {
      const example = await applicableExample(k.type);
      if (example) candidates.push({ kind: k.type, example });
    }
    expect(candidates.length).toBeGreaterThan(3);
    const rows: ApplyFigures[] = [];
    const gateway = await startDrillGateway();
    const problems: string[] = [];
    try {
      for (const { kind, example } of sample(candidates, APPLY_KINDS, random)) {
        const keys = Object.keys(example.update);
        const attribute = random() < 0.5 ? '*' : (keys[Math.floor(random() * keys.length)] ?? '*');
        const row: ApplyFigures = { kind, attribute, revertedBeforeExpiry: 0, keptAfterExpiry: 0 };
        rows.push(row);
        const dir = join(gateway.dir, kind);
        const { mkdir } = await import('node:fs/promises');
        await mkdir(dir, { recursive: true });
        const config = join(dir, 'gwops.yaml');
        await writeFile(join(dir, 'objects.yaml'), example.yaml);
        await writeFile(config, project(kind, attribute, '2999-12-31'));
        const created = await gateway.cli(['apply', '--yes', '--config', config, ...gateway.direct]);
        expect(created.code, created.stderr).toBe(0);
        const collection = kindOf(kind).collection;
        await raw(gateway, async (session) => {
          const [object] = await session.list(collection, ['name==drilled']);
          if (!object) throw new Error(`${kind} 'drilled' was not created`);
          await session.update(collection, object.id, { type: kind, attributes: example.update });
        }, 'hand-made change');
        const liveValues = async (): Promise<Record<string, unknown>> =>
          raw(gateway, async (session) => (await session.list(collection, ['name==drilled']))[0]?.attributes ?? {});
        const same = (expected: Record<string, unknown>, live: Record<string, unknown>): boolean =>
          Object.keys(example.update).every((k) => matchesDeclared(kind, expected[k], live[k], NODE_PUBLIC_KEYS, [k]));

        const kept = await gateway.cli(['apply', '--yes', '--config', config, ...gateway.direct]);
        expect(kept.code, kept.stderr).toBe(0);
        if (!same(example.update, await liveValues())) {
          row.revertedBeforeExpiry += 1;
          problems.push(`${kind} ${attribute}: the ignored change was reverted before the entry expired`);
        }
        await writeFile(config, project(kind, attribute, '2000-01-01'));
        const reverted = await gateway.cli(['apply', '--yes', '--config', config, ...gateway.direct]);
        expect(reverted.code, reverted.stderr).toBe(0);
        if (!same(example.attributes, await liveValues())) {
          row.keptAfterExpiry += 1;
          problems.push(`${kind} ${attribute}: the change was kept after the entry expired`);
        }
      }
    } finally {
      await gateway.close();
    }
    const violations = recordDrill({
      id: 'ignores-apply',
      title: 'Ignored differences through apply',
      description:
        'Per kind whose example applies without secrets or certificates (a sample in npm test, every such kind in the full run): the example is applied, ' +
        'changed on the gateway by hand, and a drift.ignore entry (the changed attribute or *) is in force; apply must keep the hand-made value, ' +
        'and after the entry has expired apply must revert it.',
      seed: SEED,
      columns: ['Kind', 'Entry attribute', 'Reverted before expiry', 'Kept after expiry'],
      rows: rows.map((r) => [r.kind, r.attribute, r.revertedBeforeExpiry, r.keptAfterExpiry]),
      mustBeZero: ['Reverted before expiry', 'Kept after expiry'],
    });
    expect(problems).toEqual([]);
    expect(violations).toEqual([]);
  }, FULL ? 1_800_000 : 120_000);

  it('a declared object is either refused offline or created inside its scope, and then plans to zero', async () => {
    let failing = false;
    const details = await fc.check(
      fc.asyncProperty(scopeCase, async (c) => {
        if (failing) return;
        const violation = await scopeTrial(c);
        if (violation !== undefined) {
          failing = true;
          throw new Error(violation);
        }
      }),
      { seed: SEED, numRuns: SCOPE_RUNS, endOnFailure: true },
    );
    const violations = recordDrill({
      id: 'scope-creates',
      title: 'Creates inside the ownership scope',
      description:
        `${SCOPE_RUNS} random cases: a back-end group or a mapping with a random name, tenant and labels, and a random ownership scope of its kind ` +
        "(name, tenant, a mapping's label or labels; AND and OR). apply must refuse it before any call, or create it; the emulator's own filter is the oracle: " +
        'a refused object, created by hand, is outside the filtered list; a created one is inside it, and plan is then empty.',
      seed: SEED,
      columns: ['Kind', 'Cases', 'Refused offline', 'Created', 'Calls sent when refused', 'Refused but inside', 'Created outside', 'Plan not empty after create'],
      rows: (['back-end-group', 'mapping'] as const).map((k) => {
        const f = scopeFigures[k];
        return [k, f.trials, f.refused, f.created, f.sentWhenRefused, f.wronglyRefused, f.createdOutside, f.stuck];
      }),
      mustBeZero: ['Calls sent when refused', 'Refused but inside', 'Created outside', 'Plan not empty after create'],
    });
    failOn(details);
    expect(violations).toEqual([]);
  }, FULL ? 1_800_000 : 120_000);
});
