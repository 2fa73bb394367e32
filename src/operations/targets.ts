/**
 * The use case `targets`: the targets of the project file, in the file's order, with their
 * URL and variant. Nothing else of a target is given: `apiKeyEnv`, `apiKeyFile` and
 * `caFile` say where secrets live, and a URL never carries credentials (they are removed
 * should one hold any).
 */
import { InputError } from '../core/errors.js';
import type { Variant } from '../kinds/index.js';
import { PROJECT_FILE, loadProject } from '../manifest/project.js';
import { withoutCredentials } from '../core/secrets.js';

/** One target as `gwops targets` shows it. */
export interface TargetSummary {
  readonly name: string;
  readonly url: string;
  /** The target's variant, else `latest` (what plan, apply and drift assume). */
  readonly variant: Variant;
}

/**
 * The targets of the project file `config` (else `gwops.yaml` in `cwd`), in file order.
 * @throws InputError when there is no project file, or it is unreadable or invalid
 */
export function listTargets(cwd: string, config?: string): TargetSummary[] {
  const project = loadProject(cwd, config);
  if (project.file === undefined) {
    throw new InputError(`no project file: ${PROJECT_FILE} does not exist in ${cwd} (name one with --config)`);
  }
  return Object.entries(project.targets).map(([name, target]) => ({
    name,
    url: withoutCredentials(target.url),
    variant: target.variant ?? 'latest',
  }));
}
