import { Option } from 'commander';
import { VARIANTS } from '../../../kinds/index.js';
import { EXIT } from '../../../core/exit-codes.js';
import type { CommandHelp } from '../../help.js';
import { INTERRUPTED, helpText } from '../../help.js';
import type { CliIO, CommandModule } from '../../io.js';
import type { GraphCommandOptions } from './run.js';

/** The examples and exit codes of `gwops graph --help`. */
export const GRAPH_HELP: CommandHelp = {
  examples: [
    { run: 'gwops graph > topology.mmd', does: "the topology of the project's manifests as a Mermaid flowchart" },
    { run: 'gwops graph manifests/ --format dot | dot -Tsvg > topology.svg', does: 'the same as Graphviz DOT, drawn as SVG' },
  ],
  exitCodes: [
    [EXIT.ok, 'the graph was printed'],
    [EXIT.error, 'errors in the manifests or the project file, or a usage error'],
    ...INTERRUPTED,
  ],
};

/** Registers `gwops graph`. */
export const registerGraph: CommandModule = (program, io: CliIO, done) => {
  program
    .command('graph')
    .addHelpText('after', helpText(GRAPH_HELP))
    .description('Print the managed topology of the manifests (objects, their links, and attributes that name another object) as a Mermaid flowchart or Graphviz DOT, offline')
    .argument('[paths...]', "manifest files or directories, '-' for stdin; default: the project file's manifests")
    .addOption(new Option('--format <format>', 'output format').choices(['mermaid', 'dot']).default('mermaid'))
    .addOption(new Option('--variant <variant>', "gateway variant (default: the target's, else latest)").choices([...VARIANTS]))
    .option('--target <name>', 'a target of the project file: its variant and overlays apply')
    .option('--config <file>', 'project file (default: gwops.yaml in the current directory)')
    .action(async (paths: string[], options: GraphCommandOptions) => {
      const { graphAction } = await import('./run.js');
      done(await graphAction(paths, options, io));
    });
};
