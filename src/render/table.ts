/**
 * The one column table of the CLI's text output (`gwops history`, `gwops targets`, the
 * secrets table of `gwops export`): columns aligned by their display width, so names in
 * CJK or with emoji (two columns each on a terminal) line up as ASCII names do.
 */
import stringWidth from 'string-width';
import { escapeInvisible } from '../core/display.js';

/** Options of {@link renderTable}. */
export interface TableOptions {
  /** A line of dashes under the first row (the header), each as wide as its column. */
  readonly rule?: boolean;
}

/**
 * `rows` as aligned columns, two spaces apart, one line each, every line ending in a
 * newline. Each cell is shown with its invisible characters escaped (src/core/display.ts
 * `escapeInvisible`, so a name cannot break its line), and padded to the widest cell of its
 * column in terminal columns (`string-width`: wide characters count two, combining marks
 * none). The last column is not padded and trailing spaces are dropped.
 * @returns `''` when there are no rows
 */
export function renderTable(rows: readonly (readonly string[])[], options: TableOptions = {}): string {
  const cells = rows.map((row) => row.map((cell) => escapeInvisible(cell)));
  const widths: number[] = [];
  for (const row of cells) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, stringWidth(cell))));
  const line = (row: readonly string[]): string =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - stringWidth(cell))))
      .join('  ')
      .trimEnd();
  const lines = cells.map(line);
  if (options.rule === true && lines.length > 0) lines.splice(1, 0, line(widths.map((w) => '-'.repeat(w))));
  return lines.map((l) => `${l}\n`).join('');
}
