import { Option } from 'commander';
import type { CliIO, CommandModule } from '../io.js';
import type { TargetsCommandOptions } from './targets-run.js';

/** Registers `gwops targets`. */
export const registerTargets: CommandModule = (program, io: CliIO, done) => {
  program
    .command('targets')
    .description('List the targets of the project file: name, URL and variant (never a key), e.g. to feed a CI matrix')
    .option('--config <file>', 'project file (default: gwops.yaml in the current directory)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (options: TargetsCommandOptions) => {
      const { runTargets } = await import('./targets-run.js');
      done(runTargets(options, io));
    });
};
