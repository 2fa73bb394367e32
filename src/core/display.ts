/**
 * Text from a gateway or a manifest (object names, validator messages, values) shown
 * without letting it drive a terminal or a CI log: the characters that are never written
 * raw, and their visible escapes. Every output of the CLI passes through
 * {@link safeOutput} (src/cli/io.ts), and the renderers put names and messages into their
 * lines through {@link escapeInvisible}, so a name cannot break a line, start a GitHub
 * workflow command (`::warning::`), clear the screen or hide a character
 * (README.md "Output contract").
 */

import { createColors } from 'picocolors';

/* eslint-disable no-control-regex -- finding control characters is the point */
/**
 * The characters never shown raw: C0 controls, DEL, C1 controls, and the invisible format
 * characters that make two names look alike or reorder a line: zero-width space, joiners
 * and marks (U+200B-U+200F), bidi embeddings, overrides and isolates (U+202A-U+202E,
 * U+2066-U+2069), word joiner and invisible operators (U+2060-U+2064), the Arabic letter
 * mark (U+061C), the Mongolian vowel separator (U+180E) and the byte-order mark (U+FEFF).
 */
const INVISIBLE = /[\x00-\x1F\x7F-\x9F\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;
/** {@link INVISIBLE} without tab and line feed: the characters an output line may not hold raw. */
const UNSAFE = /[\x00-\x08\x0B-\x1F\x7F-\x9F\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/;
/** A colour or style sequence (SGR) at the start of a text. */
const SGR = /^\x1b\[[0-9;]{0,16}m/;
/* eslint-enable no-control-regex */

/**
 * The progress line's erase (src/cli/progress.ts): back to the line's start, erase it. It
 * passes only at the start of a write, where the progress reporter puts it.
 */
export const ERASE_LINE = '\r\x1b[K';

/**
 * The styles gwops colours its own output with (picocolors); a renderer that colours with
 * another style adds it here, or its sequences show as escapes.
 */
const OWN_STYLES = ['bold', 'dim', 'red', 'green', 'yellow', 'blue', 'cyan'] as const;

/** The exact SGR sequences of {@link OWN_STYLES}, each opening and closing code as picocolors writes it. */
const OWN_SGR: ReadonlySet<string> = (() => {
  const c = createColors(true);
  const codes = new Set<string>();
  for (const style of OWN_STYLES) {
    for (const part of c[style]('').split('\x1b')) if (part !== '') codes.add(`\x1b${part}`);
  }
  return codes;
})();

/** gwops's own terminal sequence starting at `text[i]`, if there is one (see {@link safeOutput}). */
function ownSequence(text: string, i: number): string | undefined {
  if (i === 0 && text.startsWith(ERASE_LINE)) return ERASE_LINE;
  const sgr = SGR.exec(text.slice(i, i + 20))?.[0];
  return sgr !== undefined && OWN_SGR.has(sgr) ? sgr : undefined;
}

/** The visible escape of one character: `\n`, `\r`, `\t`, else `\uXXXX`. */
function escaped(ch: string): string {
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  if (ch === '\t') return '\\t';
  return `\\u${(ch.charCodeAt(0)).toString(16).padStart(4, '0')}`;
}

/** True when `text` holds a character that is never shown raw (control, zero-width or bidi). */
export function hasInvisible(text: string): boolean {
  INVISIBLE.lastIndex = 0;
  const found = INVISIBLE.test(text);
  INVISIBLE.lastIndex = 0;
  return found;
}

/** `text` with each control, zero-width or bidi character replaced by what `replace` makes of it. */
export function mapInvisible(text: string, replace: (ch: string) => string): string {
  return text.replace(INVISIBLE, replace);
}

/**
 * `text` for inside one line: every control, zero-width and bidi character as its
 * visible escape (`\n`, `\u001b`, `\u200b`), line breaks included (tabs kept with `keepTabs`).
 */
export function escapeInvisible(text: string, keepTabs = false): string {
  return text.replace(INVISIBLE, (ch) => (keepTabs && ch === '\t' ? ch : escaped(ch)));
}

/**
 * A whole output text (one write) as it may be written: line feeds and tabs stay; with
 * `terminal` (the stream is a terminal, or colours are forced on) also gwops's own
 * sequences: the exact colour codes of its palette ({@link OWN_STYLES}) and the progress
 * line's {@link ERASE_LINE} at the start of the write. Every other control, zero-width or
 * bidi character becomes its visible escape, a carriage return or an escape sequence of
 * any other shape (hidden text `\x1b[8m`, cursor moves) whatever the colour mode. The last
 * line of defence: a name that reaches a line unescaped still cannot drive the terminal or
 * start a line of its own; renderers escape names and the gateway's text before they
 * colour them ({@link escapeInvisible}), so no sequence of the input passes as one of gwops's.
 */
export function safeOutput(text: string, terminal: boolean): string {
  if (!UNSAFE.test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; ) {
    const ch = text[i] ?? '';
    if (!UNSAFE.test(ch)) {
      out += ch;
      i += 1;
      continue;
    }
    const own = terminal ? ownSequence(text, i) : undefined;
    if (own !== undefined) {
      out += own;
      i += own.length;
    } else {
      out += escaped(ch);
      i += 1;
    }
  }
  return out;
}

/**
 * JSON text (a document JSON.stringify wrote, whose only raw line breaks are its layout)
 * with every control, zero-width and bidi character inside its strings written as a JSON
 * escape (`\u202e`): the same JSON value, safe to show. For the files gwops writes
 * directly, which do not pass through {@link safeOutput} (the plan file of `plan --out`).
 */
export function jsonInvisibleEscaped(json: string): string {
  return json.replace(INVISIBLE, (ch) => (ch === '\n' ? ch : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/**
 * An error message on one logical line: line breaks that do not start an indented
 * continuation (`\n  ...`, as gwops's own multi-line messages do) are escaped, so a name
 * inside a message cannot start a line of its own, and so is every other control,
 * zero-width or bidi character (tabs stay): an escape sequence in a gateway's error text
 * shows as `\u001b[8m` whether colours are on or off.
 */
export function messageText(text: string): string {
  return text.replace(INVISIBLE, (ch, offset: number) => {
    if (ch === '\t') return ch;
    if (ch === '\n' && /[ \t]/.test(text[offset + 1] ?? '')) return ch;
    return escaped(ch);
  });
}
