/**
 * Drill "history" (README.md "Drift", "Three sides"): drift's base, the desired state of
 * the commit a project last applied, must tell apart a change on the gateway, a change in
 * Git not applied yet and a conflict, for every kind and attribute path, and `drift
 * --adopt` must never write a gateway value over a change in Git.
 *
 * Two parts:
 *
 * - **Classification**, for every kind identified by name and every scalar attribute path
 *   of its schema (outside lists; secrets, write-only attributes, public keys and
 *   references left out): random objects, each with random paths whose base value (the last
 *   apply), Git value and gateway value are drawn so that the generator knows which side
 *   changed each one (Git, the gateway, both, neither, or a path the base did not declare),
 *   plus whole objects deleted or added on either side, and links through every canonical
 *   relationship added or removed on either side. The manifests' desired states go
 *   through the planner and the drift report as `gwops drift` builds them; every reported
 *   difference must carry the true side, every true difference must be reported, and
 *   `drift --adopt` (drift-base.ts `adoptableReport`) must keep every change in Git.
 * - **Sequences**, end to end in a real Git repository against the emulator: random
 *   sequences of commits (applied or not), changes by hand on the gateway and another
 *   project's applies on the same gateway; after each step `gwops drift --format json`
 *   must classify each difference as the sequence's truth says, and `drift --adopt` must
 *   keep Git's value of every change in Git not applied yet.
 *
 * `npm test` runs a seeded sample (a few seconds); `npm run drills` (GWOPS_DRILLS=full)
 * runs more; the figures go to docs/reliability.md through recordDrill.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { GatewaySession } from '../../src/gateway/index.js';
import { withSession } from '../../src/gateway/index.js';
import type { ResourceType } from '../../src/kinds/index.js';
import { KINDS, kindExistsIn, kindOf } from '../../src/kinds/index.js';
import { isPublicKeyPath, isSecretPath, isWriteOnlyPath } from '../../src/engine/diff.js';
import { desiredState } from '../../src/engine/desired.js';
import { adoptableReport } from '../../src/engine/drift-base.js';
import type { DriftSide } from '../../src/engine/drift-base.js';
import { buildDriftReport } from '../../src/engine/drift-report.js';
import type { DriftEntry } from '../../src/engine/drift-report.js';
import type { Link, State, StateObject } from '../../src/engine/model.js';
import { buildPlan } from '../../src/engine/plan.js';
import { referenceAttributes } from '../../src/schema/index.js';
import type { ManifestDocument } from '../../src/manifest/types.js';
import type { Json } from './convergence/schema-arbitrary.js';
import { leafSchema, schemaPaths, valueArbitrary } from './convergence/schema-arbitrary.js';
import { drillMode, drillSeed, recordDrill } from './record.js';
import type { DrillGateway } from './support.js';
import { prng, startDrillGateway } from './support.js';

const FULL = drillMode() === 'full';
const SEED = drillSeed(20261207);
const CLASSIFICATION_RUNS = FULL ? 2_000 : 150;
const SEQUENCES = FULL ? 12 : 2;
const SEQUENCE_STEPS = FULL ? 10 : 5;
const VARIANT = 'latest';

// ---------------------------------------------------------------------------------------
// Part 1: classification over every kind and scalar attribute path.

/** Scalar attribute paths a manifest can declare and a plan compares, per kind identified by name. */
const PATHS: ReadonlyMap<ResourceType, readonly string[]> = new Map(
  KINDS.filter((k) => k.identity.byName && kindExistsIn(k, VARIANT)).map((k) => {
    const references = new Set(referenceAttributes(k.type).map((p) => p.path));
    const paths = schemaPaths(k.type, VARIANT, ['name']).filter((path) => {
      if (path.includes('[]') || references.has(path)) return false;
      const segments = path.split('.');
      if (isSecretPath(k.type, segments) || isWriteOnlyPath(k.type, segments) || isPublicKeyPath(k.type, segments)) return false;
      const schema = leafSchema(k.type, VARIANT, path);
      const type = Array.isArray(schema?.type) ? schema.type.find((t) => t !== 'null') : schema?.type;
      return schema !== undefined && (Array.isArray(schema.enum) ? schema.enum.length > 1 : ['boolean', 'integer', 'number', 'string'].includes(String(type)));
    });
    return [k.type, paths] as const;
  }).filter(([, paths]) => paths.length > 0),
);

/** What happened to one attribute path since the base. */
type PathStory = 'unchanged' | 'git' | 'gateway' | 'both' | 'both-same' | 'git-undeclared-in-base';

interface PathCase {
  readonly path: string;
  readonly story: PathStory;
  /** Three values, pairwise distinct where the story needs them. */
  readonly values: readonly [Json, Json, Json];
}

/** What happened to one whole object since the base. */
type ObjectStory = 'attributes' | 'deleted-on-gateway' | 'new-in-git' | 'added-on-gateway' | 'removed-in-git';

interface ObjectCase {
  readonly kind: ResourceType;
  readonly story: ObjectStory;
  readonly paths: readonly PathCase[];
}

function distinctValues(kind: ResourceType, path: string): fc.Arbitrary<[Json, Json, Json]> {
  const schema = leafSchema(kind, VARIANT, path) ?? {};
  const value = valueArbitrary(kind, schema, path, { secretVariable: () => 'UNUSED', skip: [] });
  return fc.uniqueArray(value, { minLength: 2, maxLength: 3, comparator: 'IsStrictlyEqual' }).map((v) => [v[0] ?? null, v[1] ?? null, v[2] ?? v[0] ?? null]);
}

function objectArbitrary(): fc.Arbitrary<ObjectCase> {
  const kinds = [...PATHS.keys()];
  return fc.constantFrom(...kinds).chain((kind) =>
    fc.record({
      kind: fc.constant(kind),
      story: fc.constantFrom<ObjectStory>('attributes', 'attributes', 'attributes', 'deleted-on-gateway', 'new-in-git', 'added-on-gateway', 'removed-in-git'),
      paths: fc
        .uniqueArray(fc.constantFrom(...(PATHS.get(kind) ?? [])), { minLength: 1, maxLength: 4 })
        .map((paths) => paths.filter((p, _, all) => !all.some((q) => q !== p && (p.startsWith(`${q}.`) || q.startsWith(`${p}.`)))))
        .chain((paths) =>
          fc.tuple(
            ...paths.map((path) =>
              fc.record({
                path: fc.constant(path),
                story: fc.constantFrom<PathStory>('unchanged', 'git', 'gateway', 'both', 'both-same', 'git-undeclared-in-base'),
                values: distinctValues(kind, path),
              }),
            ),
          ),
        ),
    }),
  );
}

/** Sets `value` at dotted `path` inside `target` (objects made on the way). */
function setAt(target: Record<string, unknown>, path: string, value: unknown): void {
  const segments = path.split('.');
  let node = target;
  for (const segment of segments.slice(0, -1)) {
    const next = node[segment];
    node = typeof next === 'object' && next !== null ? (next as Record<string, unknown>) : (node[segment] = {});
  }
  node[segments[segments.length - 1] ?? path] = value;
}

/** The three values of a path (base, Git now, gateway now); undefined: not declared or not there. */
function sides(p: PathCase): { base: Json | undefined; git: Json; live: Json; truth: DriftSide | undefined } {
  const [a, b, c] = p.values;
  // A story whose values the schema cannot make distinct (two booleans, three of an enum of two) falls back to fewer sides.
  const third = c !== a && c !== b ? c : undefined;
  switch (p.story) {
    case 'unchanged':
      return { base: a, git: a, live: a, truth: undefined };
    case 'git':
      return { base: a, git: b, live: a, truth: 'git' };
    case 'gateway':
      return { base: a, git: a, live: b, truth: 'gateway' };
    case 'both':
      return third === undefined ? { base: a, git: b, live: b, truth: undefined } : { base: a, git: b, live: third, truth: 'both' };
    case 'both-same':
      return { base: a, git: b, live: b, truth: undefined };
    case 'git-undeclared-in-base':
      // The base did not declare it: nothing tells which side changed; Git's, so that adopting never overwrites it.
      return { base: undefined, git: a, live: b, truth: 'git' };
  }
}

/** What happened to one link since the base. */
type LinkStory = 'unchanged' | 'added-on-gateway' | 'removed-on-gateway' | 'new-in-git' | 'removed-in-git';

/** A link through a canonical relationship between two fresh objects, and its story. */
interface LinkCase {
  readonly from: ResourceType;
  readonly relationship: string;
  readonly to: ResourceType;
  readonly cardinality: 'one' | 'many';
  readonly story: LinkStory;
}

/** Every canonical relationship between kinds identified by name (the relationships a manifest declares and drift reports). */
const RELATIONSHIPS: readonly Omit<LinkCase, 'story'>[] = KINDS.filter((k) => k.identity.byName && kindExistsIn(k, VARIANT)).flatMap((k) =>
  Object.values(k.relationships)
    .filter((r) => r.canonical && kindOf(r.target).identity.byName && kindExistsIn(kindOf(r.target), VARIANT) && (r.variants === undefined || r.variants.includes(VARIANT)))
    .map((r) => ({ from: k.type, relationship: r.name, to: r.target, cardinality: r.cardinality })),
);

function linkArbitrary(): fc.Arbitrary<LinkCase> {
  return fc.record({
    relationship: fc.constantFrom(...RELATIONSHIPS),
    story: fc.constantFrom<LinkStory>('unchanged', 'added-on-gateway', 'removed-on-gateway', 'new-in-git', 'removed-in-git'),
  }).map(({ relationship, story }) => ({ ...relationship, story }));
}

/** The truth key of a link: its two ends, in either order. */
function linkTruthKey(a: { kind: string; name: string }, b: { kind: string; name: string }): string {
  return ['link', ...[`${a.kind}/${a.name}`, `${b.kind}/${b.name}`].sort()].join(' ');
}

interface Built {
  readonly base: State;
  readonly desired: State;
  readonly live: State;
  /** `kind name path` (path empty for whole objects) → the true side of each difference. */
  readonly truth: Map<string, DriftSide>;
}

function document(kind: ResourceType, name: string, attributes: Record<string, unknown>, line: number): ManifestDocument {
  return { kind, name, attributes: { name, ...attributes }, relationships: {}, source: { file: `${kind}.yaml`, line, column: 1 } };
}

function build(objects: readonly ObjectCase[], links: readonly LinkCase[] = []): Built {
  const baseDocs: ManifestDocument[] = [];
  const gitDocs: ManifestDocument[] = [];
  const live = new Map<ResourceType, Map<string, StateObject>>();
  const liveLinks: Link[] = [];
  const truth = new Map<string, DriftSide>();
  const liveObject = (kind: ResourceType, name: string, id: string): void => {
    const byName = live.get(kind) ?? new Map<string, StateObject>();
    byName.set(name, { kind, name, id, attributes: { name } });
    live.set(kind, byName);
  };
  links.forEach((l, i) => {
    const from = { kind: l.from, name: `l-${l.from}-${i}-from` };
    const to = { kind: l.to, name: `l-${l.to}-${i}-to` };
    const inBase = l.story !== 'new-in-git' && l.story !== 'added-on-gateway';
    const inGit = l.story !== 'removed-in-git' && l.story !== 'added-on-gateway';
    const isLive = l.story !== 'removed-on-gateway' && l.story !== 'new-in-git';
    // The relationship is declared on the canonical side in every state (an empty list when unlinked), so its links are managed.
    const declaring = (linked: boolean): ManifestDocument => ({ ...document(from.kind, from.name, {}, 1000 + i), relationships: { [l.relationship]: linked ? [to.name] : [] } });
    baseDocs.push(declaring(inBase), document(to.kind, to.name, {}, 2000 + i));
    gitDocs.push(declaring(inGit), document(to.kind, to.name, {}, 2000 + i));
    liveObject(from.kind, from.name, `f${i}`);
    liveObject(to.kind, to.name, `t${i}`);
    if (isLive) liveLinks.push({ from, relationship: l.relationship, to });
    const side: DriftSide | undefined = inGit === isLive ? undefined : l.story === 'added-on-gateway' || l.story === 'removed-on-gateway' ? 'gateway' : 'git';
    if (side !== undefined) truth.set(linkTruthKey(from, to), side);
  });
  objects.forEach((o, i) => {
    const name = `h-${o.kind}-${i}`;
    const base: Record<string, unknown> = {};
    const git: Record<string, unknown> = {};
    const there: Record<string, unknown> = { name };
    for (const p of o.paths) {
      const s = sides(p);
      if (s.base !== undefined) setAt(base, p.path, s.base);
      setAt(git, p.path, s.git);
      setAt(there, p.path, s.live);
      if (o.story === 'attributes' && s.truth !== undefined) truth.set(`${o.kind} ${name} ${p.path}`, s.truth);
    }
    const inBase = o.story !== 'new-in-git' && o.story !== 'added-on-gateway';
    const inGit = o.story !== 'added-on-gateway' && o.story !== 'removed-in-git';
    const isLive = o.story !== 'deleted-on-gateway' && o.story !== 'new-in-git';
    if (inBase) baseDocs.push(document(o.kind, name, o.story === 'attributes' ? base : git, i + 1));
    if (inGit) gitDocs.push(document(o.kind, name, git, i + 1));
    if (isLive) {
      const byName = live.get(o.kind) ?? new Map<string, StateObject>();
      byName.set(name, { kind: o.kind, name, id: String(i + 1), attributes: (o.story === 'attributes' ? there : { name, ...git }) });
      live.set(o.kind, byName);
    }
    if (o.story === 'deleted-on-gateway' || o.story === 'added-on-gateway') truth.set(`${o.kind} ${name} `, 'gateway');
    if (o.story === 'new-in-git' || o.story === 'removed-in-git') truth.set(`${o.kind} ${name} `, 'git');
  });
  return { base: desiredState(baseDocs), desired: desiredState(gitDocs), live: { objects: live, links: liveLinks }, truth };
}

/** Checks one set; returns its violations (empty when every property held) and what it counted per kind. */
/** The truth key of a drift entry: its object and attribute path, or for a link its two ends. */
function entryKey(entry: DriftEntry): string {
  if (entry.direction === 'link-added' || entry.direction === 'link-deleted') {
    const related = (entry.direction === 'link-added' ? entry.live : entry.declared) as { kind: string; name: string };
    return linkTruthKey(entry, related);
  }
  return `${entry.kind} ${entry.name} ${entry.direction === 'changed' ? (entry.path ?? '') : ''}`;
}

function classifyOnce(objects: readonly ObjectCase[], figures: Map<ResourceType, Figures>, links: readonly LinkCase[] = []): string[] {
  const built = build(objects, links);
  const plan = buildPlan(built.desired, built.live, { prune: false, isOwned: () => true, allowMassDelete: false, massDeleteShare: 0.5 });
  const report = buildDriftReport({
    plan,
    desired: built.desired,
    live: built.live,
    attribution: { since: [] },
    ignore: [],
    expiredIgnores: [],
    base: { ref: { sha: '0000000', configuration: '1' }, desired: built.base },
  });
  const violations: string[] = [];
  const seen = new Set<string>();
  for (const entry of report.entries) {
    const key = entryKey(entry);
    seen.add(key);
    const expected = built.truth.get(key);
    const f = figureOf(figures, entry.kind);
    f.entries += 1;
    if (expected === undefined) {
      f.falseReports += 1;
      violations.push(`${key}: reported (${entry.side ?? 'no side'}) although neither side changed it`);
    } else if (entry.side !== expected) {
      f.misclassified += 1;
      violations.push(`${key}: reported as ${entry.side ?? 'no side'}, truly ${expected}`);
    } else {
      f[expected] += 1;
    }
  }
  for (const [key, side] of built.truth) {
    if (!seen.has(key)) {
      const kind = key.startsWith('link ') ? key.split(' ')[1]?.split('/')[0] : key.split(' ')[0];
      figureOf(figures, (kind ?? 'mapping') as ResourceType).missed += 1;
      violations.push(`${key}: truly changed (${side}) and not reported`);
    }
  }
  for (const entry of adoptableReport(report).report.entries) {
    const key = entryKey(entry);
    const expected = built.truth.get(key);
    if (expected === 'git' || expected === 'both') {
      figureOf(figures, entry.kind).adoptedOverGit += 1;
      violations.push(`${key}: --adopt would write the gateway's value over a change in Git (${expected})`);
    }
  }
  return violations;
}

interface Figures {
  sets: number;
  entries: number;
  gateway: number;
  git: number;
  both: number;
  misclassified: number;
  missed: number;
  falseReports: number;
  adoptedOverGit: number;
}

function figureOf(figures: Map<ResourceType, Figures>, kind: ResourceType): Figures {
  let f = figures.get(kind);
  if (!f) figures.set(kind, (f = { sets: 0, entries: 0, gateway: 0, git: 0, both: 0, misclassified: 0, missed: 0, falseReports: 0, adoptedOverGit: 0 }));
  return f;
}

// ---------------------------------------------------------------------------------------
// Part 2: sequences of commits, applies and changes by hand, end to end.

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Drill', '-c', 'user.email=drill@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' }).trim();
}

/** The project `prefix`: one back-end group (its first host's port) and one mapping (its backendPath). */
interface Values {
  backendPath: string;
  port: number;
}

function manifests(prefix: string, v: Values): string {
  return `apiVersion: gwops/v1
kind: back-end-group
name: ${prefix}-web
attributes:
  backendHosts:
    - { protocol: HTTP, hostName: ${prefix}.example.internal, port: ${v.port} }
---
apiVersion: gwops/v1
kind: mapping
name: ${prefix}-shop
attributes:
  entryPath: { value: /${prefix}/ }
  backendPath: ${v.backendPath}
relationships:
  back-end-groups: [${prefix}-web]
`;
}

const projectFile = (prefix: string): string => `manifests: [manifests]\nownership:\n  mapping: ['name=@${prefix}-']\n  back-end-group: ['name=@${prefix}-']\n`;

type Step = 'commit' | 'commit-and-apply' | 'apply' | 'by-hand' | 'other-project';
const STEPS: readonly Step[] = ['commit', 'commit-and-apply', 'apply', 'by-hand', 'other-project'];

/** The attributes the sequence changes, with the drift entry each shows up as. */
const ATTRIBUTES = [
  { key: 'backendPath', entry: 'mapping shop backendPath' },
  { key: 'port', entry: 'back-end-group web backendHosts' },
] as const;

interface SequenceFigures {
  steps: number;
  checks: number;
  gateway: number;
  git: number;
  both: number;
  misclassified: number;
  adoptedOverGit: number;
}

async function runSequence(gw: DrillGateway, index: number, random: () => number, figures: SequenceFigures): Promise<string[]> {
  const repo = join(gw.dir, `history-${index}`);
  await rm(repo, { recursive: true, force: true });
  const prefix = `hs${index}`;
  const other = `ho${index}`;
  for (const p of [prefix, other]) {
    await mkdir(join(repo, p, 'manifests'), { recursive: true });
    await writeFile(join(repo, p, 'gwops.yaml'), projectFile(p));
  }
  git(repo, 'init', '-q', '-b', 'main');
  let counter = 0;
  const fresh = (): Values => ({ backendPath: `/v${(counter += 1)}/`, port: 8000 + counter });
  // Git now, what this project last applied, what is live.
  let inGit = fresh();
  let otherInGit = fresh();
  await writeFile(join(repo, prefix, 'manifests', 'shop.yaml'), manifests(prefix, inGit));
  await writeFile(join(repo, other, 'manifests', 'shop.yaml'), manifests(other, otherInGit));
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'first');
  const cwd = join(repo, prefix);
  const run = (args: readonly string[], at = cwd): Promise<{ code: number; stdout: string; stderr: string }> => cliIn(gw, args, at);
  const apply = async (at: string): Promise<void> => {
    const r = await run(['apply', '--yes', ...gw.direct], at);
    if (r.code !== 0) throw new Error(`apply failed: ${r.stderr}`);
  };
  await apply(cwd);
  await apply(join(repo, other));
  let applied: Values = { ...inGit };
  let live: Values = { ...inGit };
  const violations: string[] = [];
  for (let step = 0; step < SEQUENCE_STEPS; step++) {
    const kind = STEPS[Math.floor(random() * STEPS.length)] ?? 'commit';
    const which = ATTRIBUTES[Math.floor(random() * ATTRIBUTES.length)] ?? ATTRIBUTES[0];
    const value = fresh();
    figures.steps += 1;
    switch (kind) {
      case 'commit':
      case 'commit-and-apply':
        inGit = { ...inGit, [which.key]: value[which.key] };
        await writeFile(join(cwd, 'manifests', 'shop.yaml'), manifests(prefix, inGit));
        git(repo, 'commit', '-q', '-am', `step ${step}: ${which.key}`);
        if (kind === 'commit-and-apply') {
          await apply(cwd);
          applied = { ...inGit };
          live = { ...inGit };
        }
        break;
      case 'apply':
        await apply(cwd);
        applied = { ...inGit };
        live = { ...inGit };
        break;
      case 'by-hand':
        live = { ...live, [which.key]: value[which.key] };
        await byHand(gw, prefix, live);
        break;
      case 'other-project':
        otherInGit = fresh();
        await writeFile(join(repo, other, 'manifests', 'shop.yaml'), manifests(other, otherInGit));
        git(repo, 'commit', '-q', '-am', `step ${step}: the other project`);
        await apply(join(repo, other));
        break;
    }
    // The truth of each attribute, from the sequence.
    const expected = new Map<string, DriftSide>();
    for (const a of ATTRIBUTES) {
      const gitChanged = inGit[a.key] !== applied[a.key];
      const gatewayChanged = live[a.key] !== applied[a.key];
      if (inGit[a.key] === live[a.key]) continue;
      expected.set(a.entry.replace(' ', ` ${prefix}-`), gitChanged && gatewayChanged ? 'both' : gitChanged ? 'git' : 'gateway');
    }
    const drift = await run(['drift', '--format', 'json', ...gw.direct]);
    const report = JSON.parse(drift.stdout) as { entries: { kind: string; name: string; path?: string; side?: string }[] };
    const reported = new Map(report.entries.map((e) => [`${e.kind} ${e.name} ${e.path ?? ''}`, e.side]));
    figures.checks += 1;
    for (const [key, side] of expected) {
      if (reported.get(key) !== side) {
        figures.misclassified += 1;
        violations.push(`sequence ${index} step ${step} (${kind}): ${key} reported as ${String(reported.get(key))}, truly ${side}`);
      } else figures[side] += 1;
    }
    for (const key of reported.keys()) if (!expected.has(key)) violations.push(`sequence ${index} step ${step} (${kind}): ${key} reported, truly unchanged`);
    // Adopting keeps every change in Git; then the checkout is put back as Git has it.
    if (report.entries.length > 0) {
      await run(['drift', '--adopt', ...gw.direct]);
      const text = await readFile(join(cwd, 'manifests', 'shop.yaml'), 'utf8');
      for (const a of ATTRIBUTES) {
        const side = expected.get(a.entry.replace(' ', ` ${prefix}-`));
        const kept = a.key === 'backendPath' ? text.includes(`backendPath: ${inGit.backendPath}\n`) : text.includes(`port: ${inGit.port} }`);
        if ((side === 'git' || side === 'both') && !kept) {
          figures.adoptedOverGit += 1;
          violations.push(`sequence ${index} step ${step} (${kind}): --adopt wrote over Git's ${a.key}`);
        }
      }
      git(repo, 'checkout', '-q', '--', '.');
    }
  }
  return violations;
}

/** gwops in-process in `cwd` (the drill gateway's runner runs in the repository's root). */
async function cliIn(gw: DrillGateway, args: readonly string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(['node', 'gwops', ...args], {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { PATH: process.env.PATH, CI: 'true' },
    cwd,
    isTTY: false,
    stdin: Readable.from([]),
  });
  gw.outputs.push(stdout, stderr);
  return { code, stdout, stderr };
}

async function byHand(gw: DrillGateway, prefix: string, v: Values): Promise<void> {
  await withRaw(gw, async (s) => {
    const [mapping] = await s.list('mappings', [`name==${prefix}-shop`]);
    const [group] = await s.list('back-end-groups', [`name==${prefix}-web`]);
    if (!mapping || !group) throw new Error('the project was not applied');
    await s.update('mappings', mapping.id, { type: 'mapping', attributes: { backendPath: v.backendPath } });
    await s.update('back-end-groups', group.id, { type: 'back-end-group', attributes: { backendHosts: [{ protocol: 'HTTP', hostName: `${prefix}.example.internal`, port: v.port }] } });
  });
}

async function withRaw(gw: DrillGateway, fn: (s: GatewaySession) => Promise<void>): Promise<void> {
  await withSession({ url: gw.emulator.url, apiKey: gw.emulator.apiKey }, async (session) => {
    await session.loadActive();
    await fn(session);
    await session.activate('a change by hand');
  });
}

// ---------------------------------------------------------------------------------------

describe('drill: history (drift with a base)', () => {
  it(`classifies every difference as the generator knows it, over ${CLASSIFICATION_RUNS} random sets of every kind and scalar attribute path`, () => {
    const figures = new Map<ResourceType, Figures>();
    const violations: string[] = [];
    fc.assert(
      fc.property(fc.array(objectArbitrary(), { minLength: 1, maxLength: 6 }), fc.array(linkArbitrary(), { maxLength: 3 }), (objects, links) => {
        for (const kind of new Set(objects.map((o) => o.kind))) figureOf(figures, kind).sets += 1;
        const found = classifyOnce(objects, figures, links);
        violations.push(...found.slice(0, 3));
        return found.length === 0;
      }),
      { numRuns: CLASSIFICATION_RUNS, seed: SEED, endOnFailure: true },
    );
    const rows = [...figures.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([kind, f]) => [kind, PATHS.get(kind)?.length ?? 0, f.sets, f.entries, f.gateway, f.git, f.both, f.misclassified, f.missed, f.falseReports, f.adoptedOverGit]);
    const zero = recordDrill({
      id: 'history-classification',
      title: 'Drift with a base: every kind and attribute path',
      description:
        'Random objects of every kind identified by name, each with random scalar attribute paths whose base (last apply), Git and gateway values the generator draws so that it knows which side changed each (or whole objects deleted or added on either side), and links through every canonical relationship added or removed on either side, planned and reported as gwops drift does. Every difference must be reported with its true side, and drift --adopt must adopt no change in Git.',
      seed: SEED,
      columns: ['kind', 'paths', 'sets', 'differences', 'gateway', 'git', 'both', 'misclassified', 'missed', 'false reports', 'adopted over Git'],
      rows,
      mustBeZero: ['misclassified', 'missed', 'false reports', 'adopted over Git'],
    });
    expect(violations).toEqual([]);
    expect(zero).toEqual([]);
    expect([...PATHS.keys()].filter((kind) => !figures.has(kind))).toEqual([]);
  });

  describe('sequences of commits, applies and changes by hand', () => {
    let gw: DrillGateway;
    beforeAll(async () => {
      gw = await startDrillGateway();
    });
    afterAll(async () => {
      await gw.close();
    });

    it(`classifies each difference after every step of ${SEQUENCES} random sequences, and --adopt keeps Git's changes`, { timeout: 600_000 }, async () => {
      const figures: SequenceFigures = { steps: 0, checks: 0, gateway: 0, git: 0, both: 0, misclassified: 0, adoptedOverGit: 0 };
      const violations: string[] = [];
      for (let i = 0; i < SEQUENCES; i++) violations.push(...(await runSequence(gw, i, prng(SEED + i), figures)));
      const zero = recordDrill({
        id: 'history-sequences',
        title: 'Drift with a base: sequences of commits, applies and changes by hand',
        description: `Random sequences of ${SEQUENCE_STEPS} steps in a real Git repository against the emulator: commits applied or not, changes by hand on the gateway, another project's applies on the same gateway. After each step gwops drift must classify each difference as the sequence's truth says, and drift --adopt must keep Git's value of every change in Git.`,
        seed: SEED,
        columns: ['sequences', 'steps', 'checks', 'gateway', 'git', 'both', 'misclassified', 'adopted over Git'],
        rows: [[SEQUENCES, figures.steps, figures.checks, figures.gateway, figures.git, figures.both, figures.misclassified, figures.adoptedOverGit]],
        mustBeZero: ['misclassified', 'adopted over Git'],
      });
      expect(violations).toEqual([]);
      expect(zero).toEqual([]);
    });
  });
});
