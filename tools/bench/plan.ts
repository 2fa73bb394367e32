/**
 * Plan benchmark, how the planner's speed targets are checked: `gwops plan` against the
 * emulator for 1,000 / 5,000 / 20,000 mappings with 10 % changed, reporting wall time, CPU
 * time, peak memory and request count, side by side in the same run with the time to merely
 * fetch and parse the same lists. Targets: requests = the minimum (session calls + 1 GET
 * per kind fetched); plan time at most 1.5x the bare fetch-and-parse time; peak memory
 * under 500 MB at 20,000 mappings.
 *
 * The emulator runs in a child process (plain HTTP on loopback) so the figures are the
 * reconciler's own. The plan is built without the server check (no execution), the part
 * whose cost grows with the number of mappings.
 */
import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { GatewaySession } from '#src/gateway/index.js';
import type { ManifestDocument } from '#src/manifest/types.js';
import { desiredState } from '#src/engine/desired.js';
import { fetchLiveLists } from '#src/operations/steps/fetch.js';
import { kindsToFetch, ownershipPredicate } from '#src/engine/fetch-scope.js';
import { liveState } from '#src/engine/live.js';
import { buildPlan } from '#src/engine/plan.js';
import type { BenchEmulator } from './apply-emulator.js';
import { childEmulator, openBareSession } from './apply-emulator.js';

/** The emulator of the plan bench: in a child process, no added latency (tools/bench/apply-emulator.ts). */
type Child = BenchEmulator;

const startChild = (): Promise<Child> => childEmulator({ latencyMs: 0 });

const SCOPE = { mapping: ['labels==bench'], 'back-end-group': ['name=@bench-'] } as const;

function mappingName(i: number): string {
  return `bench-mapping-${String(i).padStart(5, '0')}`;
}

/** Creates `count` mappings linked to one back-end group, over HTTP with a few requests in flight. */
async function populate(child: Child, count: number): Promise<void> {
  const session = await openBareSession(child, 4);
  const call = session.call;
  let group = '';
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      const id = await call('POST', '/configuration/mappings', {
        data: {
          type: 'mapping',
          attributes: { name: mappingName(i), labels: ['bench'], entryPath: { value: `/m/${i}/`, priority: 0 }, backendPath: '/' },
        },
      });
      await call('PATCH', `/configuration/mappings/${id}/relationships/back-end-groups`, {
        data: [{ type: 'back-end-group', id: group }],
      });
    }
  };
  try {
    group = await call('POST', '/configuration/back-end-groups', {
      data: { type: 'back-end-group', attributes: { name: 'bench-backend', backendHosts: [{ protocol: 'HTTP', hostName: 'app', port: 80 }] } },
    });
    await Promise.all(Array.from({ length: 8 }, worker));
    await call('POST', '/configuration/configurations/activate', { comment: 'bench data' });
  } finally {
    await session.close();
  }
}

/** The desired state of the bench: one back-end group and `count` mappings, every tenth changed. */
export function desiredDocuments(count: number): ManifestDocument[] {
  const source = { file: 'bench.yaml', line: 1, column: 1 };
  const docs: ManifestDocument[] = [
    { kind: 'back-end-group', name: 'bench-backend', attributes: { name: 'bench-backend' }, relationships: {}, source },
  ];
  for (let i = 0; i < count; i++) {
    const changed = i % 10 === 0;
    docs.push({
      kind: 'mapping',
      name: mappingName(i),
      attributes: {
        name: mappingName(i),
        labels: ['bench'],
        entryPath: { value: `/m/${i}/`, priority: 0 },
        backendPath: changed ? '/changed/' : '/',
      },
      relationships: { 'back-end-groups': ['bench-backend'] },
      source,
    });
  }
  return docs;
}

interface Figures {
  wallMs: number;
  cpuMs: number;
  peakMb: number;
  requests: number;
  steps?: number;
}

/** Memory the process's JavaScript holds: V8 heap plus external memory and array buffers (undici's chunks). */
function heldBytes(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.external + m.arrayBuffers;
}

/**
 * Runs `fn` once: wall and CPU time, and the peak of {@link heldBytes} sampled every 5 ms
 * (after a full GC when node runs with --expose-gc, as `npm run bench` does), so runs
 * side by side in one process do not inherit each other's peaks the way RSS would.
 */
async function measure(fn: () => Promise<{ requests: number; steps?: number }>): Promise<Figures> {
  global.gc?.();
  let peak = heldBytes();
  const sampler = setInterval(() => (peak = Math.max(peak, heldBytes())), 5);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await fn();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  peak = Math.max(peak, heldBytes());
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, peakMb: peak / 1024 ** 2, ...result };
}

const RUNS = 3;

/**
 * What `gwops plan --no-server-check` does after the session is open: build desired
 * state, fetch one projected list per kind, build live state and the plan. Returns the
 * number of steps.
 */
export async function planSteps(session: GatewaySession, documents: readonly ManifestDocument[]): Promise<number> {
  const desired = desiredState(documents);
  const kinds = kindsToFetch(desired, SCOPE, ['back-end-group', 'mapping']);
  const lists = await fetchLiveLists(session, kinds, desired, SCOPE);
  const live = liveState(lists, new Map());
  const plan = buildPlan(desired, live, { prune: false, isOwned: ownershipPredicate(SCOPE), allowMassDelete: false, massDeleteShare: 0.5 });
  return plan.steps.length;
}

/** Peak RSS (MB) of a fresh process that runs one plan of `size` mappings against the emulator child. */
async function probePlanRss(child: Child, size: number): Promise<number> {
  const probe = fork(fileURLToPath(new URL('./plan-probe.js', import.meta.url)), [], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, GWOPS_BENCH_URL: child.url, GWOPS_BENCH_KEY: child.apiKey, GWOPS_BENCH_SIZE: String(size) },
  });
  return new Promise<number>((resolve, reject) => {
    probe.once('message', (m) => resolve(Number(m) / 1024));
    probe.once('exit', (code) => reject(new Error(`plan probe exited with ${String(code)}`)));
  });
}

/** The element with the median value of `key` (upper median for even counts). */
function medianBy<T>(values: readonly T[], key: (value: T) => number): T {
  const sorted = [...values].sort((a, b) => key(a) - key(b));
  const middle = sorted[Math.floor(sorted.length / 2)];
  if (middle === undefined) throw new Error('no values');
  return middle;
}

function totalRequests(session: GatewaySession): number {
  return Object.values(session.requestCounts()).reduce((a, b) => a + b, 0);
}

/** One measured size of the plan benchmark. */
export interface PlanBenchRow {
  readonly mappings: number;
  /** Median wall time of the bare fetch-and-parse (ms). */
  readonly fetchMs: number;
  /** Median wall time of the plan without the server check (ms). */
  readonly planMs: number;
  readonly planCpuMs: number;
  /** Peak of V8 heap + external + array buffers during a run (MB). */
  readonly fetchMb: number;
  readonly planMb: number;
  /** Peak RSS of a separate process doing one plan (MB, node itself included). */
  readonly planRssMb: number;
  readonly requests: number;
  readonly minimumRequests: number;
  readonly steps: number;
}

/** The plan targets: plan/fetch at most 1.5, peak RSS under 500 MB at 20,000 mappings. */
export const PLAN_RATIO_TARGET = 1.5;
export const PLAN_RSS_TARGET_MB = 500;
export const PLAN_TARGET_SIZE = 20000;

/** Runs the plan benchmark for each size. */
export async function benchPlan(sizes: readonly number[], progress: (line: string) => void): Promise<PlanBenchRow[]> {
  const rows: PlanBenchRow[] = [];
  for (const size of sizes) {
    const child = await startChild();
    try {
      progress(`plan bench: creating ${size} mappings...`);
      await populate(child, size);
      const documents = desiredDocuments(size);
      const inSession = (work: (session: GatewaySession) => Promise<number | undefined>): Promise<Figures> =>
        measure(async () => {
          const session = new GatewaySession({ url: child.url, apiKey: child.apiKey });
          try {
            await session.open();
            await session.loadActive();
            const steps = await work(session);
            return { requests: totalRequests(session) + 1, ...(steps === undefined ? {} : { steps }) };
          } finally {
            await session.terminate();
          }
        });
      const bareRun = (): Promise<Figures> =>
        inSession(async (session) => {
          // Every resource kept whole, parsed the plain way; streamed element by element past
          // 32 MiB (a whole body is limited to 64 MiB, and 20,000 full mappings are larger).
          for (const collection of ['back-end-groups', 'mappings']) await session.list(collection, [], { plain: true, project: (resource) => resource });
          return undefined;
        });
      const planRun = (): Promise<Figures> => inSession((session) => planSteps(session, documents));
      // One warm-up of each (JIT, connection), then alternating runs; medians are reported.
      await bareRun();
      await planRun();
      const bares: Figures[] = [];
      const plans: Figures[] = [];
      for (let run = 0; run < RUNS; run++) {
        bares.push(await bareRun());
        plans.push(await planRun());
      }
      const bare = medianBy(bares, (f) => f.wallMs);
      const planned = medianBy(plans, (f) => f.wallMs);
      const rssMb = await probePlanRss(child, size);
      rows.push({
        mappings: size,
        fetchMs: bare.wallMs,
        planMs: planned.wallMs,
        planCpuMs: planned.cpuMs,
        fetchMb: Math.max(...bares.map((f) => f.peakMb)),
        planMb: Math.max(...plans.map((f) => f.peakMb)),
        planRssMb: rssMb,
        requests: planned.requests,
        minimumRequests: 2 /* create, load-active */ + 2 /* GET per kind */ + 1 /* terminate */,
        steps: planned.steps ?? 0,
      });
    } finally {
      await child.close();
    }
  }
  return rows;
}

/** Verdicts at {@link PLAN_TARGET_SIZE} mappings (null when that size was not measured). */
export function planVerdicts(rows: readonly PlanBenchRow[]): { ratioMet: boolean | null; rssMet: boolean | null; requestsMet: boolean } {
  const big = rows.find((r) => r.mappings === PLAN_TARGET_SIZE);
  return {
    ratioMet: big ? big.planMs / big.fetchMs <= PLAN_RATIO_TARGET : null,
    rssMet: big ? big.planRssMb < PLAN_RSS_TARGET_MB && big.planMb < PLAN_RSS_TARGET_MB : null,
    requestsMet: rows.every((r) => r.requests === r.minimumRequests),
  };
}

/** The plan benchmark as printable lines. */
export function formatPlanBench(rows: readonly PlanBenchRow[]): string[] {
  const lines = [
    'plan against the emulator (10 % of mappings changed), side by side with bare fetch-and-parse (medians of 3 alternating runs after a warm-up)',
    `${'mappings'.padStart(9)} ${'fetch ms'.padStart(9)} ${'plan ms'.padStart(9)} ${'ratio'.padStart(6)} ${'plan cpu ms'.padStart(12)} ${'fetch MB'.padStart(9)} ${'plan MB'.padStart(8)} ${'plan RSS'.padStart(8)} ${'requests'.padStart(9)} ${'min req'.padStart(8)} ${'steps'.padStart(6)}`,
  ];
  for (const r of rows) {
    lines.push(
      `${String(r.mappings).padStart(9)} ${r.fetchMs.toFixed(0).padStart(9)} ${r.planMs.toFixed(0).padStart(9)} ${(r.planMs / r.fetchMs).toFixed(2).padStart(6)} ${r.planCpuMs.toFixed(0).padStart(12)} ${r.fetchMb.toFixed(0).padStart(9)} ${r.planMb.toFixed(0).padStart(8)} ${r.planRssMb.toFixed(0).padStart(8)} ${String(r.requests).padStart(9)} ${String(r.minimumRequests).padStart(8)} ${String(r.steps).padStart(6)}`,
    );
  }
  const v = planVerdicts(rows);
  const word = (met: boolean | null): string => (met === null ? `n/a (${PLAN_TARGET_SIZE} not measured)` : met ? 'pass' : 'FAIL');
  lines.push('memory: fetch MB / plan MB = peak of V8 heap + external + array buffers during a run; plan RSS = peak RSS of a separate process doing one plan (node itself included)');
  lines.push(`target: requests = minimum: ${v.requestsMet ? 'pass' : 'FAIL'}`);
  lines.push(`target: plan/fetch <= ${PLAN_RATIO_TARGET} at ${PLAN_TARGET_SIZE} mappings: ${word(v.ratioMet)}`);
  lines.push(`target: peak memory < ${PLAN_RSS_TARGET_MB} MB at ${PLAN_TARGET_SIZE} mappings: ${word(v.rssMet)}`);
  return lines;
}
