/**
 * Scale benchmark, how gwops's targets at 100,000 mappings are checked: at 1,000 / 10,000 /
 * 100,000 mappings (200 / 1,000 with `--quick`), against an emulator in a child process
 * seeded to that size, `gwops plan --no-server-check` and `gwops drift` (every tenth
 * mapping changed in the manifests), `gwops export`, and `gwops plan --no-server-check
 * --format json --out FILE`, `gwops plan` (server check) and `gwops apply --yes` (a tenth
 * of the size in new mappings), and the server-checked plan and apply of the size's
 * mappings all new, on a gateway holding only the groups and hosts.
 *
 * Each command runs as the real CLI in a fresh process (tools/bench/probe-run.ts), timed from
 * outside, its peak RSS its own; side by side in the same run a bare client does the least
 * the same work needs, also in a fresh process: for plan, drift and export a fetch and
 * parse of the same lists; for the server-checked plan and apply the same calls, told the
 * changes (tools/bench/minimum-calls.ts). The emulator counts the requests of both. Targets
 * (tools/bench/scale-format.ts): gwops's wall time at most 1.2x the bare client's for plan
 * (the JSON plan too) and drift, 1.5x for export, 1.1x for the server-checked plan and apply, at 100,000
 * mappings; every gwops process and the emulator under 1 GB peak RSS. A missed target is
 * reported, never an exit code.
 *
 * Seeding reuses the apply bench's (tools/bench/apply-data.ts `populate`: one create per
 * mapping over HTTP, links from the groups' and hosts' side, an activation that writes
 * the emulator's state file); every emulator of a size then starts from a copy of that
 * file: one serves plan, drift, export and the server-checked plan in turn (they change
 * nothing), each apply run gets its own, and so does each run of the "all new" rows (from
 * a state file with the groups and hosts alone).
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { populate, writeProject } from './apply-data.js';
import type { BenchEmulator } from './apply-emulator.js';
import { childEmulator } from './apply-emulator.js';
import { exportProbe, freshOutput } from './export.js';
import type { ProbeRun, ProbeWork } from './probe-run.js';
import { median, runProbe } from './probe-run.js';
import type { ScaleBenchReport, ScaleCommand, ScaleRow, ScaleSide } from './scale-format.js';
import type { Shape } from './scenario.js';
import { SCENARIO_COLLECTIONS } from './scenario.js';

const GROUPS = 10;
const HOSTS = 5;
/** Sizes at and below this get a warm-up run of each side; every size the median of {@link RUNS} alternating runs. */
const WARM_UP_UP_TO = 10_000;
/** Alternating runs of each side at every size (a single run at 100,000 mappings was off by a third on this shared machine). */
const RUNS = 3;

/**
 * The sizes of `npm run bench -- scale`, of `--quick`, or of `--sizes=N,M` (`given`, which wins).
 * @throws Error when `given` is not a comma-separated list of whole numbers from 1 up
 */
export function scaleSizes(quick: boolean, given?: string): number[] {
  if (given !== undefined) {
    const sizes = given.split(',').map((s) => (/^\d+$/.test(s.trim()) ? Number(s.trim()) : NaN));
    if (sizes.some((n) => !Number.isSafeInteger(n) || n < 1)) throw new Error(`--sizes=${given}: expected whole numbers of mappings separated by commas, e.g. --sizes=100000`);
    return sizes;
  }
  return quick ? [200, 1000] : [1000, 10_000, 100_000];
}

/** One run of one side: the probe's figures and the requests the emulator handled meanwhile. */
type SideRun = ProbeRun & { readonly requests: number };

/** Runs `probe` against `emulator`, counting the requests; @throws Error when the exit code is not `exitCode` */
async function counted(emulator: BenchEmulator, what: string, exitCode: number, probe: () => Promise<ProbeRun>): Promise<SideRun> {
  const before = await emulator.counters();
  const run = await probe();
  if (run.exitCode !== exitCode) throw new Error(`scale bench: ${what} ended with exit code ${run.exitCode}, expected ${exitCode}: ${run.stderrTail.trim()}`);
  return { ...run, requests: (await emulator.counters()).requests - before.requests };
}

function side(runs: readonly SideRun[]): ScaleSide {
  return {
    wallMs: median(runs.map((r) => r.wallMs)),
    cpuMs: median(runs.map((r) => r.cpuMs)),
    rssMb: Math.max(...runs.map((r) => r.rssMb)),
    requests: median(runs.map((r) => r.requests)),
    wallRunsMs: runs.map((r) => r.wallMs),
  };
}

/** After a warm-up of each (small sizes), alternating runs of the bare client and gwops. */
async function alternate(size: number, bare: () => Promise<SideRun>, gwops: () => Promise<SideRun>): Promise<{ bare: ScaleSide; gwops: ScaleSide }> {
  const warm = size <= WARM_UP_UP_TO;
  if (warm) {
    await bare();
    await gwops();
  }
  const bares: SideRun[] = [];
  const gwopses: SideRun[] = [];
  for (let run = 0; run < RUNS; run++) {
    bares.push(await bare());
    gwopses.push(await gwops());
  }
  return { bare: side(bares), gwops: side(gwopses) };
}

/** What one size needs: its seeded state files and its three projects. */
interface SizeSetup {
  readonly size: number;
  readonly objects: number;
  readonly seed: string;
  readonly work: string;
  /** The seeded mappings, every tenth changed (plan --no-server-check, drift). */
  readonly changedDir: string;
  readonly changed: number;
  /** The seeded mappings unchanged plus `added` new ones (plan, apply). */
  readonly newDir: string;
  readonly newShape: Shape;
  readonly added: number;
  /** A state file with the groups and hosts but no mapping, and the project declaring `size` mappings (plan and apply, all new). */
  readonly emptySeed: string;
  readonly allNewDir: string;
  readonly allNewShape: Shape;
}

let copies = 0;

async function copyOf(file: string, dir: string): Promise<string> {
  const copy = path.join(dir, `state-${++copies}.json`);
  await copyFile(file, copy);
  return copy;
}

/** Plan, drift, export and the server-checked plan against one emulator started from the seed. */
async function readRows(s: SizeSetup, progress: (line: string) => void): Promise<ScaleRow[]> {
  const emulator = await childEmulator({ latencyMs: 0, stateFile: await copyOf(s.seed, s.work) });
  const rows: ScaleRow[] = [];
  try {
    const cli = (args: readonly string[] | (() => Promise<readonly string[]>), cwd: string, exitCode: number) => async (): Promise<SideRun> => {
      const given = typeof args === 'function' ? await args() : args;
      return counted(emulator, `gwops ${given.join(' ')}`, exitCode, () => runProbe(emulator, { mode: 'cli', args: given }, cwd));
    };
    const bareRun = (work: ProbeWork) => (): Promise<SideRun> => counted(emulator, `the bare client (${work.mode})`, 0, () => runProbe(emulator, work));
    const measure = async (command: ScaleCommand, changes: number, bare: () => Promise<SideRun>, gwops: () => Promise<SideRun>): Promise<void> => {
      progress(`scale bench: ${s.size} mappings, ${command}...`);
      const sides = await alternate(s.size, bare, gwops);
      rows.push({ size: s.size, objects: s.objects, command, changes, ...sides, emulatorRssMb: (await emulator.peakRssBytes()) / 1024 ** 2 });
    };
    await measure('plan-no-check', s.changed, bareRun({ mode: 'fetch', collections: SCENARIO_COLLECTIONS }), cli(['plan', '--no-server-check', '-q'], s.changedDir, 0));
    // The JSON plan of the new mappings, on stdout and in a plan file: the largest documents
    // gwops writes. Each run writes a new file (freshOutput): overwriting the last one would add the file system's trimming of its blocks.
    const jsonPlan = async (): Promise<readonly string[]> => ['plan', '--no-server-check', '--format', 'json', '--out', await freshOutput('plan.json'), '-q'];
    await measure('plan-json', s.added, bareRun({ mode: 'fetch', collections: SCENARIO_COLLECTIONS }), cli(jsonPlan, s.newDir, 0));
    await measure('drift', s.changed, bareRun({ mode: 'fetch', collections: [...SCENARIO_COLLECTIONS, 'configurations'] }), cli(['drift', '-q'], s.changedDir, 2));
    await measure(
      'export',
      0,
      () => counted(emulator, 'the bare fetch of export', 0, () => exportProbe(emulator, 'fetch')),
      () => counted(emulator, 'gwops export', 0, () => exportProbe(emulator, 'export')),
    );
    await measure('plan', s.added, bareRun({ mode: 'calls', command: 'plan', shape: s.newShape, existing: s.size }), cli(['plan', '-q'], s.newDir, 0));
  } finally {
    await emulator.close();
  }
  return rows;
}

/**
 * A command whose runs (gwops's and the bare client's) each get an emulator of their own,
 * started from `seed`: apply changes the gateway; the server-checked plan of a whole
 * gateway of new mappings fills a session with them.
 */
async function freshRow(
  s: SizeSetup,
  command: ScaleCommand,
  seed: string,
  project: { readonly dir: string; readonly shape: Shape; readonly existing: number; readonly changes: number },
  progress: (line: string) => void,
): Promise<ScaleRow> {
  progress(`scale bench: ${s.size} mappings, ${command}...`);
  let emulatorRssMb = 0;
  const fresh = async (what: string, work: ProbeWork, cwd?: string): Promise<SideRun> => {
    const emulator = await childEmulator({ latencyMs: 0, stateFile: await copyOf(seed, s.work) });
    try {
      const run = await counted(emulator, what, 0, () => runProbe(emulator, work, cwd));
      emulatorRssMb = Math.max(emulatorRssMb, (await emulator.peakRssBytes()) / 1024 ** 2);
      return run;
    } finally {
      await emulator.close();
    }
  };
  const verb = command === 'apply' || command === 'apply-all-new' ? 'apply' : 'plan';
  const sides = await alternate(
    s.size,
    () => fresh(`the bare client (${verb} calls)`, { mode: 'calls', command: verb, shape: project.shape, existing: project.existing }),
    () => fresh(`gwops ${verb}`, { mode: 'cli', args: verb === 'apply' ? ['apply', '--yes', '-q'] : ['plan', '-q'] }, project.dir),
  );
  return { size: s.size, objects: s.objects, command, changes: project.changes, ...sides, emulatorRssMb };
}

/** Seeds a state file with `mappings` mappings (and the groups and hosts) at `seed`. */
async function seedState(seed: string, mappings: number): Promise<void> {
  const seeding = await childEmulator({ latencyMs: 0, stateFile: seed });
  try {
    await populate(seeding, { mappings, groups: GROUPS, hosts: HOSTS, changeEvery: 0 });
  } finally {
    await seeding.close();
  }
}

/** Seeds the state files of a size (`size` mappings; the groups and hosts alone) and writes its three projects into `work`. */
async function setUp(size: number, work: string, progress: (line: string) => void): Promise<{ setup: SizeSetup; seedMs: number }> {
  const seed = path.join(work, 'seed.json');
  progress(`scale bench: seeding ${size} mappings...`);
  const t0 = performance.now();
  await seedState(seed, size);
  const seedMs = performance.now() - t0;
  const emptySeed = path.join(work, 'seed-empty.json');
  await seedState(emptySeed, 0);
  const added = Math.max(1, Math.round(size / 10));
  const changedDir = path.join(work, 'changed');
  const newDir = path.join(work, 'new');
  const allNewDir = path.join(work, 'all-new');
  const newShape: Shape = { mappings: size + added, groups: GROUPS, hosts: HOSTS, changeEvery: 0 };
  const allNewShape: Shape = { mappings: size, groups: GROUPS, hosts: HOSTS, changeEvery: 0 };
  await writeProject(changedDir, { mappings: size, groups: GROUPS, hosts: HOSTS, changeEvery: 10 });
  await writeProject(newDir, newShape);
  await writeProject(allNewDir, allNewShape);
  const setup = { size, objects: size + GROUPS + HOSTS, seed, emptySeed, work, changedDir, changed: Math.ceil(size / 10), newDir, newShape, added, allNewDir, allNewShape };
  return { setup, seedMs };
}

/** Runs the scale benchmark at each size (see the module comment). */
export async function benchScale(sizes: readonly number[], progress: (line: string) => void): Promise<ScaleBenchReport> {
  const rows: ScaleRow[] = [];
  const seeding: { size: number; ms: number }[] = [];
  for (const size of sizes) {
    const work = await mkdtemp(path.join(tmpdir(), `gwops-scale-bench-${size}-`));
    try {
      const { setup, seedMs } = await setUp(size, work, progress);
      seeding.push({ size, ms: seedMs });
      rows.push(...(await readRows(setup, progress)));
      rows.push(await freshRow(setup, 'apply', setup.seed, { dir: setup.newDir, shape: setup.newShape, existing: size, changes: setup.added }, progress));
      // The whole gateway's mappings new (only the groups and hosts there): most calls per object read.
      const allNew = { dir: setup.allNewDir, shape: setup.allNewShape, existing: 0, changes: size };
      rows.push(await freshRow(setup, 'plan-all-new', setup.emptySeed, allNew, progress));
      rows.push(await freshRow(setup, 'apply-all-new', setup.emptySeed, allNew, progress));
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }
  return { rows, groups: GROUPS, hosts: HOSTS, seeding };
}
