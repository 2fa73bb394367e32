/**
 * A structural check of the Mermaid flowchart subset that src/render/mermaid.ts writes.
 *
 * Why not Mermaid's own parser: the `mermaid` package (12.x) cannot parse in Node without a
 * browser DOM (`mermaid.parse` fails with "DOMPurify.addHook is not a function"; its
 * flowchart grammar ships only inside that package, 200 MB installed), and
 * `@mermaid-js/parser` (2.x) parses only the Langium diagrams (info, packet, pie,
 * architecture, ...), not flowcharts. So this check follows Mermaid's flowchart grammar
 * for the statements gwops emits, strictly: anything else is an error.
 *
 * Checked: the `flowchart <dir>` header; node statements `id["label"]` with an optional
 * `:::class`; edges `a --> b`, `a ==> b`, `a -.-> b` with an optional `|"label"|`;
 * `classDef name style` and `linkStyle i,j style`. Ids are declared once and before use,
 * used classes are defined, `linkStyle` indexes exist, and every label is a quoted
 * string whose only `#` start entity codes (`#35;`, `#quot;`) and which holds no `"`,
 * so no name can end a label or start a statement.
 */

const ID = '[A-Za-z][A-Za-z0-9_]*';
const LABEL = '"((?:[^"#\\n]|#[0-9]+;|#[a-z]+;)*)"';
const NODE = new RegExp(`^  (${ID})\\[${LABEL}\\](?::::(${ID}))?$`);
const EDGE = new RegExp(`^  (${ID}) (-->|==>|-\\.->)(?:\\|${LABEL}\\|)? (${ID})$`);
const CLASS_DEF = new RegExp(`^  classDef (${ID}) ([a-z-]+:[^,;\\n]+(?:,[a-z-]+:[^,;\\n]+)*)$`);
const LINK_STYLE = /^ {2}linkStyle (\d+(?:,\d+)*) ([a-z-]+:[^,;\n]+(?:,[a-z-]+:[^,;\n]+)*)$/;
const RESERVED = new Set(['end', 'graph', 'flowchart', 'subgraph', 'style', 'class', 'classDef', 'linkStyle', 'click', 'default', 'direction']);

/** The parsed chart, for assertions. */
export interface ParsedChart {
  readonly nodes: ReadonlyMap<string, { readonly label: string; readonly className?: string }>;
  readonly edges: readonly { readonly from: string; readonly arrow: string; readonly label?: string; readonly to: string }[];
  readonly classes: ReadonlySet<string>;
}

/** Decodes Mermaid entity codes (`#35;`, `#quot;`) of a label. */
export function decodeLabel(label: string): string {
  const named: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', nbsp: '\u00a0' };
  return label.replace(/#([0-9]+|[a-z]+);/g, (_m, code: string) => (/^[0-9]+$/.test(code) ? String.fromCodePoint(Number(code)) : (named[code] ?? `#${code};`)));
}

/**
 * Parses `source` (without a code fence).
 * @returns the chart, or throws an Error naming the line and what is wrong
 */
export function parseFlowchart(source: string): ParsedChart {
  const lines = source.replace(/\n$/, '').split('\n');
  if (!/^flowchart (LR|RL|TB|TD|BT)$/.test(lines[0] ?? '')) throw new Error(`line 1: expected "flowchart LR", got ${JSON.stringify(lines[0])}`);
  const nodes = new Map<string, { label: string; className?: string }>();
  const edges: { from: string; arrow: string; label?: string; to: string }[] = [];
  const classes = new Set<string>();
  const usedClasses: [string, number][] = [];
  lines.slice(1).forEach((line, i) => {
    const at = `line ${i + 2}`;
    let m: RegExpExecArray | null;
    if ((m = NODE.exec(line))) {
      const [, id = '', label = '', className] = m;
      if (RESERVED.has(id)) throw new Error(`${at}: node id ${id} is a keyword`);
      if (nodes.has(id)) throw new Error(`${at}: node ${id} declared twice`);
      nodes.set(id, { label: decodeLabel(label), ...(className !== undefined ? { className } : {}) });
      if (className !== undefined) usedClasses.push([className, i + 2]);
    } else if ((m = EDGE.exec(line))) {
      const [, from = '', arrow = '', label, to = ''] = m;
      for (const id of [from, to]) if (!nodes.has(id)) throw new Error(`${at}: edge names undeclared node ${id}`);
      edges.push({ from, arrow, to, ...(label !== undefined ? { label: decodeLabel(label) } : {}) });
    } else if ((m = CLASS_DEF.exec(line))) {
      const [, name = ''] = m;
      if (RESERVED.has(name)) throw new Error(`${at}: class name ${name} is a keyword`);
      classes.add(name);
    } else if ((m = LINK_STYLE.exec(line))) {
      for (const index of (m[1] ?? '').split(',').map(Number)) if (index >= edges.length) throw new Error(`${at}: linkStyle ${index} names no edge`);
    } else {
      throw new Error(`${at}: not a statement of the flowchart subset: ${JSON.stringify(line)}`);
    }
  });
  for (const [name, line] of usedClasses) if (!classes.has(name)) throw new Error(`line ${line}: class ${name} has no classDef`);
  return { nodes, edges, classes };
}

/** The body of the first ```mermaid block of a markdown text (fence of three or more backticks). */
export function mermaidBlock(markdown: string): string | undefined {
  const m = /^(`{3,})mermaid\n([\s\S]*?)\n\1$/m.exec(markdown);
  return m?.[2] === undefined ? undefined : `${m[2]}\n`;
}
