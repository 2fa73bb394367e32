import { Option } from 'commander';
import { EXIT } from '../../../core/exit-codes.js';
import type { CommandHelp } from '../../help.js';
import { INTERRUPTED, helpText } from '../../help.js';
import type { CliIO, CommandModule } from '../../io.js';
import type { InitFlags } from './run.js';
import { addConnectionOptions } from '../reconcile/command.js';
import { addKindOptions } from '../../kind-options.js';

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** The examples and exit codes of `gwops init --help`. */
export const INIT_HELP: CommandHelp = {
  examples: [
    { run: 'gwops init', does: 'start a project in the current directory: gwops.yaml, manifests/, .gitignore and a GitHub workflow' },
    { run: 'gwops init gateway/ --from-gateway --url https://gw.example.com/airlock/rest --api-key-file key.txt', does: "start a project in gateway/ from a live gateway's configuration" },
  ],
  exitCodes: [
    [EXIT.ok, 'the project was started'],
    [EXIT.error, 'an error (a directory that cannot be written, a gateway that cannot be read, a usage error)'],
    ...INTERRUPTED,
  ],
};

/** Registers `gwops init`. */
export const registerInit: CommandModule = (program, io: CliIO, done) => {
  addKindOptions(addConnectionOptions(
    program
      .command('init')
      .addHelpText('after', helpText(INIT_HELP))
      .description(
        'Start a project in DIR: a commented gwops.yaml, manifests/ with an example (or, with --from-gateway, exported from a gateway), .gitignore and a GitHub workflow at the Git repository\'s root; adds only what is missing (the lines a .gitignore lacks are appended, files that exist are kept) and says what it did with each file',
      )
      .argument('[dir]', 'the project directory (default: the current directory; created when missing)'),
  )
    .option('--from-gateway', 'fill manifests/ and gwops.yaml from a live gateway through gwops export (with the connection options)')
    .option('--kind <kind>', 'with --from-gateway: export only this kind (repeatable)', collect)
    .option('--filter <filter>', "with --from-gateway: the API's GET filter for every exported kind or as KIND:FILTER, also written as the ownership scope (repeatable)", collect), 'init')
    .addOption(new Option('--layout <layout>', 'with --from-gateway: one file per object or one file per kind').choices(['per-object', 'per-kind']).default('per-object'))
    .action(async (dir: string | undefined, flags: InitFlags) => {
      const { initAction } = await import('./run.js');
      done(await initAction(dir, flags, io));
    });
};
