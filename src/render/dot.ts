/**
 * A topology (topology.ts) in Graphviz DOT, for `gwops graph --format dot` (`dot -Tsvg`):
 * one box per object (kind, then name), one edge per link in its canonical direction.
 * Changed nodes and links, when a topology has them, are coloured like the Mermaid picture
 * (mermaid.ts). Pure.
 */
import type { EdgeChange, NodeChange, Topology } from './topology.js';

const NODE_ATTRIBUTES: Readonly<Record<NodeChange, string>> = {
  create: 'style=filled, fillcolor="#dafbe1", color="#1a7f37"',
  update: 'style=filled, fillcolor="#fff8c5", color="#9a6700"',
  delete: 'style="filled,dashed", fillcolor="#ffebe9", color="#cf222e"',
};

const EDGE_ATTRIBUTES: Readonly<Record<EdgeChange, string>> = {
  added: 'color="#1a7f37", penwidth=3, label="added"',
  removed: 'color="#cf222e", style=dashed, label="removed"',
};

/** A DOT double-quoted string: `"` and `\` escaped, line breaks as `\n`. */
export function dotString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n|\r/g, '\\n')}"`;
}

/**
 * The digraph `gwops` of `topology`, left to right; node ids `n<i>`.
 * @returns text ending in a newline
 */
export function renderDot(topology: Topology): string {
  const lines = ['digraph gwops {', '  rankdir=LR;', '  node [shape=box];'];
  const ids = new Map<string, string>();
  topology.nodes.forEach((node, i) => {
    ids.set(`${node.ref.kind}\u0000${node.ref.name}`, `n${i}`);
    const label = `${dotString(`${node.ref.kind}\n${node.ref.name}`)}`;
    lines.push(`  n${i} [label=${label}${node.change ? `, ${NODE_ATTRIBUTES[node.change]}` : ''}];`);
  });
  for (const edge of topology.edges) {
    const from = ids.get(`${edge.from.kind}\u0000${edge.from.name}`);
    const to = ids.get(`${edge.to.kind}\u0000${edge.to.name}`);
    if (from === undefined || to === undefined) continue;
    lines.push(`  ${from} -> ${to}${edge.change ? ` [${EDGE_ATTRIBUTES[edge.change]}]` : ''};`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
