/**
 * Typed errors. Each class carries the exit code it maps to; the mapping to process exit
 * codes happens in one place (`src/cli/exit.ts`). Never branch on message text.
 *
 * Exit codes: 0 success / no changes, 1 error, 2 changes present (plan with
 * `--detailed-exitcode`, drift), 3 the gateway's validator found errors.
 */
export class GwopsError extends Error {
  /** Process exit code this error maps to. */
  readonly exitCode: number = 1;
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
