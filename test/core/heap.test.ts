/**
 * The heap's growth in a gwops process (src/core/heap.ts), checked in a node process of its own
 * (it changes V8 flags): a plan below each bound changes nothing; a plan of many new objects
 * collects the garbage at once before planning, so what is kept is what is live, and only
 * once; a long run of calls bounds the growth once, without a collection of its own.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO } from '../e2e/harness.js';

interface Outcome {
  readonly first: boolean;
  readonly again: boolean;
  readonly beforeMb: number;
  readonly afterMb: number;
  /** The V8 flags set by the first ask. */
  readonly flags: readonly string[];
}

/** Makes 200 MB of garbage, then asks `boundHeapForCalls` (a plan of `size` calls) or `settleHeapForPlanning` (`size` new objects), twice. */
const run = (phase: 'calls' | 'plan', size: number): Outcome => {
  const module = pathToFileURL(join(REPO, 'dist', 'core', 'heap.js')).href;
  const script = `
    const v8 = (await import('node:v8')).default;
    const flags = [];
    const setFlags = v8.setFlagsFromString;
    v8.setFlagsFromString = (flag) => { flags.push(flag); setFlags(flag); };
    const { boundHeapForCalls, settleHeapForPlanning } = await import(${JSON.stringify(module)});
    const calls = new Array(${size}).fill(0);
    const ask = () => (${JSON.stringify(phase)} === 'calls' ? boundHeapForCalls(calls) : settleHeapForPlanning(${size}));
    // 200 MB of garbage: arrays no one holds.
    // The last batch (36 of them) is let go only now: a scavenge meanwhile cannot take it all.
    let junk = [];
    for (let i = 0; i < 200; i++) { junk.push(new Array(128 * 1024).fill(i)); if (junk.length > 40) junk = []; }
    junk = null;
    const beforeMb = process.memoryUsage().heapUsed / 2 ** 20;
    const first = ask();
    const afterMb = process.memoryUsage().heapUsed / 2 ** 20;
    const set = [...flags];
    const again = ask();
    process.stdout.write(JSON.stringify({ first, again, beforeMb, afterMb, flags: set }));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as Outcome;
};

/** Each phase: its function, the size from which it acts, what it is told, and whether it collects the garbage made so far. */
const PHASES = [
  { phase: 'plan', name: 'settleHeapForPlanning', bound: 'SETTLE_AT_NEW_OBJECTS', before: 'planning many new objects, once per process', collects: true },
  { phase: 'calls', name: 'boundHeapForCalls', bound: 'BOUND_AT_CALLS', before: 'a long run of calls, once per plan', collects: false },
] as const;

describe.each(PHASES)('$name', ({ phase, bound, before, collects }) => {
  it('leaves a plan below the bound alone', async () => {
    const heap = await import('../../src/core/heap.js');
    const below = run(phase, heap[bound] - 1);
    expect(below.first).toBe(false);
    expect(below.flags).toEqual([]);
  });

  it(`acts once before ${before}: ${collects ? 'collects the garbage made so far' : 'leaves the collection to V8 (no pause of its own)'}`, async () => {
    const heap = await import('../../src/core/heap.js');
    const { first, again, beforeMb, afterMb } = run(phase, heap[bound]);
    expect(first).toBe(true);
    expect(again).toBe(false);
    expect(beforeMb).toBeGreaterThan(20);
    // A collection frees most of the 200 MB of garbage; without one, the figure hardly moves.
    expect(afterMb < beforeMb / 2).toBe(collects);
  });
});

describe('boundHeapForCalls', () => {
  it('bounds the growth and collects the young generation on the main thread alone from then on', async () => {
    const heap = await import('../../src/core/heap.js');
    const { flags } = run('calls', heap.BOUND_AT_CALLS);
    expect(flags).toEqual([`--heap-growing-percent=${heap.CALLS_GROWING_PERCENT}`, heap.CALLS_SCAVENGE_FLAG]);
    expect(heap.CALLS_SCAVENGE_FLAG).toBe('--no-parallel-scavenge');
  });
});

/**
 * Full collections while 300 MB are kept bit by bit amid as much garbage, as while a long list is read, in a
 * process whose heap starts growing by a tenth only (V8's own estimate sometimes settles there): after
 * `configureHeap`, or left as it is (the control).
 */
const majorCollections = (configured: boolean, calls = false): number => {
  const module = pathToFileURL(join(REPO, 'dist', 'core', 'heap.js')).href;
  const script = `
    import { PerformanceObserver, constants } from 'node:perf_hooks';
    const { configureHeap, boundHeapForCalls, BOUND_AT_CALLS } = await import(${JSON.stringify(module)});
    if (${JSON.stringify(configured)}) configureHeap();
    if (${JSON.stringify(calls)}) boundHeapForCalls(new Array(BOUND_AT_CALLS).fill(0));
    let majors = 0;
    const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++; });
    observer.observe({ entryTypes: ['gc'] });
    const kept = [];
    for (let i = 0; i < 300 * 16; i++) {
      kept.push(new Array(8 * 1024).fill(i)); // 64 KB kept
      new Array(8 * 1024).fill(i); // 64 KB of garbage
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    observer.disconnect();
    process.stdout.write(JSON.stringify({ majors, kept: kept.length }));
  `;
  const out = execFileSync(process.execPath, ['--heap-growing-percent=10', '--input-type=module', '-e', script], { encoding: 'utf8' });
  return (JSON.parse(out) as { majors: number }).majors;
};

describe('configureHeap', () => {
  it('makes a steadily growing heap double between full collections: a few of them, not one per tenth of growth', () => {
    const configured = majorCollections(true);
    const control = majorCollections(false);
    // From a few MB to 300 MB by doubling is a handful of collections; by a tenth, about twice as many.
    expect(configured).toBeLessThanOrEqual(5);
    expect(control).toBeGreaterThanOrEqual(configured + 4);
  });

  it('after boundHeapForCalls, grows the same heap by a quarter at a time: more full collections than doubling', () => {
    const doubling = majorCollections(true);
    const bounded = majorCollections(true, true);
    expect(bounded).toBeGreaterThan(doubling);
  });
});
