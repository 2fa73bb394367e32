/**
 * `gwops validate [paths...]`: the validate operation (src/operations/validate.ts) on the
 * command's arguments; every diagnostic through the view, exit 0 when there is no error
 * (warnings allowed), 1 otherwise. No gateway is contacted.
 */
import type { Variant } from '../../../kinds/index.js';
import type { DiagnosticFormat } from '../../../manifest/index.js';
import { expiredWarning } from '../../../manifest/drift-ignore.js';
import type { OfflineInput } from '../../../operations/validate.js';
import { runValidate } from '../../../operations/validate.js';
import { EXIT } from '../../../core/exit-codes.js';
import type { CliIO } from '../../io.js';
import { validateView } from './view.js';

/** The project options that offline commands (validate, graph) share. */
export interface OfflineProjectOptions {
  variant?: Variant;
  target?: string;
  config?: string;
}

/** The input of an offline operation: its paths, the CLI's cwd, env, stdin and secret registry, and the project options given. */
export function offlineInput(paths: readonly string[], options: OfflineProjectOptions, io: CliIO): OfflineInput {
  return {
    paths,
    cwd: io.cwd,
    env: io.env,
    stdin: io.stdin,
    secrets: io.secrets,
    configFile: options.config,
    target: options.target,
    variant: options.variant,
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
 * Runs validate and writes its report to `io.stdout`, expired `drift.ignore` entries as
 * warnings on stderr.
 * @returns the exit code: 0 valid (warnings allowed), 1 any error
 * @throws InputError for unreadable paths or an invalid project file (mapped to exit 1 by the caller)
 */
export async function validateAction(paths: readonly string[], options: ValidateCommandOptions, io: CliIO): Promise<number> {
  const result = await runValidate({
    ...offlineInput(paths, options, io),
    resolveSecrets: options.skipSecrets !== true,
    requireDocuments: options.allowEmpty !== true,
    now: io.now,
  });
  validateView(options.format, io).diagnostics(result.loaded);
  for (const entry of result.expired) io.stderr.write(`warning: ${expiredWarning(entry)}\n`);
  return result.valid ? EXIT.ok : EXIT.error;
}
