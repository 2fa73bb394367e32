/**
 * The secrets a run knows before it reads anything else, registered in its redactor as
 * the first thing every command does (src/cli/main.ts): `GWOPS_API_KEY`, the key of every
 * target of the project file (`apiKeyEnv`, `apiKeyFile`) and of `--api-key-file`. Whatever
 * a command prints later (a manifest error that quotes a value, a plan, a gateway error)
 * then never shows one of them, whichever target the run uses.
 */
import { resolve } from 'node:path';
import { FILE_LIMITS, readTextBounded } from '../core/files.js';
import { loadProject } from '../manifest/project.js';
import { GLOBAL_API_KEY_ENV } from '../manifest/secret-variables.js';
import type { SecretRedactor } from '../core/secrets.js';

/** The text of a key file, or undefined when it cannot be read (the command reports that, if it needs the file). */
function keyFileText(file: string): string | undefined {
  try {
    return readTextBounded(file, FILE_LIMITS.apiKey);
  } catch {
    return undefined;
  }
}

/** A value as given and as the connection uses it (trimmed). */
function both(value: string | undefined): string[] {
  return value === undefined ? [] : [value, value.trim()];
}

/**
 * Registers in `secrets` the value of `GWOPS_API_KEY`, of every target's `apiKeyEnv` and
 * the text of every target's `apiKeyFile` in the project file (`configFile`, else
 * `gwops.yaml` in `cwd`), and the text of `apiKeyFile` (`--api-key-file`). Never throws: a
 * project file or key file that cannot be read is the command's to report.
 */
export function registerKnownSecrets(
  secrets: SecretRedactor,
  options: { readonly cwd: string; readonly env: Readonly<Record<string, string | undefined>>; readonly configFile?: string | undefined; readonly apiKeyFile?: string | undefined },
): void {
  const { cwd, env } = options;
  secrets.addAll(both(env[GLOBAL_API_KEY_ENV]));
  if (options.apiKeyFile !== undefined) secrets.addAll(both(keyFileText(resolve(cwd, options.apiKeyFile))));
  let targets;
  try {
    targets = Object.values(loadProject(cwd, options.configFile).targets);
  } catch {
    return;
  }
  for (const target of targets) {
    if (target.apiKeyEnv !== undefined) secrets.addAll(both(env[target.apiKeyEnv]));
    if (target.apiKeyFile !== undefined) secrets.addAll(both(keyFileText(target.apiKeyFile)));
  }
}
