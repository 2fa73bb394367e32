/**
 * `gwops graph [paths...]`: the whole managed topology of the manifests, every object and
 * every declared link, as a Mermaid flowchart (src/render/mermaid.ts, never collapsed) or
 * Graphviz DOT (src/render/dot.ts) on stdout. Offline: no gateway is contacted and no
 * secret is read.
 */
import type { Variant } from '../../kinds/index.js';
import { formatDiagnostics, hasErrors, loadManifests } from '../../manifest/index.js';
import { desiredState } from '../../engine/desired.js';
import { ManifestError } from '../../engine/errors.js';
import { renderDot, renderMermaid, stateTopology } from '../../render/index.js';
import { EXIT } from '../../exit-codes.js';
import { offlineLoadOptions } from './validate-run.js';
import type { CliIO } from '../io.js';
import { isDiagnosticsError } from '../../errors.js';

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
export async function runGraph(paths: readonly string[], options: GraphCommandOptions, io: CliIO): Promise<number> {
  const loaded = await loadManifests({
    ...offlineLoadOptions(paths, options, io),
    resolveSecrets: false,
  });
  for (const value of loaded.secretValues) io.secrets?.add(value);
  if (hasErrors(loaded.diagnostics)) {
    io.stderr.write(formatDiagnostics(loaded.diagnostics, 'text', { color: false }));
    throw new ManifestError(loaded.diagnostics);
  }
  let desired;
  try {
    desired = desiredState(loaded.documents);
  } catch (error) {
    if (isDiagnosticsError(error)) io.stderr.write(formatDiagnostics(error.diagnostics, 'text', { color: false }));
    throw error;
  }
  const topology = stateTopology(desired);
  io.stdout.write(options.format === 'dot' ? renderDot(topology) : renderMermaid(topology, { maxNodes: Infinity }));
  return EXIT.ok;
}
