/**
 * Text gwops did not write (names, values, file names, the gateway's messages, activation
 * comments and authors) inside the markdown it writes: a plan comment, a job summary, the
 * drift report that a recipe files as an issue. Such text is always a code span: inside
 * one, GitHub-flavoured markdown makes no link, no autolinked URL, no HTML and no
 * `@mention` (README.md "Output contract"). Control, zero-width and bidi characters are
 * shown as visible escapes first (src/core/display.ts), so the text also keeps to its line.
 */
import { escapeInvisible } from '../core/display.js';

/** The longest run of backticks in `text` (0 without any). */
function longestBacktickRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (const ch of text) {
    run = ch === '`' ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/**
 * `text` as one inline code span: fenced by one backtick more than its longest run of
 * backticks, padded with a space where it starts or ends with a backtick or a space (the
 * CommonMark rules of code spans), invisible characters escaped. With `cell`, for a table
 * cell of GitHub-flavoured markdown, `|` is written `\|` (a pipe inside a code span
 * would still end the cell; GitHub shows `\|` there as `|`). The empty text is the empty
 * string (a code span cannot be empty).
 */
export function codeSpan(text: string, options: { readonly cell?: boolean } = {}): string {
  let inner = escapeInvisible(text);
  if (inner === '') return '';
  if (options.cell === true) inner = inner.replace(/\|/g, '\\|');
  const fence = '`'.repeat(longestBacktickRun(inner) + 1);
  const pad = /^[` ]|[` ]$/.test(inner) ? ' ' : '';
  return `${fence}${pad}${inner}${pad}${fence}`;
}

/** {@link codeSpan} for a table cell of GitHub-flavoured markdown. */
export function codeCell(text: string): string {
  return codeSpan(text, { cell: true });
}
