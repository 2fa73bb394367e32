/**
 * The heap's growth in a gwops process (src/heap.ts), checked in a node process of its own
 * (it changes V8 flags): a plan below each bound changes nothing; a large one collects the
 * garbage at once, so what is kept is what is live, and only once.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO } from './e2e/harness.js';

interface Outcome {
  readonly first: boolean;
  readonly again: boolean;
  readonly beforeMb: number;
  readonly afterMb: number;
}

/** Makes 200 MB of garbage, then asks `settleHeapForCalls` (a plan of `size` calls) or `boundHeapForPlanning` (`size` new objects), twice. */
const run = (phase: 'settle' | 'bound', size: number): Outcome => {
  const module = pathToFileURL(join(REPO, 'dist', 'heap.js')).href;
  const script = `
    const { settleHeapForCalls, boundHeapForPlanning } = await import(${JSON.stringify(module)});
    const calls = new Array(${size}).fill(0);
    const ask = () => (${JSON.stringify(phase)} === 'settle' ? settleHeapForCalls(calls) : boundHeapForPlanning(${size}));
    // 200 MB of garbage: arrays no one holds.
    let junk = [];
    for (let i = 0; i < 200; i++) { junk.push(new Array(128 * 1024).fill(i)); if (junk.length > 4) junk = []; }
    const beforeMb = process.memoryUsage().heapUsed / 2 ** 20;
    const first = ask();
    const afterMb = process.memoryUsage().heapUsed / 2 ** 20;
    const again = ask();
    process.stdout.write(JSON.stringify({ first, again, beforeMb, afterMb }));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as Outcome;
};

/** Each phase: its function, the size from which it acts, and what it is told. */
const PHASES = [
  { phase: 'settle', name: 'settleHeapForCalls', bound: 'SETTLE_AT_CALLS', before: 'a long run of calls, once per plan' },
  { phase: 'bound', name: 'boundHeapForPlanning', bound: 'BOUND_AT_NEW_OBJECTS', before: 'planning many new objects, once per process' },
] as const;

describe.each(PHASES)('$name', ({ phase, bound, before }) => {
  it('leaves a plan below the bound alone', async () => {
    const heap = await import('../src/heap.js');
    expect(run(phase, heap[bound] - 1).first).toBe(false);
  });

  it(`collects the garbage made so far before ${before}`, async () => {
    const heap = await import('../src/heap.js');
    const { first, again, beforeMb, afterMb } = run(phase, heap[bound]);
    expect(first).toBe(true);
    expect(again).toBe(false);
    expect(beforeMb).toBeGreaterThan(20);
    expect(afterMb).toBeLessThan(beforeMb / 2);
  });
});
