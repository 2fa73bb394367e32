import { Option } from 'commander';
import { VARIANTS } from '../../kinds/index.js';
import type { CliIO, CommandModule } from '../io.js';
import type { ValidateCommandOptions } from './validate-run.js';

/** Registers `gwops validate`. */
export const registerValidate: CommandModule = (program, io: CliIO, done) => {
  program
    .command('validate')
    .description('Check manifests offline: every problem with file:line:column (no gateway is contacted)')
    .argument('[paths...]', "manifest files or directories (recursive *.yaml/*.yml), '-' for stdin; default: the project file's manifests")
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'github']).default('text'))
    .addOption(new Option('--variant <variant>', "gateway variant (default: the target's, else latest)").choices([...VARIANTS]))
    .option('--target <name>', 'a target of the project file: its variant and overlays apply')
    .option('--config <file>', 'project file (default: gwops.yaml in the current directory)')
    .option('--allow-empty', 'accept paths that hold no manifest document (else an error naming them)')
    .option('--skip-secrets', 'do not read { fromFile } / { fromEnv } secrets (check their shape only)')
    .action(async (paths: string[], options: ValidateCommandOptions) => {
      const { runValidate } = await import('./validate-run.js');
      done(await runValidate(paths, options, io));
    });
};
