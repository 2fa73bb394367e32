/**
 * Typed errors and exit codes. Each class carries the exit code it maps to, taken from
 * {@link EXIT} (src/exit-codes.ts, the one table of exit codes, re-exported here); the
 * mapping to process exit codes happens in one place (`src/cli/exit.ts`). Never branch on
 * message text.
 *
 * Where the error classes live: the general ones here, the gateway client's in
 * src/gateway/errors.ts, the reconciler's (plan, apply, drift) in src/engine/errors.ts.
 */
import { EXIT } from './exit-codes.js';

export { EXIT, SIGNAL_EXIT } from './exit-codes.js';
export type { ExitCode } from './exit-codes.js';

export class GwopsError extends Error {
  /** Process exit code this error maps to (one of {@link EXIT}). */
  readonly exitCode: number = EXIT.error;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Invalid command-line usage (unknown option values, missing arguments). */
export class UsageError extends GwopsError {}

/** Invalid input files: manifests, project file, plan file. Nothing was sent to a gateway. */
export class InputError extends GwopsError {}

/** A configuration problem of the tool itself (missing API key, refused plain HTTP, bad CA file). */
export class ConfigError extends GwopsError {}
