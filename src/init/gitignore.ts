/**
 * What `gwops init` adds to a `.gitignore` that exists (README.md "Commands", `gwops init`):
 * the patterns of its template that the file lacks, appended after its last byte in the
 * file's own line ending, so that nothing already there changes. Pure: the caller reads
 * the file and appends the text.
 */
import { trimTrailing } from '../core/linear-text.js';

/** A pattern line of a `.gitignore` as Git reads it: the line without its CR and without unescaped trailing spaces. */
function patternOf(line: string): string {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  const trimmed = trimTrailing(text, ' ');
  // A space after a backslash is escaped: it stays, the unescaped ones after it go.
  return trimmed.endsWith('\\') && trimmed.length < text.length ? `${trimmed} ` : trimmed;
}

/**
 * The patterns of a `.gitignore` text, in order: its lines that are neither blank nor
 * comments (`#`), as Git reads them (a byte order mark at the start, a CR before the line
 * feed and unescaped trailing spaces are not part of a pattern).
 */
export function ignorePatterns(text: string): string[] {
  return text
    .replace(/^\uFEFF/, '')
    .split('\n')
    .map(patternOf)
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** The line ending of `text`: that of its first line, CRLF or LF (LF for text of one line). */
export function lineEndingOf(text: string): '\r\n' | '\n' {
  const end = text.indexOf('\n');
  return end > 0 && text[end - 1] === '\r' ? '\r\n' : '\n';
}

/** What {@link gitignoreAddition} found. */
export interface GitignoreAddition {
  /** The template's patterns the file lacked, in the template's order. */
  readonly added: readonly string[];
  /** The text to append to the file ('' when it lacks nothing). */
  readonly text: string;
}

/**
 * The patterns of `template` that `existing` lacks, and the text that appends them to it.
 * A pattern is there when a line of `existing` reads the same, or for a folder pattern
 * (`node_modules/`) when a line names it without the slash (which ignores files of that
 * name too). A negation (`!*.env.example`) counts only after every pattern before it in the
 * template, since in Git the last matching line decides: it is appended again when one of
 * them is appended or stands after it in the file. The text starts
 * with the line ending `existing` lacks at its end, then a comment and one pattern per
 * line, every line ended in the file's own line ending ({@link lineEndingOf}).
 * @param existing the file's text ('' for an empty file)
 * @param template the text of the `.gitignore` gwops init writes (templates/init/gitignore)
 */
export function gitignoreAddition(existing: string, template: string): GitignoreAddition {
  const patterns = ignorePatterns(existing);
  /** The index of the last line of `existing` that holds `pattern`, -1 for none. */
  const last = (pattern: string): number => Math.max(patterns.lastIndexOf(pattern), pattern.endsWith('/') ? patterns.lastIndexOf(pattern.slice(0, -1)) : -1);
  const added: string[] = [];
  const before: string[] = [];
  for (const pattern of ignorePatterns(template)) {
    const at = last(pattern);
    // A negation holds only after every pattern before it in the template: Git reads the last matching line.
    const inEffect = !pattern.startsWith('!') || (added.every((a) => a.startsWith('!')) && before.every((b) => last(b) < at));
    if (at < 0 || !inEffect) added.push(pattern);
    if (!pattern.startsWith('!')) before.push(pattern);
  }
  if (added.length === 0) return { added, text: '' };
  const eol = lineEndingOf(existing);
  const lines = ['# Added by `gwops init`: secrets, local state, plan files and dependencies stay out of Git.', ...added];
  const ends = existing === '' || existing.endsWith('\n');
  const separator = existing.trim() === '' ? '' : eol;
  return { added, text: `${ends ? '' : eol}${separator}${lines.map((l) => `${l}${eol}`).join('')}` };
}
