/**
 * The process exit codes of gwops, in one table that every layer may import (errors carry
 * them, `src/cli/exit.ts` returns them, the signal hub exits with them). Nothing else in
 * src/ writes an exit code as a number. This module imports nothing, so the signal hub
 * (src/core/interrupts.ts), which is installed before anything else is loaded, can use it at
 * no cost. Documented in `gwops --help` (`EXIT_CODES_HELP`) and README.md; each command's
 * help lists the ones it can return (src/cli/help.ts).
 */
export const EXIT = {
  /** Success; no changes. */
  ok: 0,
  /** An error: invalid input, connection or API failure, apply cancelled or not approved. */
  error: 1,
  /** Changes present (`plan --detailed-exitcode`, `drift`). */
  changes: 2,
  /** The gateway's validator found errors; nothing was activated. */
  validatorErrors: 3,
  /** Interrupted by SIGHUP (a closed terminal): 128 + the signal's number. */
  sighup: 129,
  /** Interrupted by SIGINT (Ctrl+C): 128 + the signal's number. */
  sigint: 130,
  /** Interrupted by SIGTERM: 128 + the signal's number. */
  sigterm: 143,
} as const;

/** One of the exit codes of {@link EXIT}. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The exit code after each signal gwops handles (src/core/interrupts.ts). */
export const SIGNAL_EXIT = { SIGHUP: EXIT.sighup, SIGINT: EXIT.sigint, SIGTERM: EXIT.sigterm } as const;
