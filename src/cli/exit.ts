import { CommanderError } from 'commander';
import { messageText } from '../display.js';
import { GwopsError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { CliIO } from './io.js';

const code = (value: number): string => String(value).padEnd(5);
const signals = `${EXIT.sighup}/${EXIT.sigint}/${EXIT.sigterm}`;

export const EXIT_CODES_HELP = `
Exit codes:
  ${code(EXIT.ok)}success, no changes
  ${code(EXIT.error)}error (invalid input, connection or API failure, apply cancelled or not approved)
  ${code(EXIT.changes)}changes present (plan --detailed-exitcode, drift)
  ${code(EXIT.validatorErrors)}the gateway's validator found errors (nothing activated)
  ${code(EXIT.sighup)}interrupted by SIGHUP (a closed terminal)
  ${code(EXIT.sigint)}interrupted by SIGINT (Ctrl+C)
  ${code(EXIT.sigterm)}interrupted by SIGTERM
       On ${signals} the REST session is terminated; the message says whether an
       activation already sent completed, or that its outcome is unknown.

Environment: GWOPS_DEBUG=1 (or --debug) prints stack traces of unexpected errors;
NO_COLOR=1 (or --no-color) turns colours off, FORCE_COLOR=1 turns them on when piped.`;

/** True when stack traces are wanted: `--debug` on the command line or `GWOPS_DEBUG=1`. */
export function debugEnabled(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): boolean {
  const flag = env.GWOPS_DEBUG;
  return argv.includes('--debug') || (flag !== undefined && flag !== '' && flag !== '0' && flag !== 'false');
}

/**
 * Maps any thrown value to an exit code and prints it on stderr in one line: the single
 * place where errors become exit codes. A stack trace is printed only when `debug`.
 */
export function exitCodeFor(error: unknown, io: CliIO, debug = false): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === EXIT.ok) {
      return EXIT.ok;
    }
    return EXIT.error;
  }
  if (error instanceof GwopsError) {
    io.stderr.write(`Error: ${messageText(error.message)}\n`);
    if (debug && error.stack) io.stderr.write(`${error.stack}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (debug) {
    io.stderr.write(`Internal error: ${error instanceof Error ? (error.stack ?? message) : message}\n`);
  } else {
    io.stderr.write(`Internal error: ${messageText(message.split('\n')[0] ?? '')} (run with --debug or GWOPS_DEBUG=1 for the stack trace)\n`);
  }
  return EXIT.error;
}
