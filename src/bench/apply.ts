/**
 * Apply-at-latency benchmark, how the request and wall-time targets of `apply` are checked:
 * `gwops apply` and `gwops plan` (server check on) through the real use cases
 * (`runApply` / `runPlan` of src/reconcile) against an emulator that adds a fixed latency to
 * every call (EmulatorOptions `latencyMs`), in a child process.
 *
 * Scenarios:
 * - `new`: N new mappings, each linked to one of a few shared back-end groups and virtual
 *   hosts (which are new too), on an empty gateway;
 * - `changed`: a gateway that already holds M such mappings, of which every tenth gets a
 *   new back-end path (10 % changed).
 *
 * For every gwops run the bench reports the requests the emulator received (its request
 * log), the wall time, and the floor: the minimum number of calls (computed from the plan by
 * {@link minimumRequests}) times the latency. Targets: requests equal to the minimum, wall
 * time at most 1.1x the floor, peak RSS under 500 MB at 20,000 mappings.
 *
 * A baseline does the same apply the way a typical hand-written script does, through
 * `GatewaySession` directly: a GET by name before each change, one object or one link per
 * call, then the activation. It is told the list of changes (it does not read and compare
 * every object), so it is the cheapest such script.
 */
import { fork } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { startEmulator } from '../emulator/index.js';
import { GatewaySession } from '../gateway/index.js';
import type { ApiResource } from '../gateway/index.js';
import { KINDS, kindExistsIn, kindOf } from '../kinds/index.js';
import type { ResourceType } from '../kinds/index.js';
import { runApply } from '../reconcile/apply.js';
import { kindsToFetch } from '../reconcile/fetch.js';
import type { Plan, PlanSummary } from '../reconcile/plan-types.js';
import { runPlan } from '../reconcile/run.js';
import type { PlanResult } from '../reconcile/run.js';

/** Wall time may be at most this multiple of the floor (minimum calls x latency). */
export const FLOOR_FACTOR_TARGET = 1.1;
/** Peak RSS of one gwops run at 20,000 mappings must stay under this. */
export const APPLY_RSS_TARGET_MB = 500;

// ---------------------------------------------------------------------------------------
// The minimum number of requests

/** The fewest calls a plan can be carried out with, by part. */
export interface MinimumRequests {
  /** One call per object created, updated or deleted. */
  readonly objects: number;
  /**
   * Relationship calls: per relationship and direction (add or remove), the links grouped
   * on the side with fewer distinct objects (one call per object of that side carries all
   * its links; docs/gateway-api.md "Relationships": either side's endpoint takes a list).
   * Links that the create call of a new object can carry (its kind's `createRelationships`)
   * need no call of their own.
   */
  readonly linkGroups: number;
  /** The fixed calls of the session: see {@link sessionCalls}. */
  readonly session: number;
  readonly total: number;
}

/**
 * The fixed calls of one run: session create, load-active, one GET per kind fetched,
 * session terminate; with a non-empty plan that is executed, the validator messages; and
 * for an apply that activates, the configurations list before and after and the activation.
 */
export function sessionCalls(mode: 'apply' | 'plan', kindsFetched: number, steps: number): number {
  const base = 3 + kindsFetched;
  if (steps === 0) return base;
  return mode === 'apply' ? base + 4 : base + 1;
}

/** Relationships a kind's create body accepts (read defensively: the hook is optional). */
function createRelationships(kind: ResourceType): readonly string[] {
  const value = (kindOf(kind) as { readonly createRelationships?: unknown }).createRelationships;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The minimum for `plan` (see {@link MinimumRequests}). */
export function minimumRequests(plan: Pick<Plan, 'steps'>, mode: 'apply' | 'plan', kindsFetched: number): MinimumRequests {
  let objects = 0;
  const created = new Set<string>();
  for (const step of plan.steps) {
    if (step.action === 'create') created.add(`${step.kind}:${step.name}`);
  }
  const groups = new Map<string, { own: Set<string>; related: Set<string> }>();
  for (const step of plan.steps) {
    if (step.action === 'link' || step.action === 'unlink') {
      if (step.action === 'link') {
        const inverse = kindOf(step.kind).relationships[step.relationship]?.inverse;
        const byOwnCreate = created.has(`${step.kind}:${step.name}`) && createRelationships(step.kind).includes(step.relationship);
        const byRelatedCreate =
          inverse !== undefined && created.has(`${step.related.kind}:${step.related.name}`) && createRelationships(step.related.kind).includes(inverse);
        if (byOwnCreate || byRelatedCreate) continue;
      }
      const key = `${step.action} ${step.kind} ${step.relationship}`;
      const group = groups.get(key) ?? { own: new Set<string>(), related: new Set<string>() };
      groups.set(key, group);
      group.own.add(step.name);
      group.related.add(`${step.related.kind}:${step.related.name}`);
    } else {
      objects++;
    }
  }
  let linkGroups = 0;
  for (const group of groups.values()) linkGroups += Math.min(group.own.size, group.related.size);
  const session = sessionCalls(mode, kindsFetched, plan.steps.length);
  return { objects, linkGroups, session, total: objects + linkGroups + session };
}

// ---------------------------------------------------------------------------------------
// Emulators

/** An emulator the bench talks to, with its request counter. */
export interface BenchEmulator {
  readonly url: string;
  readonly apiKey: string;
  /** Requests the emulator has handled so far. */
  requests(): Promise<number>;
  close(): Promise<void>;
}

/** Starts an emulator with `latencyMs` added to every call, optionally on a state file. */
export type EmulatorFactory = (options: { readonly latencyMs: number; readonly stateFile?: string | undefined }) => Promise<BenchEmulator>;

/** The emulator in a child process (src/bench/emulator-child.ts), as `npm run bench` runs it. */
export const childEmulator: EmulatorFactory = async ({ latencyMs, stateFile }) => {
  const child = fork(fileURLToPath(new URL('./emulator-child.js', import.meta.url)), [], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    execArgv: ['--max-old-space-size=4096'],
    env: { ...process.env, GWOPS_BENCH_LATENCY_MS: String(latencyMs), GWOPS_BENCH_STATE_FILE: stateFile ?? '' },
  });
  const info = await new Promise<{ url: string; apiKey: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { url: string; apiKey: string }));
    child.once('exit', (code) => reject(new Error(`emulator child exited with ${String(code)}`)));
  });
  return {
    ...info,
    requests: () =>
      new Promise<number>((resolve) => {
        const onMessage = (m: unknown): void => {
          if (typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'requests') {
            child.off('message', onMessage);
            resolve(Number((m as { count?: unknown }).count));
          }
        };
        child.on('message', onMessage);
        child.send({ type: 'requests' });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send('close');
      }),
  };
};

/** The emulator in this process (for tests: no build needed). */
export const inProcessEmulator: EmulatorFactory = async ({ latencyMs, stateFile }) => {
  const emulator = await startEmulator({ port: 0, tls: false, variant: 'latest', latencyMs, ...(stateFile ? { stateFile } : {}) });
  return { url: emulator.url, apiKey: emulator.apiKey, requests: () => Promise.resolve(emulator.requestLog.length), close: () => emulator.close() };
};

// ---------------------------------------------------------------------------------------
// The data

/** Shape of a scenario's gateway objects. */
export interface Shape {
  readonly mappings: number;
  readonly groups: number;
  readonly hosts: number;
  /** Every `changeEvery`-th mapping gets another back-end path (0: none). */
  readonly changeEvery: number;
}

const mappingName = (i: number): string => `bench-m${String(i).padStart(5, '0')}`;
const groupName = (g: number): string => `bench-bg${g}`;
const hostName = (h: number): string => `bench-vh${h}`;
const isChanged = (shape: Shape, i: number): boolean => shape.changeEvery > 0 && i % shape.changeEvery === 0;

function mappingAttributes(i: number, changed: boolean): Record<string, unknown> {
  return { labels: ['bench'], entryPath: { value: `/app${i}/` }, backendPath: changed ? '/v2/' : '/' };
}
function groupAttributes(g: number): Record<string, unknown> {
  return { backendHosts: [{ protocol: 'HTTP', hostName: `app${g}.bench.internal`, port: 8080 }] };
}
function hostAttributes(h: number): Record<string, unknown> {
  return { hostName: `vh${h}.bench.example.com`, networkInterface: { https: { enabled: false, http2Allowed: false } } };
}

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
  const origin = new URL(emulator.url);
  const base = origin.pathname.replace(/\/$/, '');
  const pool = new Pool(origin.origin, { connections: 4 });
  try {
    const created = await pool.request({ method: 'POST', path: `${base}/session/create`, headers: { authorization: `Bearer ${emulator.apiKey}` } });
    await created.body.text();
    const setCookie = created.headers['set-cookie'];
    const cookie = (Array.isArray(setCookie) ? setCookie[0] : setCookie)?.split(';')[0] ?? '';
    const call = async (method: 'POST' | 'PATCH', to: string, body?: unknown): Promise<string> => {
      const res = await pool.request({
        method,
        path: `${base}${to}`,
        headers: { cookie, 'content-type': 'application/json', accept: 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.body.text();
      if (res.statusCode >= 300) throw new Error(`${method} ${to}: ${res.statusCode} ${text.slice(0, 200)}`);
      return text ? ((JSON.parse(text) as { data?: { id?: string } }).data?.id ?? '') : '';
    };
    await call('POST', '/configuration/configurations/load-active');
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
    await call('POST', '/session/terminate');
  } finally {
    await pool.close();
  }
}

// ---------------------------------------------------------------------------------------
// The runs

/** What one gwops run reports (numbers only: it crosses a process boundary). */
export interface GwopsRunFigures {
  readonly wallMs: number;
  readonly summary: PlanSummary;
  readonly steps: number;
  readonly minimum: MinimumRequests;
}

/** Runs `gwops apply --yes` or `gwops plan` (server check on) on the project in `dir`, through the use cases. */
export async function runGwops(mode: 'apply' | 'plan', dir: string, emulator: Pick<BenchEmulator, 'url' | 'apiKey'>): Promise<GwopsRunFigures> {
  const input = { paths: [], cwd: dir, env: { GWOPS_API_KEY: emulator.apiKey }, url: emulator.url, warn: (): void => undefined };
  const t0 = performance.now();
  const result: PlanResult =
    mode === 'apply'
      ? await runApply({ ...input, comment: 'gwops bench apply', confirm: () => Promise.resolve(true) })
      : await runPlan({ ...input, serverCheck: true });
  const wallMs = performance.now() - t0;
  const available = KINDS.filter((k) => kindExistsIn(k, result.prepared.variant)).map((k) => k.type);
  const kinds = kindsToFetch(result.prepared.desired, result.prepared.loaded.project.ownership, available);
  return { wallMs, summary: result.plan.summary, steps: result.plan.steps.length, minimum: minimumRequests(result.plan, mode, kinds.length) };
}

/** Where gwops runs: in this process, or in a child of its own (`apply-probe.js`: its peak RSS is then measured). */
export type Runner = 'in-process' | 'child';

async function runGwopsIn(runner: Runner, mode: 'apply' | 'plan', dir: string, emulator: BenchEmulator): Promise<GwopsRunFigures & { rssMb: number | null }> {
  if (runner === 'in-process') return { ...(await runGwops(mode, dir, emulator)), rssMb: null };
  const probe = fork(fileURLToPath(new URL('./apply-probe.js', import.meta.url)), [], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, GWOPS_BENCH_URL: emulator.url, GWOPS_BENCH_KEY: emulator.apiKey, GWOPS_BENCH_DIR: dir, GWOPS_BENCH_MODE: mode },
  });
  return new Promise((resolve, reject) => {
    probe.once('message', (m) => {
      const { figures, maxRssKb } = m as { figures: GwopsRunFigures; maxRssKb: number };
      resolve({ ...figures, rssMb: maxRssKb / 1024 });
    });
    probe.once('exit', (code) => reject(new Error(`apply probe exited with ${String(code)}`)));
  });
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

// ---------------------------------------------------------------------------------------
// The benchmark

/** One gwops run with its floor and verdicts. */
export interface GwopsResult extends GwopsRunFigures {
  readonly requests: number;
  /** `minimum.total` x latency, in ms. */
  readonly floorMs: number;
  /** Peak RSS of the process that ran it (MB), when it ran in a process of its own. */
  readonly rssMb: number | null;
  readonly requestsMet: boolean;
  readonly timeMet: boolean;
}

/** One scenario at one size. */
export interface ScenarioResult {
  readonly scenario: 'new' | 'changed';
  readonly shape: Shape;
  /** Objects the apply creates, updates or deletes. */
  readonly changes: number;
  readonly apply: GwopsResult;
  /** `gwops plan` with the server check (scenario `new` only). */
  readonly plan: GwopsResult | null;
  readonly baseline: BaselineFigures;
}

export interface ApplyBenchReport {
  readonly latencyMs: number;
  readonly runner: Runner;
  readonly scenarios: readonly ScenarioResult[];
  /** The RSS target's verdict at the largest size (null when RSS was not measured). */
  readonly rssMet: boolean | null;
}

export interface ApplyBenchOptions {
  readonly latencyMs: number;
  /** Sizes of scenario `new`. */
  readonly newSizes: readonly number[];
  /** Size of scenario `changed` (10 % of it changed); 0 skips it. */
  readonly changedSize: number;
  readonly groups: number;
  readonly hosts: number;
  readonly emulator: EmulatorFactory;
  readonly runner: Runner;
  readonly progress: (line: string) => void;
}

/** The options of `npm run bench` (full) and of `--quick`. */
export function applyBenchOptions(quick: boolean, progress: (line: string) => void): ApplyBenchOptions {
  return quick
    ? { latencyMs: 5, newSizes: [50, 200], changedSize: 1000, groups: 10, hosts: 5, emulator: childEmulator, runner: 'child', progress }
    : { latencyMs: 20, newSizes: [200, 2000], changedSize: 20000, groups: 10, hosts: 5, emulator: childEmulator, runner: 'child', progress };
}

async function measured(
  options: ApplyBenchOptions,
  mode: 'apply' | 'plan',
  dir: string,
  stateFile: string | undefined,
): Promise<GwopsResult> {
  const emulator = await options.emulator({ latencyMs: options.latencyMs, stateFile });
  try {
    const before = await emulator.requests();
    const figures = await runGwopsIn(options.runner, mode, dir, emulator).catch((error: unknown) => {
      // The bench measures only runs that succeed: a failing gwops is a bug to fix first.
      throw new Error(`gwops ${mode} failed in the apply bench (${path.basename(dir)}): ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    });
    const requests = (await emulator.requests()) - before;
    const floorMs = figures.minimum.total * options.latencyMs;
    return { ...figures, requests, floorMs, requestsMet: requests === figures.minimum.total, timeMet: figures.wallMs <= floorMs * FLOOR_FACTOR_TARGET };
  } finally {
    await emulator.close();
  }
}

async function baseline(options: ApplyBenchOptions, scenario: 'new' | 'changed', shape: Shape, stateFile: string | undefined): Promise<BaselineFigures> {
  const emulator = await options.emulator({ latencyMs: options.latencyMs, stateFile });
  try {
    const before = await emulator.requests();
    const wallMs = await runBaseline(scenario, shape, emulator);
    return { requests: (await emulator.requests()) - before, wallMs };
  } finally {
    await emulator.close();
  }
}

/** Runs every scenario; each run gets an emulator of its own, started from the same state. */
export async function benchApply(options: ApplyBenchOptions): Promise<ApplyBenchReport> {
  const scenarios: ScenarioResult[] = [];
  const work = await mkdtemp(path.join(tmpdir(), 'gwops-bench-apply-'));
  try {
    for (const size of options.newSizes) {
      const shape: Shape = { mappings: size, groups: options.groups, hosts: options.hosts, changeEvery: 0 };
      const dir = path.join(work, `new-${size}`);
      await writeProject(dir, shape);
      options.progress(`apply bench: ${size} new mappings, gwops apply...`);
      const apply = await measured(options, 'apply', dir, undefined);
      options.progress(`apply bench: ${size} new mappings, gwops plan...`);
      const plan = await measured(options, 'plan', dir, undefined);
      options.progress(`apply bench: ${size} new mappings, baseline script...`);
      const base = await baseline(options, 'new', shape, undefined);
      scenarios.push({ scenario: 'new', shape, changes: apply.minimum.objects, apply, plan, baseline: base });
    }
    if (options.changedSize > 0) {
      const shape: Shape = { mappings: options.changedSize, groups: options.groups, hosts: options.hosts, changeEvery: 10 };
      const dir = path.join(work, `changed-${options.changedSize}`);
      await writeProject(dir, shape);
      const seed = path.join(work, 'changed-state.json');
      options.progress(`apply bench: creating ${options.changedSize} mappings...`);
      const seeding = await options.emulator({ latencyMs: 0, stateFile: seed });
      try {
        await populate(seeding, shape);
      } finally {
        await seeding.close();
      }
      const copy = async (name: string): Promise<string> => {
        const file = path.join(work, name);
        await copyFile(seed, file);
        return file;
      };
      options.progress(`apply bench: ${options.changedSize} mappings, 10 % changed, gwops apply...`);
      const apply = await measured(options, 'apply', dir, await copy('gwops-state.json'));
      options.progress(`apply bench: ${options.changedSize} mappings, 10 % changed, baseline script...`);
      const base = await baseline(options, 'changed', shape, await copy('baseline-state.json'));
      scenarios.push({ scenario: 'changed', shape, changes: apply.minimum.objects, apply, plan: null, baseline: base });
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const largest = [...scenarios].sort((a, b) => b.shape.mappings - a.shape.mappings)[0];
  const rss = largest ? [largest.apply.rssMb, largest.plan?.rssMb ?? null].filter((v): v is number => v !== null) : [];
  return {
    latencyMs: options.latencyMs,
    runner: options.runner,
    scenarios,
    rssMet: rss.length > 0 ? Math.max(...rss) < APPLY_RSS_TARGET_MB : null,
  };
}

// ---------------------------------------------------------------------------------------
// Rendering

const n = (value: number): string => value.toLocaleString('en-US');
const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const verdict = (met: boolean): string => (met ? 'pass' : 'FAIL');

/** A scenario's label, e.g. `2,000 new` or `2,000 of 20,000 changed`. */
export function scenarioLabel(s: ScenarioResult): string {
  return s.scenario === 'new' ? `${n(s.shape.mappings)} new` : `${n(s.changes)} of ${n(s.shape.mappings)} changed`;
}

/** The rows of the apply table: one per gwops run. */
export function applyRows(report: ApplyBenchReport): string[][] {
  const rows: string[][] = [];
  for (const s of report.scenarios) {
    for (const [command, r] of [['apply', s.apply], ['plan', s.plan]] as const) {
      if (!r) continue;
      rows.push([
        scenarioLabel(s),
        command,
        n(r.requests),
        `${n(r.minimum.total)} (${n(r.minimum.objects)} + ${n(r.minimum.linkGroups)} + ${n(r.minimum.session)})`,
        `${(r.requests / r.minimum.total).toFixed(2)}x`,
        seconds(r.wallMs),
        seconds(r.floorMs),
        `${(r.wallMs / r.floorMs).toFixed(2)}x`,
        r.rssMb === null ? 'n/a' : `${r.rssMb.toFixed(0)} MB`,
        verdict(r.requestsMet),
        verdict(r.timeMet),
      ]);
    }
  }
  return rows;
}

export const APPLY_HEADER = ['scenario', 'command', 'requests', 'minimum (objects + link groups + session)', 'req/min', 'wall', 'floor', 'wall/floor', 'peak RSS', 'requests = min', 'wall <= 1.1x floor'];

/** The rows of the baseline table: one per scenario. */
export function baselineRows(report: ApplyBenchReport): string[][] {
  return report.scenarios.map((s) => [
    scenarioLabel(s),
    n(s.baseline.requests),
    n(s.apply.requests),
    `${(s.baseline.requests / s.apply.requests).toFixed(2)}x`,
    seconds(s.baseline.wallMs),
    seconds(s.apply.wallMs),
    `${(s.baseline.wallMs / s.apply.wallMs).toFixed(2)}x`,
  ]);
}

export const BASELINE_HEADER = ['scenario', 'baseline requests', 'gwops requests', 'requests ratio', 'baseline wall', 'gwops wall', 'time ratio'];

/** Plain-text table, columns right-aligned except the first. */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const fmt = (cells: readonly string[]): string => cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ');
  return [fmt(header), ...rows.map(fmt)];
}

/** The report as printable lines. */
export function formatApplyBench(report: ApplyBenchReport): string[] {
  const groups = report.scenarios[0]?.shape;
  return [
    `apply at ${report.latencyMs} ms latency per call (emulator in a child process; mappings linked to ${groups?.groups ?? 0} back-end groups and ${groups?.hosts ?? 0} virtual hosts; gwops ${report.runner === 'child' ? 'in a process of its own per run' : 'in this process'})`,
    ...textTable(APPLY_HEADER, applyRows(report)),
    `floor = minimum requests x ${report.latencyMs} ms; plan = gwops plan with the server check (executed in a throw-away session)`,
    `target: peak RSS under ${APPLY_RSS_TARGET_MB} MB at the largest size: ${report.rssMet === null ? 'n/a' : verdict(report.rssMet)}`,
    '',
    'baseline: a hand-written script through GatewaySession (GET by name before each change, one link per call), same apply',
    ...textTable(BASELINE_HEADER, baselineRows(report)),
  ];
}
