/**
 * `gwops validate [paths...]`: loads and checks manifests offline, prints every
 * diagnostic, exit 0 when there is no error (warnings allowed), 1 otherwise. No gateway is
 * contacted.
 */
import type { Variant } from '../../../kinds/index.js';
import { hasErrors, loadManifests } from '../../../manifest/index.js';
import type { DiagnosticFormat, LoadOptions } from '../../../manifest/index.js';
import { entriesInForce, expiredWarning } from '../../../manifest/drift-ignore.js';
import { EXIT } from '../../../exit-codes.js';
import type { CliIO } from '../../io.js';
import { validateView } from './view.js';

/** The project options that offline commands (validate, graph) share. */
export interface OfflineProjectOptions {
  variant?: Variant;
  target?: string;
  config?: string;
}

/** The loadManifests options of an offline command: its paths, the CLI's cwd, env and stdin, and the project options given. */
export function offlineLoadOptions(paths: readonly string[], options: OfflineProjectOptions, io: CliIO): LoadOptions {
  return {
    paths,
    cwd: io.cwd,
    env: io.env,
    stdin: io.stdin,
    ...(options.config !== undefined ? { configFile: options.config } : {}),
    ...(options.target !== undefined ? { target: options.target } : {}),
    ...(options.variant !== undefined ? { variant: options.variant } : {}),
  };
}

/** Options as commander parses them. */
export interface ValidateCommandOptions {
  format: DiagnosticFormat;
  variant?: Variant;
  target?: string;
  config?: string;
  /** Do not read `{ fromFile }` / `{ fromEnv }` secrets (CI jobs without them). */
  skipSecrets?: boolean;
  /** Accept paths that hold no manifest document (else exit 1 naming them). */
  allowEmpty?: boolean;
}

/**
 * Runs validate and writes its report to `io.stdout`.
 * @returns the exit code: 0 valid (warnings allowed), 1 any error
 * @throws InputError for unreadable paths or an invalid project file (mapped to exit 1 by the caller)
 */
export async function runValidate(paths: readonly string[], options: ValidateCommandOptions, io: CliIO): Promise<number> {
  const result = await loadManifests({
    ...offlineLoadOptions(paths, options, io),
    resolveSecrets: options.skipSecrets !== true,
    requireDocuments: options.allowEmpty !== true,
  });
  for (const value of result.secretValues) io.secrets?.add(value);
  validateView(options.format, io).diagnostics(result);
  // Expired drift.ignore entries (the project file's schema and dates were checked on load).
  for (const entry of entriesInForce(result.project.drift, io.now?.() ?? new Date()).expired) io.stderr.write(`warning: ${expiredWarning(entry)}\n`);
  return hasErrors(result.diagnostics) ? EXIT.error : EXIT.ok;
}
