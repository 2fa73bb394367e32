/**
 * The exit codes each command declares (src/cli/help.ts), read off its `--help` as a user
 * reads them: the lines of the "Exit codes:" section. The end-to-end harness checks every
 * run against them (test/e2e/harness.ts), and test/e2e/exit-codes.test.ts reaches each one.
 */
import { commandNames, helpExitCodes, programHelp } from '../../tools/docs/cli-reference.js';

/** The codes a help text lists under "Exit codes:", in their order (as docs/cli-reference.md reads them). */
export const listedExitCodes = helpExitCodes;

let commands: Promise<string[]> | undefined;
const declared = new Map<string, Promise<number[]>>();

/** The commands the program's help lists. */
export function helpCommands(): Promise<string[]> {
  commands ??= programHelp([]).then(commandNames);
  return commands;
}

/** The exit codes `gwops <command> --help` lists. */
export function declaredExitCodes(command: string): Promise<number[]> {
  let codes = declared.get(command);
  if (codes === undefined) {
    codes = programHelp([command]).then(listedExitCodes);
    declared.set(command, codes);
  }
  return codes;
}

/**
 * The runs whose exit code their command does not declare, as `gwops <command>: exit <code>`
 * (empty when every code is declared). A run whose first argument is not a command (an
 * option, an unknown word) is the program's, not a command's, and is left out.
 */
export async function undeclaredExitCodes(runs: readonly { readonly args: readonly string[]; readonly code: number }[]): Promise<string[]> {
  const known = await helpCommands();
  const out: string[] = [];
  for (const { args, code } of runs) {
    const command = args[0];
    if (command === undefined || !known.includes(command)) continue;
    if (!(await declaredExitCodes(command)).includes(code)) out.push(`gwops ${command}: exit ${code}`);
  }
  return out;
}
