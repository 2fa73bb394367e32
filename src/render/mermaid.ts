/**
 * A topology (topology.ts) as a Mermaid flowchart, which GitHub renders in markdown: the
 * picture at the top of `plan --format markdown` and the output of `gwops graph --format
 * mermaid`. Nodes are objects (kind on the first line, name on the second), edges are
 * links in their canonical direction. A changed node carries its action as a class and as
 * a sign in its label (`+` create, `~` update, `-` delete); an added link is a thick arrow
 * labelled `added`, a removed one a dotted arrow labelled `removed`. Beyond
 * `maxNodes` objects the picture shows one node per kind with counts (docs/ci-guide.md
 * "The picture of a change"). Pure.
 */
import { KINDS } from '../kinds/index.js';
import type { ResourceType } from '../kinds/index.js';
import type { EdgeChange, NodeChange, Topology, TopologyEdge, TopologyNode } from './topology.js';

/** Default {@link MermaidOptions.maxNodes}: above it, a picture shows one node per kind. */
export const MERMAID_MAX_NODES = 60;

/** Options of {@link renderMermaid}. */
export interface MermaidOptions {
  /** Largest number of object nodes drawn one by one; default {@link MERMAID_MAX_NODES}. `Infinity` never collapses. */
  readonly maxNodes?: number;
}

/** The class, sign and colours of each node change. */
const NODE_STYLE: Readonly<Record<NodeChange, { readonly sign: string; readonly style: string }>> = {
  create: { sign: '+', style: 'fill:#dafbe1,stroke:#1a7f37,color:#0d1117' },
  update: { sign: '~', style: 'fill:#fff8c5,stroke:#9a6700,color:#0d1117' },
  delete: { sign: '-', style: 'fill:#ffebe9,stroke:#cf222e,color:#0d1117,stroke-dasharray:5 3' },
};

/** The arrow, label and colour of each edge change (unchanged: a plain arrow). */
const EDGE_STYLE: Readonly<Record<EdgeChange, { readonly arrow: string; readonly stroke: string }>> = {
  added: { arrow: '==>', stroke: 'stroke:#1a7f37,stroke-width:3px' },
  removed: { arrow: '-.->', stroke: 'stroke:#cf222e' },
};

/**
 * Text for inside a quoted Mermaid label: letters, digits, space and `_.,/:@+~-` as they are,
 * every other character as a Mermaid entity code (`#35;` for `#`), so no name can end the
 * label, open a link or inject markup.
 */
export function mermaidText(text: string): string {
  let out = '';
  for (const ch of text) out += /^[A-Za-z0-9 _.,/:@+~-]$/.test(ch) ? ch : `#${ch.codePointAt(0) ?? 0};`;
  return out;
}

interface DrawnNode {
  readonly id: string;
  readonly lines: readonly string[];
  readonly change?: NodeChange;
}

interface DrawnEdge {
  readonly from: string;
  readonly to: string;
  readonly change?: EdgeChange;
  readonly label?: string;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** One node per object. */
function detailed(topology: Topology): { nodes: DrawnNode[]; edges: DrawnEdge[] } {
  const ids = new Map<string, string>();
  const idOf = (node: Pick<TopologyNode, 'ref'>): string => ids.get(`${node.ref.kind}\u0000${node.ref.name}`) ?? '';
  const nodes = topology.nodes.map((node, i): DrawnNode => {
    const id = `n${i}`;
    ids.set(`${node.ref.kind}\u0000${node.ref.name}`, id);
    const head = node.change ? `${NODE_STYLE[node.change].sign} ${node.ref.kind}` : node.ref.kind;
    return { id, lines: [head, node.ref.name], ...(node.change ? { change: node.change } : {}) };
  });
  const edges = topology.edges.map(
    (edge: TopologyEdge): DrawnEdge => ({ from: idOf({ ref: edge.from }), to: idOf({ ref: edge.to }), ...(edge.change ? { change: edge.change, label: edge.change } : {}) }),
  );
  return { nodes, edges: edges.filter((e) => e.from !== '' && e.to !== '') };
}

/** One node per kind, with counts; one edge per kind pair and relationship, with counts. */
function collapsed(topology: Topology): { nodes: DrawnNode[]; edges: DrawnEdge[] } {
  const nodes: DrawnNode[] = [];
  const idOfKind = new Map<ResourceType, string>();
  KINDS.forEach((kind, i) => {
    const members = topology.nodes.filter((n) => n.ref.kind === kind.type);
    if (members.length === 0) return;
    const id = `k${i}`;
    idOfKind.set(kind.type, id);
    const counts = (['create', 'update', 'delete'] as const)
      .map((change) => ({ change, n: members.filter((m) => m.change === change).length }))
      .filter((c) => c.n > 0);
    const unchanged = members.filter((m) => !m.change).length;
    const detail = [...counts.map((c) => `${NODE_STYLE[c.change].sign}${c.n} ${c.change}`), ...(unchanged > 0 ? [`${unchanged} unchanged`] : [])];
    const change = counts.length === 1 && unchanged === 0 ? counts[0]?.change : counts.length > 0 ? 'update' : undefined;
    nodes.push({ id, lines: [`${kind.type}: ${plural(members.length, 'object')}`, detail.join(', ')], ...(change ? { change } : {}) });
  });
  const groups = new Map<string, { from: string; to: string; relationship: string; added: number; removed: number; total: number }>();
  for (const edge of topology.edges) {
    const from = idOfKind.get(edge.from.kind);
    const to = idOfKind.get(edge.to.kind);
    if (from === undefined || to === undefined) continue;
    const key = `${from} ${edge.relationship} ${to}`;
    const group = groups.get(key) ?? { from, to, relationship: edge.relationship, added: 0, removed: 0, total: 0 };
    group.total += 1;
    if (edge.change === 'added') group.added += 1;
    if (edge.change === 'removed') group.removed += 1;
    groups.set(key, group);
  }
  const edges = [...groups.values()].map((g): DrawnEdge => {
    const parts = [plural(g.total, 'link'), ...(g.added > 0 ? [`${g.added} added`] : []), ...(g.removed > 0 ? [`${g.removed} removed`] : [])];
    const change: EdgeChange | undefined = g.added > 0 ? 'added' : g.removed > 0 ? 'removed' : undefined;
    return { from: g.from, to: g.to, label: parts.join(', '), ...(change ? { change } : {}) };
  });
  return { nodes, edges };
}

/**
 * The flowchart of `topology` (Mermaid source, without a code fence), `flowchart LR`.
 * Node ids are `n<i>` (or `k<i>` per kind when collapsed), labels escaped by
 * {@link mermaidText}; `classDef`s only for the changes present.
 * @returns text ending in a newline
 */
export function renderMermaid(topology: Topology, options: MermaidOptions = {}): string {
  const collapse = topology.nodes.length > (options.maxNodes ?? MERMAID_MAX_NODES);
  const { nodes, edges } = collapse ? collapsed(topology) : detailed(topology);
  const lines = ['flowchart LR'];
  for (const node of nodes) {
    lines.push(`  ${node.id}["${node.lines.map(mermaidText).join('<br/>')}"]${node.change ? `:::${node.change}` : ''}`);
  }
  const styled = new Map<EdgeChange, number[]>();
  edges.forEach((edge, i) => {
    const arrow = edge.change ? EDGE_STYLE[edge.change].arrow : '-->';
    lines.push(`  ${edge.from} ${arrow}${edge.label !== undefined ? `|"${mermaidText(edge.label)}"|` : ''} ${edge.to}`);
    if (edge.change) styled.set(edge.change, [...(styled.get(edge.change) ?? []), i]);
  });
  for (const change of ['create', 'update', 'delete'] as const) {
    if (nodes.some((n) => n.change === change)) lines.push(`  classDef ${change} ${NODE_STYLE[change].style}`);
  }
  for (const change of ['added', 'removed'] as const) {
    const indexes = styled.get(change);
    if (indexes) lines.push(`  linkStyle ${indexes.join(',')} ${EDGE_STYLE[change].stroke}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The legend of a plan's picture, one markdown line. */
export const MERMAID_LEGEND =
  'Legend: `+` green: created · `~` yellow: updated · `-` red, dashed: deleted · plain: unchanged neighbour · ' +
  'thick arrow: link added · dotted arrow: link removed.';

/** The legend of a drift report's picture (topology.ts `driftTopology`): what happened on the gateway. */
export const MERMAID_DRIFT_LEGEND =
  'Legend: `+` green: added on the gateway · `~` yellow: changed on the gateway · `-` red, dashed: deleted on the gateway · ' +
  'plain: unchanged neighbour · thick arrow: link added on the gateway · dotted arrow: link deleted on the gateway.';
