/**
 * A crash in the middle of writing the state file (the file is written atomically, so a
 * crash mid-write never corrupts it), simulated by making the file system fail half-way
 * through the write, or just before the temp file is renamed over the state file. The
 * previous state must survive on disk, memory must agree with it, and a restart must load it.
 *
 * The simulation wraps `node:fs` for this file only; `crash.triggered` proves that the
 * emulator's write went through the wrapped functions (if the write path moves to another
 * API, the check says so instead of passing vacuously).
 */
import type * as Fs from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { at, startHarness, VALID } from './client.js';
import type { Harness } from './client.js';

type CrashMode = 'none' | 'mid-write' | 'before-rename';
const crash = vi.hoisted((): { mode: CrashMode; triggered: number } => ({ mode: 'none', triggered: 0 }));

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof Fs>();
  const realWrite = real.writeSync as (...args: unknown[]) => number;
  const wrapped = {
    ...real,
    writeSync: (fd: number, data: unknown, ...rest: unknown[]): number => {
      if (crash.mode === 'mid-write' && typeof data === 'string' && data.length > 10) {
        crash.triggered += 1;
        realWrite(fd, data.slice(0, Math.floor(data.length / 2)));
        throw new Error('simulated crash in the middle of the write');
      }
      return realWrite(fd, data, ...rest);
    },
    renameSync: (from: Fs.PathLike, to: Fs.PathLike): void => {
      if (crash.mode === 'before-rename') {
        crash.triggered += 1;
        throw new Error('simulated crash before the rename');
      }
      real.renameSync(from, to);
    },
  };
  return { ...wrapped, default: wrapped };
});

describe('a crash while writing the state file', () => {
  let dir: string;
  let stateFile: string;
  let h: Harness | undefined;
  beforeEach(async () => {
    crash.mode = 'none';
    crash.triggered = 0;
    dir = await mkdtemp(join(tmpdir(), 'gwops-crash-'));
    stateFile = join(dir, 'state.json');
  });
  afterEach(async () => {
    crash.mode = 'none';
    await h?.close();
    h = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  async function activate(name: string, comment: string): Promise<number> {
    if (h === undefined) throw new Error('no emulator');
    const c = await h.client().open(h.emulator.apiKey);
    await c.create('back-end-group', VALID.backEndGroup(name));
    return (await c.activate(comment)).status;
  }

  it.each(['mid-write', 'before-rename'] as const)('%s: the previous state survives on disk and in memory, and a restart loads it', async (mode) => {
    h = await startHarness({ stateFile });
    expect(await activate('before', 'good state')).toBe(200);
    const good = await readFile(stateFile, 'utf8');
    const snapshot = JSON.stringify(h.emulator.activeSnapshot());

    crash.mode = mode;
    const status = await activate('during', 'never written');
    crash.mode = 'none';
    expect(crash.triggered, 'the simulated crash did not hit the state file write').toBeGreaterThan(0);
    expect(status).toBeGreaterThanOrEqual(500);
    // the file is the previous one, whole
    expect(await readFile(stateFile, 'utf8')).toBe(good);
    // memory agrees with the file: the failed activation did not become active
    expect(JSON.stringify(h.emulator.activeSnapshot())).toBe(snapshot);

    await h.close();
    h = undefined;
    h = await startHarness({ stateFile });
    expect(at(h.emulator.activeSnapshot(), 'comment')).toBe('good state');
    const c = await h.client().open(h.emulator.apiKey);
    expect((await c.list('back-end-group')).map((g) => g.attributes.name)).toEqual(['before']);
    // and the next write works
    expect(await activate('after', 'written again')).toBe(200);
    const text = await readFile(stateFile, 'utf8');
    expect(() => JSON.parse(text) as unknown).not.toThrow();
    expect(text).toContain('written again');
  });
});
