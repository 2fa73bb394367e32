import { Option } from 'commander';
import { EXIT } from '../../../core/exit-codes.js';
import type { CommandHelp } from '../../help.js';
import { INTERRUPTED, helpText } from '../../help.js';
import type { CliIO, CommandModule } from '../../io.js';
import type { RollbackFlags } from './run.js';
import { addConnectionOptions } from '../reconcile/command.js';

/** The examples and exit codes of `gwops rollback --help`. */
export const ROLLBACK_HELP: CommandHelp = {
  examples: [
    { run: 'gwops rollback 3f2a9c1', does: 'preview, then (after "yes") bring back the configuration applied from commit 3f2a9c1' },
    { run: 'gwops rollback 1234 --yes --format json', does: 'roll back to configuration 1234 without asking; the preview and the outcome as one JSON document' },
  ],
  exitCodes: [
    [EXIT.ok, 'rolled back, or nothing to do'],
    [EXIT.error, 'an error, or the rollback cancelled or not approved (no terminal to ask on and no --yes)'],
    [EXIT.validatorErrors, "the gateway's validator found errors (nothing activated)"],
    ...INTERRUPTED,
  ],
};

/** Registers `gwops rollback`. */
export const registerRollback: CommandModule = (program, io: CliIO, done) => {
  addConnectionOptions(
    program
      .command('rollback')
      .addHelpText('after', helpText(ROLLBACK_HELP))
      .description('Bring back an earlier configuration, by its id or by the commit gwops applied it from, within the project\'s ownership scope (the manifests are not touched)')
      .argument('<ref>', 'a configuration id (see gwops history) or a commit SHA prefix of at least 4 digits'),
  )
    .addOption(new Option('--format <format>', 'how to show the difference').choices(['text', 'markdown', 'json']).default('text'))
    .option('-y, --yes', 'roll back without asking (needed when there is no terminal to ask on, e.g. in CI)')
    .option('--whole-configuration', 'activate the earlier configuration whole, objects outside the ownership scope (other teams\') included; the preview lists those changes first')
    .action(async (ref: string, flags: RollbackFlags) => {
      const { rollbackAction } = await import('./run.js');
      done(await rollbackAction(ref, flags, io));
    });
};
