/**
 * Text from a gateway or a manifest (object names, validator messages, values) shown
 * without letting it drive a terminal or a CI log: the characters that are never written
 * raw, and their visible escapes. Every output of the CLI passes through
 * {@link safeOutput} (src/cli/io.ts), and the renderers put names and messages into their
 * lines through {@link escapeInvisible}, so a name cannot break a line, start a GitHub
 * workflow command (`::warning::`), clear the screen or hide a character
 * (README.md "Output contract").
 */

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
/** What gwops itself writes to a terminal: colours (SGR) and the progress line's carriage return and erase. */
const TERMINAL_SEQUENCE = /^(?:\x1b\[[0-9;]*m|\r\x1b\[K|\r)/;
/* eslint-enable no-control-regex */

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

/**
 * `text` for inside one line: every control, zero-width and bidi character as its
 * visible escape (`\n`, `\u001b`, `\u200b`), line breaks included (tabs kept with `keepTabs`).
 */
export function escapeInvisible(text: string, keepTabs = false): string {
  return text.replace(INVISIBLE, (ch) => (keepTabs && ch === '\t' ? ch : escaped(ch)));
}

/**
 * A whole output text as it may be written: line feeds and tabs stay; with `terminal`
 * (the stream is a terminal) also gwops's own colour and progress sequences; every other
 * control, zero-width or bidi character becomes its visible escape. The last line of
 * defence: a name that reaches a line unescaped still cannot drive the terminal.
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
    const own = terminal ? TERMINAL_SEQUENCE.exec(text.slice(i, i + 16)) : null;
    if (own) {
      out += own[0];
      i += own[0].length;
    } else {
      out += escaped(ch);
      i += 1;
    }
  }
  return out;
}

/**
 * An error message on one logical line: line breaks that do not start an indented
 * continuation (`\n  ...`, as gwops's own multi-line messages do) are escaped, so a name
 * inside a message cannot start a line of its own.
 */
export function messageText(text: string): string {
  return text.replace(/\r?\n(?![ \t])|\r/g, (m) => escapeInvisible(m));
}
