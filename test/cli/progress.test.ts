/**
 * The progress reporter (src/cli/progress.ts) with an injected clock: piped, one line per
 * phase and one per interval while a phase lasts; on a terminal, one line redrawn in
 * place and erased before other output and at the end.
 */
import { describe, expect, it } from 'vitest';
import type { ProgressClock } from '../../src/cli/progress.js';
import { PIPED_INTERVAL_MS, cliProgress, elapsedText, progressFor } from '../../src/cli/progress.js';
import type { CliIO } from '../../src/cli/io.js';
import { Readable } from 'node:stream';

/** A clock whose time and timers the test moves. */
function fakeClock(): ProgressClock & { advance(ms: number): void } {
  let now = 0;
  const timers: { every: number; next: number; fn: () => void; live: boolean }[] = [];
  return {
    now: () => now,
    every(ms, fn) {
      const timer = { every: ms, next: now + ms, fn, live: true };
      timers.push(timer);
      return () => void (timer.live = false);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.live && t.next <= end).sort((a, b) => a.next - b.next)[0];
        if (!due) break;
        now = due.next;
        due.next += due.every;
        due.fn();
      }
      now = end;
    },
  };
}

describe('progress reporter', () => {
  it('piped: a line per phase at once, then one every interval with done/total and elapsed time', () => {
    let out = '';
    const clock = fakeClock();
    const progress = cliProgress({ sink: { write: (s: string) => (out += s) }, terminal: false, command: 'apply', clock });
    progress.phase('reading manifests');
    expect(out).toBe('apply: reading manifests (0.0 s)\n');
    clock.advance(300);
    progress.phase('executing', 4001);
    progress.update(10);
    expect(out.split('\n')).toHaveLength(3);
    clock.advance(PIPED_INTERVAL_MS);
    progress.update(1500);
    clock.advance(PIPED_INTERVAL_MS);
    progress.stop();
    clock.advance(3 * PIPED_INTERVAL_MS);
    expect(out).toBe(
      'apply: reading manifests (0.0 s)\napply: executing 0/4001 (0.3 s)\napply: executing 10/4001 (10.3 s)\napply: executing 1500/4001 (20.3 s)\n',
    );
  });

  it('terminal: redrawn in place, erased before other output and at the end, nothing after stop', () => {
    let out = '';
    const clock = fakeClock();
    const progress = cliProgress({ sink: { write: (s: string) => (out += s) }, terminal: true, command: 'plan', clock });
    progress.phase('executing', 3);
    clock.advance(200);
    progress.update(1);
    clock.advance(10);
    progress.update(2); // within the redraw interval: not drawn
    clock.advance(800);
    expect(out).toBe('\r\x1b[Kplan: executing 0/3 (0.0 s)\r\x1b[Kplan: executing 1/3 (0.2 s)\r\x1b[Kplan: executing 2/3 (1.0 s)');
    out = '';
    progress.clear();
    expect(out).toBe('\r\x1b[K');
    clock.advance(5_000);
    expect(out).toBe('\r\x1b[K');
    progress.stop();
    progress.phase('later');
    expect(out).toBe('\r\x1b[K');
  });

  it('elapsed time: tenths below a minute, minutes and seconds above', () => {
    expect(elapsedText(1234)).toBe('1.2 s');
    expect(elapsedText(125_000)).toBe('2 min 05 s');
  });

  it('is off with --quiet and for an IO that is not a real process (tests, the demo)', () => {
    const io: CliIO = { stdout: { write: () => true }, stderr: { write: () => true }, env: {}, cwd: '/', isTTY: false, stdin: Readable.from([]) };
    expect(progressFor(io, 'plan', false).progress).toBeUndefined();
    expect(progressFor({ ...io, progress: true }, 'plan', true).progress).toBeUndefined();
    expect(progressFor({ ...io, progress: true }, 'plan', false).progress).toBeDefined();
  });
});
