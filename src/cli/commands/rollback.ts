import { Option } from 'commander';
import type { CliIO, CommandModule } from '../io.js';
import type { RollbackFlags } from './rollback-run.js';
import { addConnectionOptions } from './reconcile.js';

/** Registers `gwops rollback`. */
export const registerRollback: CommandModule = (program, io: CliIO, done) => {
  addConnectionOptions(
    program
      .command('rollback')
      .description('Bring back an earlier configuration, by its id or by the commit gwops applied it from, within the project\'s ownership scope (the manifests are not touched)')
      .argument('<ref>', 'a configuration id (see gwops history) or a commit SHA prefix of at least 4 digits'),
  )
    .addOption(new Option('--format <format>', 'how to show the difference').choices(['text', 'markdown', 'json']).default('text'))
    .option('-y, --yes', 'roll back without asking (needed when there is no terminal to ask on, e.g. in CI)')
    .option('--whole-configuration', 'activate the earlier configuration whole, objects outside the ownership scope (other teams\') included; the preview lists those changes first')
    .action(async (ref: string, flags: RollbackFlags) => {
      const { rollbackAction } = await import('./rollback-run.js');
      done(await rollbackAction(ref, flags, io));
    });
};
