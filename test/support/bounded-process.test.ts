/**
 * The watchdog of test/support/bounded-process.ts: it kills a process that spins past its
 * CPU budget or stalls, and lets one that works end by itself; the peak memory it reports
 * is the child's own, whatever the size of the process that started it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBounded } from './bounded-process.js';

const MIB = 1024 * 1024;

const module = (code: string): string => `data:text/javascript,${encodeURIComponent(code)}`;

describe('runBounded', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gwops-bounded-test-'));
    await writeFile(join(dir, 'm.yaml'), 'apiVersion: gwops/v1\nkind: back-end-group\nname: pool\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: app.internal, port: 8080 }]\n');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('kills a process that spins past its CPU budget, by CPU time', async () => {
    const run = await runBounded(['validate', 'm.yaml'], { cwd: dir, cpuMs: 500, imports: [module('for (;;) {}')] });
    expect(run.killed).toBe('cpu');
    expect(run.cpuMs).toBeGreaterThan(500);
  });

  it('kills a process that waits for what never comes, by samples without progress', async () => {
    const run = await runBounded(['validate', 'm.yaml'], { cwd: dir, idleSamples: 10, imports: [module('await new Promise((resolve) => setTimeout(resolve, 2 ** 31 - 1));')] });
    expect(run.killed).toBe('stalled');
    expect(run.cpuMs).toBeLessThan(30_000);
  });

  it('lets a process that works end by itself, and reports its peak memory', async () => {
    const run = await runBounded(['validate', 'm.yaml'], { cwd: dir });
    expect(run.killed).toBeUndefined();
    expect(run.code).toBe(0);
    expect(run.maxRssBytes).toBeGreaterThan(0);
  });
  it('reports the peak of the child itself, not the size of the process that started it', async () => {
    // Linux keeps the high-water mark of resident memory across exec: a child of a large
    // test worker used to report the worker's size. Hold 320 MiB (touched) while it runs.
    const held = Buffer.alloc(320 * MIB, 1);
    const run = await runBounded(['validate', 'm.yaml'], { cwd: dir });
    expect(held.length).toBe(320 * MIB);
    expect(run.code).toBe(0);
    expect(run.maxRssBytes).toBeLessThan(256 * MIB);
  });

  it('counts what the child itself grows to', async () => {
    const run = await runBounded(['validate', 'm.yaml'], { cwd: dir, imports: [module('globalThis.held = Buffer.alloc(300 * 1024 * 1024, 1);')] });
    expect(run.code).toBe(0);
    expect(run.maxRssBytes).toBeGreaterThan(300 * MIB);
  });
});
