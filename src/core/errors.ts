/**
 * Typed errors and exit codes. Each class carries the exit code it maps to, taken from
 * {@link EXIT} (src/core/exit-codes.ts, the one table of exit codes); the
 * mapping to process exit codes happens in one place (`src/cli/exit.ts`). Never branch on
 * message text.
 *
 * Where the error classes live, one module per layer (every import names the defining
 * module; nothing re-exports them): the general ones here (the base class, usage, input,
 * configuration, file reads), the gateway client's in src/gateway/errors.ts, the
 * reconciler's (plan, apply, drift, rollback) in src/engine/errors.ts.
 */
import type { Diagnostic, Diagnostics } from './diagnostics.js';
import { EXIT, SIGNAL_EXIT } from './exit-codes.js';
import type { InterruptSignal } from './interrupts.js';

export class GwopsError extends Error {
  /** Process exit code this error maps to (one of {@link EXIT}). */
  readonly exitCode: number = EXIT.error;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * The base of every error that carries located problems as diagnostics
 * (src/core/diagnostics.ts): the CLI prints `diagnostics` with the one diagnostics formatter
 * before the error's one-line message. `diagnostics` holds every diagnostic of the stage
 * that failed (warnings included), sorted as given.
 */
export class DiagnosticsError extends GwopsError {
  readonly diagnostics: readonly Diagnostic[];
  constructor(message: string, diagnostics: readonly Diagnostic[] | Diagnostics, options?: ErrorOptions) {
    super(message, options);
    this.diagnostics = Array.isArray(diagnostics) ? diagnostics : (diagnostics as Diagnostics).all();
  }
}

/** True for an error that carries {@link Diagnostic}s to print before its message. */
export function isDiagnosticsError(error: unknown): error is DiagnosticsError {
  return error instanceof DiagnosticsError;
}

/** Invalid command-line usage (unknown option values, missing arguments). */
export class UsageError extends GwopsError {}

/** Invalid input files: manifests, project file, plan file. Nothing was sent to a gateway. */
export class InputError extends GwopsError {}

/** A configuration problem of the tool itself (missing API key, refused plain HTTP, bad CA file). */
export class ConfigError extends GwopsError {}

/** Why a file was not read, for code that words its own message. */
export type FileProblemKind = 'missing' | 'not-regular' | 'too-large' | 'unreadable';

/**
 * A file that could not be read. `problem` is a short phrase ("it is a FIFO, not a regular
 * file", "it holds more than 1 MiB", "no such file or directory (ENOENT)") for the caller's one-line
 * message, which names the option or attribute the path came from; `message` is
 * "cannot read '<file>': <problem>".
 */
export class FileReadError extends GwopsError {
  constructor(
    readonly file: string,
    readonly kind: FileProblemKind,
    readonly problem: string,
    options?: ErrorOptions,
  ) {
    super(`cannot read '${file}': ${problem}`, options);
  }
}

/**
 * A signal came while gwops wrote files (src/core/staged-files.ts). `discarded`: nothing was
 * written or removed, the files are the old ones; `complete`: the signal came while the new
 * files were being put in place, which was finished first. Exit code 129, 130 or 143.
 */
export class WriteInterruptedError extends GwopsError {
  override readonly exitCode: number;
  constructor(
    readonly signal: InterruptSignal,
    readonly outcome: 'discarded' | 'complete',
    /** What was being written, e.g. `the export into out/`. */
    what = 'the files',
  ) {
    super(
      outcome === 'discarded'
        ? `interrupted by ${signal} while writing ${what}: nothing was written or removed, the files there are the ones from before`
        : `interrupted by ${signal} while putting ${what} in place: that was finished first, every file was written`,
    );
    this.exitCode = SIGNAL_EXIT[signal];
  }
}
