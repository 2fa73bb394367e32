/**
 * Loading a large manifest set takes turns of the event loop, so that signal handlers
 * (SIGINT, SIGTERM: src/core/interrupts.ts) run within a second however long the checks are.
 * Measured with a timer, which waits for the event loop as a signal handler does: the
 * longest gap between its ticks stays far below the time the load takes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';

const FILES = 40;
const PER_FILE = 1500;

describe('a long load', () => {
  it('lets the event loop turn at least every few hundred milliseconds', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gwops-long-load-'));
    mkdirSync(join(dir, 'm'));
    for (let f = 0; f < FILES; f++) {
      const docs: string[] = [];
      for (let i = 0; i < PER_FILE; i++) docs.push(`apiVersion: gwops/v1\nkind: mapping\nname: m${f}-${i}\nattributes:\n  entryPath: { value: /m${f}-${i}/ }\n  backendPath: /\n`);
      writeFileSync(join(dir, 'm', `f${f}.yaml`), docs.join('---\n'));
    }
    let last = performance.now();
    let longest = 0;
    const tick = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 20);
    const started = performance.now();
    const result = await loadManifests({ paths: ['m'], cwd: dir, env: {}, resolveSecrets: false });
    const took = performance.now() - started;
    clearInterval(tick);
    longest = Math.max(longest, performance.now() - last);
    expect(result.documents).toHaveLength(FILES * PER_FILE);
    // A turn every 100 ms of work: the gaps stay short, whether the load takes half a second or five.
    expect(longest, `longest gap ${Math.round(longest)} ms of a ${Math.round(took)} ms load`).toBeLessThan(Math.min(700, Math.max(250, took / 2)));
  }, 120_000);
});
