import { Option } from 'commander';
import { EXIT } from '../../../core/exit-codes.js';
import type { CommandHelp } from '../../help.js';
import { helpText } from '../../help.js';
import type { CliIO, CommandModule } from '../../io.js';
import type { TargetsCommandOptions } from './run.js';

/** The examples and exit codes of `gwops targets --help`. */
export const TARGETS_HELP: CommandHelp = {
  examples: [
    { run: 'gwops targets', does: 'the targets of gwops.yaml: name, URL and variant' },
    { run: 'gwops targets --config gateway/gwops.yaml --format json', does: 'the same as one JSON document, e.g. for a CI matrix' },
  ],
  exitCodes: [
    [EXIT.ok, 'the targets were listed'],
    [EXIT.error, 'no project file, an invalid one, or a usage error'],
  ],
};

/** Registers `gwops targets`. */
export const registerTargets: CommandModule = (program, io: CliIO, done) => {
  program
    .command('targets')
    .addHelpText('after', helpText(TARGETS_HELP))
    .description('List the targets of the project file: name, URL and variant (never a key), e.g. to feed a CI matrix')
    .option('--config <file>', 'project file (default: gwops.yaml in the current directory)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (options: TargetsCommandOptions) => {
      const { runTargets } = await import('./run.js');
      done(runTargets(options, io));
    });
};
