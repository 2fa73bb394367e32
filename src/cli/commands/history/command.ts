import { Option } from 'commander';
import { EXIT } from '../../../core/exit-codes.js';
import type { CommandHelp } from '../../help.js';
import { INTERRUPTED, helpText } from '../../help.js';
import type { CliIO, CommandModule } from '../../io.js';
import type { HistoryFlags } from './run.js';
import { addConnectionOptions } from '../reconcile/command.js';

/** The examples and exit codes of `gwops history --help`. */
export const HISTORY_HELP: CommandHelp = {
  examples: [
    { run: 'gwops history --limit 10', does: "the gateway's ten newest configurations, with the commit gwops applied each from" },
    { run: 'gwops history --target prod --format json', does: 'the configurations of the target prod as one JSON document' },
  ],
  exitCodes: [
    [EXIT.ok, 'the configurations were listed'],
    [EXIT.error, 'an error: the gateway could not be reached or read, a bad project file, or a usage error'],
    ...INTERRUPTED,
  ],
};

/** Registers `gwops history`. */
export const registerHistory: CommandModule = (program, io: CliIO, done) => {
  addConnectionOptions(
    program
      .command('history')
      .addHelpText('after', helpText(HISTORY_HELP))
      .description("List the gateway's configurations, newest first, with the commit gwops named in each comment (read-only)"),
  )
    .option('--limit <n>', 'show at most the newest N configurations')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (flags: HistoryFlags) => {
      const { historyAction } = await import('./run.js');
      done(await historyAction(flags, io));
    });
};
