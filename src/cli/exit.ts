import { CommanderError } from 'commander';
import { GwopsError } from '../errors.js';
import type { CliIO } from './io.js';

/** Exit codes, documented in `gwops --help` and README.md. */
export const EXIT = {
  ok: 0,
  error: 1,
  changes: 2,
  validatorErrors: 3,
} as const;

export const EXIT_CODES_HELP = `
Exit codes:
  0  success, no changes
  1  error (invalid input, connection or API failure)
  2  changes present (plan --detailed-exitcode, drift)
  3  the gateway's validator found errors (nothing activated)`;

/**
 * Maps any thrown value to an exit code and prints it: the single place where errors
 * become exit codes.
 */
export function exitCodeFor(error: unknown, io: CliIO): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) {
      return EXIT.ok;
    }
    return EXIT.error;
  }
  if (error instanceof GwopsError) {
    io.stderr.write(`Error: ${error.message}\n`);
    return error.exitCode;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  io.stderr.write(`Internal error: ${detail}\n`);
  return EXIT.error;
}
