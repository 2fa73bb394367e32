import { Option } from 'commander';
import { EXIT } from '../../../core/exit-codes.js';
import type { CommandHelp } from '../../help.js';
import { INTERRUPTED, helpText } from '../../help.js';
import type { CliIO, CommandModule } from '../../io.js';
import type { ExportFlags } from './run.js';
import { withProgress } from '../../progress.js';
import { addConnectionOptions, addQuietOption } from '../reconcile/command.js';
import { addKindOptions } from '../../kind-options.js';

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** The examples and exit codes of `gwops export --help`. */
export const EXPORT_HELP: CommandHelp = {
  examples: [
    { run: 'gwops export --out manifests/', does: "write the gateway's active configuration as manifests into manifests/" },
    { run: "gwops export --out shop/ --filter name=@shop- --kind mapping", does: 'export only the mappings whose name starts with shop-' },
  ],
  exitCodes: [
    [EXIT.ok, 'the manifests were written'],
    [EXIT.error, 'an error (the gateway could not be reached or read, the output directory is not empty, a usage error): nothing was written'],
    ...INTERRUPTED,
  ],
};

/** Registers `gwops export`. */
export const registerExport: CommandModule = (program, io: CliIO, done) => {
  addKindOptions(addQuietOption(addConnectionOptions(
    program
      .command('export')
      .addHelpText('after', helpText(EXPORT_HELP))
      .description("Write the gateway's active configuration as manifests (read-only: never plans, never writes to the gateway)"),
  ))
    .option('--out <dir>', 'output directory (default: the current directory); refused when it is not empty, unless --force')
    .option('--kind <kind>', 'export only this kind (repeatable)', collect)
    .option('--filter <filter>', "the API's GET filter, e.g. name=@shop- or label==team-shop, for every exported kind or as KIND:FILTER for one; also written as the ownership scope (repeatable, AND)", collect)
    .addOption(new Option('--layout <layout>', 'one file per object (<kind>/<name>.yaml) or one multi-document file per kind (<kind>.yaml)').choices(['per-object', 'per-kind']).default('per-object'))
    .option('--keep-defaults', 'also write the attributes equal to the server defaults'), 'export')
    .option('--force', 'write into a directory that is not empty (the exported kinds\' manifest files there are replaced)')
    .addOption(new Option('--format <format>', 'text: the written files on stdout; json: the written files and the secrets table').choices(['text', 'json']).default('text'))
    .action(async (flags: ExportFlags) => {
      const { exportAction } = await import('./run.js');
      done(await withProgress(io, 'export', flags.quiet, (through, progress) => exportAction(flags, through, progress)));
    });
};
