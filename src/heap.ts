/**
 * How V8's heap grows in a gwops process, in two phases.
 *
 * - From the start ({@link configureHeap}): the heap may grow by at most half between full
 *   collections ({@link HEAP_GROWING_PERCENT}) instead of up to four times. A large run
 *   (100,000 mappings) makes garbage faster than it keeps data: planning 100,000 new
 *   mappings keeps about 600 MB, and letting the heap double from there took the process
 *   to 1 GB; growing by half kept it near 900 MB, for about a twentieth more CPU in a plan
 *   of 100,000 mappings (`npm run bench` measures both). No limit is set: a larger gateway
 *   still gets all the memory it needs.
 * - Before a long run of calls ({@link settleHeapForCalls}; apply asks before it shows the
 *   plan, whose text is garbage too): the planning is done and what the run keeps is known
 *   (the desired state, the plan), so its garbage is collected
 *   and the heap may from then on grow by a quarter of what is kept
 *   ({@link CALLS_GROWING_PERCENT}). The calls are spent waiting for the gateway (a session
 *   is sequential), so the more frequent collections cost no wall time; promoted garbage
 *   let the heap of a plan of 100,000 new mappings (about 600 MB kept) pass 1 GB during
 *   its calls.
 *
 * V8 reads these flags each time it sizes the heap after a full collection, so setting
 * them while running takes effect at the next one: the collection `settleHeapForCalls`
 * asks for. Both only change memory and CPU, never what gwops does.
 */
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How much V8's heap may grow between full collections while planning, in percent (V8's `--heap-growing-percent`). */
export const HEAP_GROWING_PERCENT = 50;

/** How much it may grow during a long run of calls, in percent. */
export const CALLS_GROWING_PERCENT = 25;

/** Plans of at least this many calls settle the heap first (a full collection takes tens of milliseconds per 100 MB kept). */
export const SETTLE_AT_CALLS = 5_000;

/** Sets the heap's growth for planning: called once, when the process starts. */
export function configureHeap(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

let collect: (() => void) | undefined;

/** The plans' calls already settled for: apply asks before it shows its plan and again before it sends it. */
const settled = new WeakSet<readonly unknown[]>();

/**
 * Before sending `calls` (a plan's calls): when there are at least {@link SETTLE_AT_CALLS},
 * collects the garbage of planning and lets the heap grow by {@link CALLS_GROWING_PERCENT}
 * from what is left, once per plan (the growth stays bounded after). Nothing for a smaller plan.
 * @returns true when it settled the heap
 */
export function settleHeapForCalls(calls: readonly unknown[]): boolean {
  if (calls.length < SETTLE_AT_CALLS || settled.has(calls)) return false;
  settled.add(calls);
  v8.setFlagsFromString(`--heap-growing-percent=${CALLS_GROWING_PERCENT}`);
  if (!collect) {
    // V8 gives its collector to a context made after --expose-gc is set, the one way to
    // ask for a full collection without starting node with the flag.
    v8.setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
  return true;
}
