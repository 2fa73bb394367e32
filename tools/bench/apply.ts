/**
 * Apply-at-latency benchmark, how the request and wall-time targets of `apply` are checked:
 * `gwops apply` and `gwops plan` (server check on) through the real use cases
 * (`runApply` / `runPlan` of src/operations) against an emulator that adds a fixed latency to
 * every call (EmulatorOptions `latencyMs`), in a child process.
 *
 * Scenarios:
 * - `new`: N new mappings, each linked to one of a few shared back-end groups and virtual
 *   hosts (which are new too), on an empty gateway;
 * - `changed`: a gateway that already holds M such mappings, of which every tenth gets a
 *   new back-end path (10 % changed).
 *
 * For every gwops run the bench reports the requests the emulator received, the wall time,
 * the emulator's own processing time during the run, and two floors: the nominal one, the
 * minimum number of calls (computed from the plan by {@link minimumRequests}) times the
 * added latency, and the measured one, the minimum times the network round trip that a bare
 * HTTP client sees against the same emulator just before the run
 * ({@link measureRoundTrip}: the latency plus this machine's loopback and wake-ups, which
 * no client avoids). Targets: requests equal to the minimum; gwops's time (the wall time
 * less the emulator's processing, which stands in for a gateway's work) at most 1.1x the
 * measured floor; peak RSS under 500 MB at 20,000 mappings. The nominal ratio is reported
 * beside it.
 *
 * A baseline does the same apply the way a typical hand-written script does, through
 * `GatewaySession` directly: a GET by name before each change, one object or one link per
 * call, then the activation. It is told the list of changes (it does not read and compare
 * every object), so it is the cheapest such script.
 */
import { fork } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { KINDS, kindExistsIn, kindOf } from '#src/kinds/index.js';
import type { ResourceType } from '#src/kinds/index.js';
import { prepareApply, runApply } from '#src/operations/apply.js';
import { kindsToFetch } from '#src/engine/fetch-scope.js';
import type { Plan, PlanSummary } from '#src/engine/plan-types.js';
import { prepare } from '#src/operations/steps/pipeline.js';
import { runPlan } from '#src/operations/plan.js';
import type { PlanResult } from '#src/operations/plan.js';
import type { BenchEmulator, EmulatorFactory } from './apply-emulator.js';
import { childEmulator, measureNetwork } from './apply-emulator.js';
import type { BaselineFigures, Shape } from './apply-data.js';
import { SCENARIO_COLLECTIONS, populate, runBaseline, writeProject } from './apply-data.js';

export type { BenchEmulator, EmulatorFactory } from './apply-emulator.js';
export { childEmulator, inProcessEmulator } from './apply-emulator.js';
export type { BaselineFigures, Shape } from './apply-data.js';
export { populate, runBaseline, writeProject } from './apply-data.js';

/** gwops's time may be at most this multiple of the measured floor (minimum calls x network round trip). */
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
 * The fixed calls of one run: session create, the node's status (the gateway's version,
 * which decides the variant of every body sent and is checked against a declared one),
 * load-active, one GET per kind fetched, session terminate; with a non-empty plan that is
 * executed, the validator messages; and for an apply that activates, the configurations
 * list before and after and the activation.
 */
export function sessionCalls(mode: 'apply' | 'plan', kindsFetched: number, steps: number): number {
  const base = 4 + kindsFetched;
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
// The runs

/** What one gwops run reports (numbers only: it crosses a process boundary). */
export interface GwopsRunFigures {
  readonly wallMs: number;
  readonly summary: PlanSummary;
  readonly steps: number;
  readonly minimum: MinimumRequests;
  /** The collections gwops listed (one GET each), e.g. `mappings`. */
  readonly fetched: readonly string[];
}

/** Runs `gwops apply --yes` or `gwops plan` (server check on) on the project in `dir`, through the use cases. */
export async function runGwops(mode: 'apply' | 'plan', dir: string, emulator: Pick<BenchEmulator, 'url' | 'apiKey'>): Promise<GwopsRunFigures> {
  const input = { paths: [], cwd: dir, env: { GWOPS_API_KEY: emulator.apiKey }, url: emulator.url, warn: (): void => undefined };
  const t0 = performance.now();
  const applyInput = { ...input, comment: 'gwops bench apply', confirm: () => Promise.resolve(true) };
  const { result }: { result: Pick<PlanResult, 'prepared' | 'plan'> } =
    mode === 'apply'
      ? await runApply(applyInput, (await prepareApply(applyInput)).result)
      : await runPlan({ ...input, serverCheck: true }, (await prepare(input)).result);
  const wallMs = performance.now() - t0;
  const available = KINDS.filter((k) => kindExistsIn(k, result.prepared.variant)).map((k) => k.type);
  const kinds = kindsToFetch(result.prepared.desired, result.prepared.loaded.project.ownership, available);
  return {
    wallMs,
    summary: result.plan.summary,
    steps: result.plan.steps.length,
    minimum: minimumRequests(result.plan, mode, kinds.length),
    fetched: kinds.map((k) => kindOf(k).collection),
  };
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

// ---------------------------------------------------------------------------------------
// The benchmark

/** One gwops run with its floor and verdicts. */
export interface GwopsResult extends GwopsRunFigures {
  readonly requests: number;
  /** The emulator's processing time during the run, beyond the added latency (ms). */
  readonly emulatorMs: number;
  /** The network round trip of a small call, measured just before the run ({@link measureNetwork}, ms). */
  readonly roundTripMs: number;
  /** Receiving the lists gwops fetched, measured just before the run ({@link measureNetwork}, ms). */
  readonly listsMs: number;
  /** `minimum.total` x the added latency, in ms. */
  readonly nominalFloorMs: number;
  /** The floor: the lists' time plus every other call of the minimum x `roundTripMs`, in ms. */
  readonly floorMs: number;
  /** gwops's time against the floor: (`wallMs` - `emulatorMs`) / `floorMs`. */
  readonly floorRatio: number;
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
    const network = await measureNetwork(emulator, SCENARIO_COLLECTIONS);
    const before = await emulator.counters();
    const figures = await runGwopsIn(options.runner, mode, dir, emulator).catch((error: unknown) => {
      // The bench measures only runs that succeed: a failing gwops is a bug to fix first.
      throw new Error(`gwops ${mode} failed in the apply bench (${path.basename(dir)}): ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    });
    const after = await emulator.counters();
    const requests = after.requests - before.requests;
    const emulatorMs = after.processingMs - before.processingMs;
    if ([...figures.fetched].sort().join() !== [...SCENARIO_COLLECTIONS].sort().join()) {
      throw new Error(`the apply bench measured the lists ${SCENARIO_COLLECTIONS.join(', ')}, but gwops fetched ${figures.fetched.join(', ')}`);
    }
    const { roundTripMs, listsMs } = network;
    const floorMs = (figures.minimum.total - figures.fetched.length) * roundTripMs + listsMs;
    const floorRatio = (figures.wallMs - emulatorMs) / floorMs;
    return {
      ...figures,
      requests,
      emulatorMs,
      roundTripMs,
      listsMs,
      nominalFloorMs: figures.minimum.total * options.latencyMs,
      floorMs,
      floorRatio,
      requestsMet: requests === figures.minimum.total,
      timeMet: floorRatio <= FLOOR_FACTOR_TARGET,
    };
  } finally {
    await emulator.close();
  }
}

async function baseline(options: ApplyBenchOptions, scenario: 'new' | 'changed', shape: Shape, stateFile: string | undefined): Promise<BaselineFigures> {
  const emulator = await options.emulator({ latencyMs: options.latencyMs, stateFile });
  try {
    const before = await emulator.counters();
    const wallMs = await runBaseline(scenario, shape, emulator);
    return { requests: (await emulator.counters()).requests - before.requests, wallMs };
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

