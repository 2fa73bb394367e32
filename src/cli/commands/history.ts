import { Option } from 'commander';
import type { CliIO, CommandModule } from '../io.js';
import type { HistoryFlags } from './history-run.js';
import { addConnectionOptions } from './reconcile.js';

/** Registers `gwops history`. */
export const registerHistory: CommandModule = (program, io: CliIO, done) => {
  addConnectionOptions(
    program
      .command('history')
      .description("List the gateway's configurations, newest first, with the commit gwops named in each comment (read-only)"),
  )
    .option('--limit <n>', 'show at most the newest N configurations')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (flags: HistoryFlags) => {
      const { historyAction } = await import('./history-run.js');
      done(await historyAction(flags, io));
    });
};
