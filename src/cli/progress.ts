/**
 * Progress of long commands (plan, apply, drift, export) on stderr (README.md
 * "Progress"): the phase, units done of the total when known, and the time since the
 * start. Never on stdout, and off with `--quiet`.
 *
 * - On a terminal (stderr is a TTY): one line, redrawn in place (`\r`, erase line) on
 *   every change (at most every {@link REDRAW_MS}) and every second for the clock; erased
 *   before anything else is written and when the run ends.
 * - Piped: one line per phase, and one every {@link PIPED_INTERVAL_MS} while a phase lasts.
 *
 * The first phase is reported at once, before any file is read or any gateway contacted.
 */
import type { ProgressReporter } from '../engine/progress.js';
import type { CliIO, TextSink } from './io.js';

/** Interval of the progress lines of a piped run, in milliseconds. */
export const PIPED_INTERVAL_MS = 10_000;
/** Shortest interval between two redraws on a terminal, in milliseconds. */
export const REDRAW_MS = 100;
/** Interval of the clock's redraw on a terminal, in milliseconds. */
const TICK_MS = 1_000;

/** Erases the current terminal line and returns to its start. */
const ERASE = '\r\x1b[K';

/** Time and timers, injectable for tests. */
export interface ProgressClock {
  /** Milliseconds, monotonic. */
  now(): number;
  /** Calls `fn` every `ms` milliseconds until the returned function is called; never keeps the process alive. */
  every(ms: number, fn: () => void): () => void;
}

const systemClock: ProgressClock = {
  now: () => performance.now(),
  every: (ms, fn) => {
    const timer = setInterval(fn, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

/** `12.3 s` below a minute, `2 min 05 s` above. */
export function elapsedText(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
}

/** A progress reporter that also erases its line before other output and stops at the end. */
export interface CliProgress extends ProgressReporter {
  /** Erases the line on a terminal (before a question or other output) and pauses its clock; the next change redraws it. */
  clear(): void;
  /** Erases the line and stops the timers. Idempotent. */
  stop(): void;
}

/** Options of {@link cliProgress}. */
export interface ProgressOptions {
  /** Where the lines go (stderr). */
  readonly sink: TextSink;
  /** Redraw in place (stderr is a terminal) or write whole lines (piped). */
  readonly terminal: boolean;
  /** The command, as the prefix of each line: `plan`. */
  readonly command: string;
  readonly clock?: ProgressClock | undefined;
}

/** The line of the current state: `plan: executing 120/4001 (12.3 s)`. */
function line(command: string, phase: string, done: number | undefined, total: number | undefined, elapsedMs: number): string {
  const count = total !== undefined ? ` ${done ?? 0}/${total}` : '';
  return `${command}: ${phase}${count} (${elapsedText(elapsedMs)})`;
}

/** A reporter that draws progress as the module comment describes. */
export function cliProgress(options: ProgressOptions): CliProgress {
  const clock = options.clock ?? systemClock;
  const start = clock.now();
  let phase: string | undefined;
  let total: number | undefined;
  let done: number | undefined;
  let drawn = false;
  let lastDraw = -Infinity;
  let stopped = false;
  let cancel: (() => void) | undefined;

  const text = (): string => line(options.command, phase ?? '', done, total, clock.now() - start);
  const draw = (): void => {
    if (stopped || phase === undefined) return;
    lastDraw = clock.now();
    if (options.terminal) {
      options.sink.write(`${ERASE}${text()}`);
      drawn = true;
    } else {
      options.sink.write(`${text()}\n`);
    }
  };
  const erase = (): void => {
    if (drawn) options.sink.write(ERASE);
    drawn = false;
  };
  const restart = (): void => {
    cancel?.();
    cancel = clock.every(options.terminal ? TICK_MS : PIPED_INTERVAL_MS, draw);
  };
  // On a terminal, other output (the plan, a question) pauses the clock until the next change.
  const pause = (): void => {
    erase();
    if (!options.terminal) return;
    cancel?.();
    cancel = undefined;
  };

  return {
    phase(name, count) {
      if (stopped) return;
      phase = name;
      total = count;
      done = count !== undefined ? 0 : undefined;
      draw();
      restart();
    },
    update(count) {
      if (stopped) return;
      done = count;
      // Piped, counts show in the periodic line only; on a terminal, at most every REDRAW_MS.
      if (!options.terminal) return;
      if (cancel === undefined) restart();
      if (clock.now() - lastDraw >= REDRAW_MS) draw();
    },
    clear: pause,
    stop() {
      if (stopped) return;
      erase();
      stopped = true;
      cancel?.();
    },
  };
}

/**
 * The progress of one command run through `io`, and `io` with its writes made to erase the
 * progress line first (so the plan, a warning or a question never shares a line with it).
 * Progress is off (`undefined`) with `quiet`, and when `io` is not a real process's
 * output (`io.progress` unset: tests and the demo).
 */
export function progressFor(io: CliIO, command: string, quiet: boolean | undefined): { progress: CliProgress | undefined; io: CliIO } {
  if (quiet === true || io.progress !== true) return { progress: undefined, io };
  const progress = cliProgress({ sink: io.stderr, terminal: io.stderrIsTTY === true, command });
  const through = (sink: TextSink): TextSink => ({
    write: (text: string) => {
      progress.clear();
      return sink.write(text);
    },
  });
  return { progress, io: { ...io, stdout: through(io.stdout), stderr: through(io.stderr) } };
}

/**
 * Runs `run` with the progress of `command` (see {@link progressFor}) and stops it when
 * `run` settles, so the line never outlives the command.
 */
export async function withProgress<T>(
  io: CliIO,
  command: string,
  quiet: boolean | undefined,
  run: (io: CliIO, progress: CliProgress | undefined) => Promise<T>,
): Promise<T> {
  const { progress, io: through } = progressFor(io, command, quiet);
  try {
    return await run(through, progress);
  } finally {
    progress?.stop();
  }
}
