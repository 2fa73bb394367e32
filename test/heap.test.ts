/**
 * The heap's growth in a gwops process (src/heap.ts), checked in a node process of its own
 * (it changes V8 flags): a plan of fewer calls than the bound changes nothing; a large one
 * collects the garbage at once, so what is kept is what is live.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO } from './e2e/harness.js';

const run = (calls: number): { settled: boolean; beforeMb: number; afterMb: number } => {
  const module = pathToFileURL(join(REPO, 'dist', 'heap.js')).href;
  const script = `
    const { settleHeapForCalls, configureHeap } = await import(${JSON.stringify(module)});
    configureHeap();
    // 200 MB of garbage: arrays no one holds.
    let junk = [];
    for (let i = 0; i < 200; i++) { junk.push(new Array(128 * 1024).fill(i)); if (junk.length > 4) junk = []; }
    const beforeMb = process.memoryUsage().heapUsed / 2 ** 20;
    const settled = settleHeapForCalls(new Array(${calls}).fill(0));
    const afterMb = process.memoryUsage().heapUsed / 2 ** 20;
    process.stdout.write(JSON.stringify({ settled, beforeMb, afterMb }));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as { settled: boolean; beforeMb: number; afterMb: number };
};

describe('settleHeapForCalls', () => {
  it('leaves a plan of fewer calls than the bound alone', async () => {
    const { SETTLE_AT_CALLS } = await import('../src/heap.js');
    expect(run(SETTLE_AT_CALLS - 1).settled).toBe(false);
  });

  it('collects the garbage of planning before a long run of calls', async () => {
    const { SETTLE_AT_CALLS } = await import('../src/heap.js');
    const { settled, beforeMb, afterMb } = run(SETTLE_AT_CALLS);
    expect(settled).toBe(true);
    expect(beforeMb).toBeGreaterThan(20);
    expect(afterMb).toBeLessThan(beforeMb / 2);
  });
});
