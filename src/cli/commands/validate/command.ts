import { Option } from 'commander';
import { VARIANTS } from '../../../kinds/index.js';
import { EXIT } from '../../../core/exit-codes.js';
import type { CommandHelp } from '../../help.js';
import { INTERRUPTED, helpText } from '../../help.js';
import type { CliIO, CommandModule } from '../../io.js';
import type { ValidateCommandOptions } from './run.js';

/** The examples and exit codes of `gwops validate --help`. */
export const VALIDATE_HELP: CommandHelp = {
  examples: [
    { run: 'gwops validate', does: "check the manifests the project file (gwops.yaml) names" },
    { run: 'gwops validate manifests/ --format json', does: 'check a folder and print the diagnostics as one JSON document' },
  ],
  exitCodes: [
    [EXIT.ok, 'the manifests are valid (warnings allowed)'],
    [EXIT.error, 'errors in the manifests or the project file, paths without a manifest, or a usage error'],
    ...INTERRUPTED,
  ],
};

/** Registers `gwops validate`. */
export const registerValidate: CommandModule = (program, io: CliIO, done) => {
  program
    .command('validate')
    .addHelpText('after', helpText(VALIDATE_HELP))
    .description('Check manifests offline: every problem with file:line:column (no gateway is contacted)')
    .argument('[paths...]', "manifest files or directories (recursive *.yaml/*.yml), '-' for stdin; default: the project file's manifests")
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'github']).default('text'))
    .addOption(new Option('--variant <variant>', "gateway variant (default: the target's, else latest)").choices([...VARIANTS]))
    .option('--target <name>', 'a target of the project file: its variant and overlays apply')
    .option('--config <file>', 'project file (default: gwops.yaml in the current directory)')
    .option('--allow-empty', 'accept paths that hold no manifest document (else an error naming them)')
    .option('--skip-secrets', 'do not read { fromFile } / { fromEnv } secrets (check their shape only)')
    .action(async (paths: string[], options: ValidateCommandOptions) => {
      const { validateAction } = await import('./run.js');
      done(await validateAction(paths, options, io));
    });
};
