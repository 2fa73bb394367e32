/**
 * How V8's heap grows in a gwops process: it doubles between full collections
 * ({@link configureHeap}, from the start), planning many new objects collects the garbage
 * of reading first, and during a long run of calls the heap grows by a quarter only.
 *
 * - From the start: V8 sizes the heap after each full collection from how fast it
 *   collected compared with how fast the program allocates, between 1.1 and 4 times what
 *   is kept. While a long list is read, what is kept grows steadily and most of what is
 *   allocated is garbage, and that estimate often settled near its floor: at 100,000
 *   mappings an export ran 17 full collections instead of 4 to 8, a fifth of the reading
 *   thread's time, and took 10 s of CPU instead of 7.5 s. Which of the two a run got
 *   changed from one run to the next. Doubling every time collects a steadily growing heap
 *   a few times only, the same in every run, and never lets it grow fourfold.
 * - Before planning many new objects ({@link settleHeapForPlanning}): the garbage of
 *   reading is collected, so that the heap doubles from what planning starts with (the
 *   desired and live state), the same in every run. A plan of 100,000 new mappings keeps
 *   about 500 MB at its peak, and so peaks near 750 MB. Bounding the growth there to 30 %
 *   kept it near 700 MB, but cost five full collections instead of two, about 0.4 s of
 *   a planning phase of 3.5 s; at half of what it keeps now, planning used to pass 900 MB.
 * - Before a long run of calls ({@link boundHeapForCalls}): the planning is done and what
 *   the run keeps is known (the desired state, the plan), so the heap may from then on grow
 *   by a quarter of what its next full collection keeps ({@link CALLS_GROWING_PERCENT}).
 *   The calls are spent waiting for the gateway (a session is sequential), so the more
 *   frequent collections, made incrementally, cost little wall time; promoted garbage let
 *   the heap of a plan of 100,000 new mappings pass 1 GB during its calls. That collection
 *   is left to V8: a full collection asked for here paused a run of 100,000 new mappings
 *   for 0.4 s (and its CPU time was about as much again), for a peak about 80 MB lower.
 *   From then on, too, the young generation is collected on the main thread alone
 *   ({@link CALLS_SCAVENGE_FLAG}), which is idle while the calls wait.
 *
 * V8 reads the growth flag each time it sizes the heap after a full collection, and the
 * scavenge flag at each scavenge, so setting them while running takes effect at the next one. None sets a limit (a larger gateway still gets all the memory it needs), and both only change
 * memory and CPU, never what gwops does.
 */
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How much V8's heap grows between full collections from the start of a process, in percent (V8's `--heap-growing-percent`). */
export const START_GROWING_PERCENT = 100;

/** How much it may grow during a long run of calls, in percent. */
export const CALLS_GROWING_PERCENT = 25;

/** Plans of at least this many new objects settle the heap first (each keeps a few kB while planned). */
export const SETTLE_AT_NEW_OBJECTS = 20_000;

/** Plans of at least this many calls bound the heap's growth first. */
export const BOUND_AT_CALLS = 5_000;

let collect: (() => void) | undefined;

/** V8's full collection, asked for once it is known to be needed. */
function collectGarbage(): void {
  if (!collect) {
    // V8 gives its collector to a context made after --expose-gc is set, the one way to
    // ask for a full collection without starting node with the flag.
    v8.setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}

/**
 * At the start of a gwops process: the heap grows by {@link START_GROWING_PERCENT} percent
 * between full collections (see the module comment), until a phase of a large run bounds it.
 */
export function configureHeap(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${START_GROWING_PERCENT}`);
}

/** Whether the heap was settled for planning already: once per process (a transaction redone plans again). */
let settledForPlanning = false;

/**
 * Before planning `newObjects` objects the live state does not hold: when there are at
 * least {@link SETTLE_AT_NEW_OBJECTS}, collects the garbage made so far and lets the heap
 * double between full collections from what is kept ({@link START_GROWING_PERCENT}), once
 * per process. Nothing for fewer.
 * @returns true when it settled the heap
 */
export function settleHeapForPlanning(newObjects: number): boolean {
  if (newObjects < SETTLE_AT_NEW_OBJECTS || settledForPlanning) return false;
  settledForPlanning = true;
  v8.setFlagsFromString(`--heap-growing-percent=${START_GROWING_PERCENT}`);
  collectGarbage();
  return true;
}

/** The plans' calls the growth was bounded for: once per plan, however often its calls are about to be sent. */
const bounded = new WeakSet<readonly unknown[]>();

/**
 * V8's flag that makes the young generation's collections (scavenges, a few hundred in a
 * run of 100,000 calls) run on this thread alone instead of also on helper threads. While
 * the calls wait for the gateway this thread is idle, and helper threads only take cores
 * from a gateway on the same machine (the emulator in CI): on 2 cores, an apply of
 * 100,000 new mappings against it took about 0.9 s less (42.4 s against 43.3 s, the mean
 * of 7 and 6 runs). Reading and planning, when the gateway is idle, keep the helpers.
 */
export const CALLS_SCAVENGE_FLAG = '--no-parallel-scavenge';

/**
 * Before sending `calls` (a plan's calls): when there are at least {@link BOUND_AT_CALLS},
 * lets the heap grow by {@link CALLS_GROWING_PERCENT} from what its next full collection
 * keeps, and collects the young generation on this thread only ({@link CALLS_SCAVENGE_FLAG}),
 * once per plan (both stay so after). Nothing for a smaller plan.
 * @returns true when it bounded the growth
 */
export function boundHeapForCalls(calls: readonly unknown[]): boolean {
  if (calls.length < BOUND_AT_CALLS || bounded.has(calls)) return false;
  bounded.add(calls);
  v8.setFlagsFromString(`--heap-growing-percent=${CALLS_GROWING_PERCENT}`);
  v8.setFlagsFromString(CALLS_SCAVENGE_FLAG);
  return true;
}
