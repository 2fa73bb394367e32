/**
 * Small markdown helpers shared by the documentation generators (tools/docs/generate.ts) and
 * the link check of test/docs/links.test.ts: table cells, inline code, fences, and the
 * anchors GitHub gives headings.
 */

/** `text` as one table cell: no line breaks, `|` escaped. */
export function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|').trim();
}

/** `text` as inline code, with enough backticks around it to hold the ones inside. */
export function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

/** `text` as a fenced code block in `language`, the fence longer than any backtick run inside. */
export function fence(text: string, language: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`{3,}/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  const body = text.endsWith('\n') ? text : `${text}\n`;
  return `${ticks}${language}\n${body}${ticks}\n`;
}

/** One row of a markdown table. */
export function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** A markdown table: the header, the separator and the rows (cells already escaped). */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [row(header), row(header.map(() => '---')), ...rows.map(row)].join('\n') + '\n';
}

/** The visible text of a heading's markdown: links, code spans and emphasis marks removed. */
function headingText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`+/g, '')
    .replace(/(\*\*|__|\*|_)(\S(?:.*?\S)?)\1/g, '$2')
    .replace(/<[^>]+>/g, '')
    .trim();
}

/**
 * The anchor GitHub gives a heading (before duplicates get `-1`, `-2`): its visible text in
 * lower case, punctuation removed, spaces as hyphens.
 */
export function headingAnchor(heading: string): string {
  return headingText(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The lines of `markdown` outside fenced code blocks, each with its 0-based line number. */
export function proseLines(markdown: string): { readonly line: number; readonly text: string }[] {
  const out: { line: number; text: string }[] = [];
  let open: string | undefined;
  markdown.split('\n').forEach((text, line) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(text)?.[1];
    if (open === undefined && marker !== undefined) open = marker;
    else if (open !== undefined && marker !== undefined && marker[0] === open[0] && marker.length >= open.length && text.trim() === marker) open = undefined;
    else if (open === undefined) out.push({ line, text });
  });
  return out;
}

/** Every anchor of `markdown`'s ATX headings, duplicates numbered as GitHub does (`-1`, `-2`). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(text)?.[1];
    if (heading === undefined) continue;
    const base = headingAnchor(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}
