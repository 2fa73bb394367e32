import { Option } from 'commander';
import { VARIANTS } from '../../kinds/index.js';
import type { CliIO, CommandModule } from '../io.js';
import type { GraphCommandOptions } from './graph-run.js';

/** Registers `gwops graph`. */
export const registerGraph: CommandModule = (program, io: CliIO, done) => {
  program
    .command('graph')
    .description('Print the managed topology of the manifests (objects, their links, and attributes that name another object) as a Mermaid flowchart or Graphviz DOT, offline')
    .argument('[paths...]', "manifest files or directories, '-' for stdin; default: the project file's manifests")
    .addOption(new Option('--format <format>', 'output format').choices(['mermaid', 'dot']).default('mermaid'))
    .addOption(new Option('--variant <variant>', "gateway variant (default: the target's, else latest)").choices([...VARIANTS]))
    .option('--target <name>', 'a target of the project file: its variant and overlays apply')
    .option('--config <file>', 'project file (default: gwops.yaml in the current directory)')
    .action(async (paths: string[], options: GraphCommandOptions) => {
      const { runGraph } = await import('./graph-run.js');
      done(await runGraph(paths, options, io));
    });
};
