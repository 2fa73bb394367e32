/**
 * What each command's `--help` shows after its options: one or two examples and exactly
 * the exit codes that command can return, each with what it means for that command. Each
 * command declares its {@link CommandHelp} once, beside its registration
 * (src/cli/commands/<command>/command.ts); the help renders it, and `docs/cli-reference.md` is made from
 * the help (tools/docs/cli-reference.ts, `npm run docs`). The codes are those of the one
 * table, src/core/exit-codes.ts; test/e2e/exit-codes.test.ts reaches every code a command lists,
 * and the end-to-end harness refuses any other code from it.
 */
import type { Command } from 'commander';
import type { ExitCode } from '../core/exit-codes.js';
import { EXIT } from '../core/exit-codes.js';

/** One example of a command line and what it does. */
export interface HelpExample {
  /** The command line as typed, starting with `gwops`. */
  readonly run: string;
  /** What it does, in a few words. */
  readonly does: string;
}

/** An exit code a command can return, and what it means for that command. */
export type ExitCodeMeaning = readonly [code: ExitCode, meaning: string];

/** The help data of one command. */
export interface CommandHelp {
  /** One or two examples. */
  readonly examples: readonly [HelpExample] | readonly [HelpExample, HelpExample];
  /** Every exit code the command can return, in ascending order, and nothing else. */
  readonly exitCodes: readonly ExitCodeMeaning[];
}

/**
 * The codes of a command that can wait (for a gateway, for standard input, for files to be
 * written): a signal ends it with 128 + the signal's number (src/core/interrupts.ts). With a
 * REST session open, the session is terminated first (README "Exit codes").
 */
export const INTERRUPTED: readonly ExitCodeMeaning[] = [
  [EXIT.sighup, 'interrupted by SIGHUP (a closed terminal)'],
  [EXIT.sigint, 'interrupted by SIGINT (Ctrl+C)'],
  [EXIT.sigterm, 'interrupted by SIGTERM'],
];

/** The text after a command's options: its examples, then its exit codes. */
export function helpText(help: CommandHelp): string {
  const examples = help.examples.map((e) => `  $ ${e.run}\n      ${e.does}`);
  const codes = help.exitCodes.map(([code, meaning]) => `  ${String(code).padEnd(5)}${meaning}`);
  return `\nExamples:\n${examples.join('\n')}\n\nExit codes:\n${codes.join('\n')}`;
}

/**
 * Adds `help` to `command`'s `--help` (after the options).
 * @returns `command`, for chaining
 */
export function withHelp(command: Command, help: CommandHelp): Command {
  return command.addHelpText('after', helpText(help));
}
