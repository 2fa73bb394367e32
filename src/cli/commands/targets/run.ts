/**
 * `gwops targets`: lists the targets of the project file (src/operations/targets.ts) with
 * their URL and variant. `--format json` prints `{"formatVersion","targets":[{"name","url","variant"}]}`
 * for a CI matrix (examples/ci/apply-to-targets.yml).
 */
import { listTargets } from '../../../operations/targets.js';
import { EXIT } from '../../../core/exit-codes.js';
import type { CliIO } from '../../io.js';
import { targetsView } from './view.js';

/** Options as commander parses them. */
export interface TargetsCommandOptions {
  config?: string;
  format: 'text' | 'json';
}

/**
 * Writes the targets to `io.stdout`: a table, or JSON with `--format json`. A project
 * without targets prints an empty list (JSON) or nothing (text), and says so on stderr.
 * @returns the exit code (0)
 * @throws InputError when there is no project file, or it is unreadable or invalid
 */
export function runTargets(options: TargetsCommandOptions, io: CliIO): number {
  const targets = listTargets(io.cwd, options.config);
  if (targets.length === 0) io.stderr.write('The project file defines no targets.\n');
  targetsView(options.format, io).targets(targets);
  return EXIT.ok;
}
