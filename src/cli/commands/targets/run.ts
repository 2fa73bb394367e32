/**
 * `gwops targets`: lists the targets of the project file, in the file's order, with their
 * URL and variant. Nothing else of a target is shown: `apiKeyEnv`, `apiKeyFile` and
 * `caFile` say where secrets live, and a URL never carries credentials (they are removed
 * should one hold any). `--format json` prints `{"formatVersion","targets":[{"name","url","variant"}]}`
 * for a CI matrix (examples/ci/apply-to-targets.yml).
 */
import { InputError } from '../../../errors.js';
import type { Variant } from '../../../kinds/index.js';
import { PROJECT_FILE, loadProject } from '../../../manifest/project.js';
import { withoutCredentials } from '../../../secrets.js';
import { EXIT } from '../../../exit-codes.js';
import type { CliIO } from '../../io.js';
import { targetsView } from './view.js';

/** Options as commander parses them. */
export interface TargetsCommandOptions {
  config?: string;
  format: 'text' | 'json';
}

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

/**
 * Writes the targets to `io.stdout`: a table, or JSON with `--format json`. A project
 * without targets prints an empty list (JSON) or nothing (text), and says so on stderr.
 * @returns the exit code (0)
 * @throws InputError as {@link listTargets}
 */
export function runTargets(options: TargetsCommandOptions, io: CliIO): number {
  const targets = listTargets(io.cwd, options.config);
  if (targets.length === 0) io.stderr.write('The project file defines no targets.\n');
  targetsView(options.format, io).targets(targets);
  return EXIT.ok;
}
