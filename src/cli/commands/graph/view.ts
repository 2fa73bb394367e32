/**
 * The view of `gwops graph`, chosen once from `--format`: the topology as a Mermaid
 * flowchart (never collapsed) or as Graphviz DOT, on stdout; diagnostics that stop it go
 * to stderr in the text format.
 */
import type { Diagnostic } from '../../../core/diagnostics.js';
import { formatDiagnostics } from '../../../core/diagnostics-format.js';
import type { Topology } from '../../../render/index.js';
import { renderDot, renderMermaid } from '../../../render/index.js';
import type { CliIO } from '../../io.js';

/** The view of `gwops graph`. */
export interface GraphView {
  /** The topology of the manifests. */
  topology(topology: Topology): void;
  /** The diagnostics that stop the graph (errors of the manifests or of the desired state). */
  diagnostics(diagnostics: readonly Diagnostic[]): void;
}

/** The view of `gwops graph` in `format`. */
export function graphView(format: 'mermaid' | 'dot', io: CliIO): GraphView {
  const diagnostics = (list: readonly Diagnostic[]): void => void io.stderr.write(formatDiagnostics(list, 'text', { color: false }));
  switch (format) {
    case 'mermaid':
      return { topology: (topology) => void io.stdout.write(renderMermaid(topology, { maxNodes: Infinity })), diagnostics };
    case 'dot':
      return { topology: (topology) => void io.stdout.write(renderDot(topology)), diagnostics };
  }
}
