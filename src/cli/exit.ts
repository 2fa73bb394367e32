import { CommanderError } from 'commander';
import { GwopsError } from '../errors.js';
import { SIGNAL_EXIT_CODES } from '../interrupts.js';
import type { CliIO } from './io.js';

/** Exit codes, documented in `gwops --help` and README.md. */
export const EXIT = {
  ok: 0,
  error: 1,
  changes: 2,
  validatorErrors: 3,
  /** A closed terminal (SIGHUP), Ctrl+C (SIGINT), SIGTERM: 128 + the signal's number. */
  sighup: SIGNAL_EXIT_CODES.SIGHUP,
  sigint: SIGNAL_EXIT_CODES.SIGINT,
  sigterm: SIGNAL_EXIT_CODES.SIGTERM,
} as const;

export const EXIT_CODES_HELP = `
Exit codes:
  0    success, no changes
  1    error (invalid input, connection or API failure, apply cancelled or not approved)
  2    changes present (plan --detailed-exitcode, drift)
  3    the gateway's validator found errors (nothing activated)
  129  interrupted by SIGHUP (a closed terminal)
  130  interrupted by SIGINT (Ctrl+C)
  143  interrupted by SIGTERM
       On 129/130/143 the REST session is terminated; the message says whether an
       activation already sent completed, or that its outcome is unknown.

Environment: GWOPS_DEBUG=1 (or --debug) prints stack traces of unexpected errors.`;

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
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) {
      return EXIT.ok;
    }
    return EXIT.error;
  }
  if (error instanceof GwopsError) {
    io.stderr.write(`Error: ${error.message}\n`);
    if (debug && error.stack) io.stderr.write(`${error.stack}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (debug) {
    io.stderr.write(`Internal error: ${error instanceof Error ? (error.stack ?? message) : message}\n`);
  } else {
    io.stderr.write(`Internal error: ${message.split('\n')[0] ?? ''} (run with --debug or GWOPS_DEBUG=1 for the stack trace)\n`);
  }
  return EXIT.error;
}
