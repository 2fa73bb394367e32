/**
 * `gwops graph [paths...]`: the whole managed topology of the manifests, every object and
 * every declared link and every attribute that names another object, as a Mermaid flowchart (src/render/mermaid.ts, never collapsed) or
 * Graphviz DOT (src/render/dot.ts) on stdout. Offline: no gateway is contacted and no
 * secret is read (the graph operation, src/operations/graph.ts).
 */
import type { Variant } from '../../../kinds/index.js';
import { runGraph } from '../../../operations/graph.js';
import { stateTopology } from '../../../render/index.js';
import { EXIT } from '../../../core/exit-codes.js';
import { offlineInput } from '../validate/run.js';
import type { CliIO } from '../../io.js';
import { graphView } from './view.js';
import { isDiagnosticsError } from '../../../core/errors.js';

/** Options as commander parses them. */
export interface GraphCommandOptions {
  format: 'mermaid' | 'dot';
  variant?: Variant;
  target?: string;
  config?: string;
}

/**
 * Loads the manifests (secrets not read) and prints their topology.
 * @returns exit code 0
 * @throws ManifestError (after printing the diagnostics on stderr) when the manifests have
 *   errors, DesiredStateError for duplicate objects or impossible links, InputError for
 *   unreadable paths or an invalid project file
 */
export async function graphAction(paths: readonly string[], options: GraphCommandOptions, io: CliIO): Promise<number> {
  const view = graphView(options.format, io);
  let desired;
  try {
    desired = await runGraph(offlineInput(paths, options, io));
  } catch (error) {
    if (isDiagnosticsError(error)) view.diagnostics(error.diagnostics);
    throw error;
  }
  view.topology(stateTopology(desired));
  return EXIT.ok;
}
