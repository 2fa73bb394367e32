import type { Command } from 'commander';

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
  /** True when stdout is an interactive terminal (colours, prompts, progress). */
  readonly isTTY: boolean;
  /** Standard input, for `-` paths and prompts. */
  readonly stdin: NodeJS.ReadableStream;
}

/** The real process's IO. */
export function processIO(): CliIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    isTTY: process.stdout.isTTY === true,
    stdin: process.stdin,
  };
}

/** Registers one command on the program; the action returns the process exit code. */
export type CommandModule = (program: Command, io: CliIO, done: (exitCode: number) => void) => void;
