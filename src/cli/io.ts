import type { Command } from 'commander';
import { safeOutput } from '../core/display.js';
import { SecretRedactor } from '../core/secrets.js';
import { colorEnabled } from './color.js';

/**
 * What a command may touch of the outside world, injected so tests capture output
 * without patching globals.
 */
export interface TextSink {
  write(text: string): unknown;
}

export interface CliIO {
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  /** Environment variables (never printed: they may hold API keys). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Working directory that relative paths resolve against. */
  readonly cwd: string;
  /** True when stdout is an interactive terminal (colours, progress). */
  readonly isTTY: boolean;
  /**
   * True when standard input and standard error are both terminals: only then can a
   * question be asked (it is written to stderr, so stdout stays data) and answered.
   */
  readonly canPrompt?: boolean | undefined;
  /** True when standard error is an interactive terminal (progress updated in place, src/cli/progress.ts). */
  readonly stderrIsTTY?: boolean | undefined;
  /**
   * True when long commands may report progress on stderr (src/cli/progress.ts): the real
   * process's IO sets it; embedded runs (tests, the demo) leave it unset.
   */
  readonly progress?: boolean | undefined;
  /** `--no-color` was given (src/cli/color.ts decides colours). */
  readonly noColor?: boolean | undefined;
  /** Standard input, for `-` paths and prompts. */
  readonly stdin: NodeJS.ReadableStream;
  /**
   * The run's secret registry. {@link redactingIO} (applied by `main`) sets it and passes
   * every write to `stdout` and `stderr` through it; commands register the secrets they
   * learn into it. A plan file is written as is: it holds no secret, only their sources.
   */
  readonly secrets?: SecretRedactor | undefined;
  /** The clock (`drift.ignore` expiry); the system clock when absent. Tests inject one. */
  readonly now?: (() => Date) | undefined;
}

/**
 * `io` with `stdout` and `stderr` redacted by `secrets` (a new registry when absent) and
 * made safe to show: every write goes through {@link SecretRedactor.redact}, so a secret
 * registered at any point of the run, and any PEM private key block, never reaches either
 * stream; then through `safeOutput` (src/core/display.ts), so no control, zero-width or bidi
 * character from a name or a message reaches it raw (colours and the progress line pass
 * where the stream is a terminal or colours are on). A secret split across two writes is
 * not recognised; gwops writes whole rendered texts, or chunks that never split a JSON value
 * (src/render/json-chunks.ts).
 */
export function redactingIO(io: CliIO, secrets: SecretRedactor = io.secrets ?? new SecretRedactor()): CliIO {
  const colors = colorEnabled(io);
  const through = (sink: TextSink, terminal: boolean): TextSink => ({ write: (text: string) => sink.write(safeOutput(secrets.redact(String(text)), terminal)) });
  return { ...io, stdout: through(io.stdout, colors || io.isTTY), stderr: through(io.stderr, colors || io.stderrIsTTY === true), secrets };
}

/** `text` redacted with the run's registry (private key blocks only when there is none). */
export function redactText(io: CliIO, text: string): string {
  return (io.secrets ?? new SecretRedactor()).redact(text);
}

/** The real process's IO. */
export function processIO(): CliIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    isTTY: process.stdout.isTTY === true,
    canPrompt: process.stdin.isTTY === true && process.stderr.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    progress: true,
    stdin: process.stdin,
  };
}

/** Registers one command on the program; the action returns the process exit code. */
export type CommandModule = (program: Command, io: CliIO, done: (exitCode: number) => void) => void;
