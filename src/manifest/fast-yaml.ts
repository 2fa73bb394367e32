/**
 * A fast reader for the plain subset of YAML that manifests are written in: block maps and
 * sequences, single-line flow collections, plain and quoted single-line scalars, literal
 * and folded block scalars, comments and `---` document markers, with the YAML 1.2 core
 * schema (the `yaml` package's default).
 *
 * Why it exists: the `yaml` package's Document API reads about 2 MB/s here, and issue 3 asks
 * for 10,000 mappings (about 5 MB) validated in under 2 s. Whenever a file uses anything
 * outside this subset (anchors, aliases, tags, merge keys, multi-line plain or quoted
 * scalars, multi-line flow collections, complex keys, directives, duplicate keys, tabs in
 * indentation, odd block-scalar headers), {@link fastParse} returns undefined and the caller
 * reads the file with the `yaml` package instead, which also reports every syntax error.
 * A differential test checks that both give the same values.
 */

/** One document read by the fast path. */
export interface FastDocument {
  readonly value: unknown;
  /** 1-based position of the document's first content node. */
  readonly line: number;
  readonly column: number;
}

class Unsupported extends Error {}

interface Line {
  /** 0-based line number. */
  readonly no: number;
  /** Column of the first content character (0-based). */
  indent: number;
  /** Text from `indent` to the end of the line (no line break). */
  text: string;
}

const fail = (): never => {
  throw new Unsupported();
};

const INT = /^[-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;

/** Resolves a plain scalar by the YAML 1.2 core schema. */
export function resolvePlain(text: string): unknown {
  switch (text) {
    case '':
    case '~':
    case 'null':
    case 'Null':
    case 'NULL':
      return null;
    case 'true':
    case 'True':
    case 'TRUE':
      return true;
    case 'false':
    case 'False':
    case 'FALSE':
      return false;
    case '.inf':
    case '.Inf':
    case '.INF':
    case '+.inf':
    case '+.Inf':
    case '+.INF':
      return Infinity;
    case '-.inf':
    case '-.Inf':
    case '-.INF':
      return -Infinity;
    case '.nan':
    case '.NaN':
    case '.NAN':
      return NaN;
  }
  const c = text.charCodeAt(0);
  // Only text starting with a digit, sign or dot can be a number.
  if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46) {
    if (INT.test(text)) return Number(text);
    if (/^0o[0-7]+$/.test(text)) return parseInt(text.slice(2), 8);
    if (/^0x[0-9a-fA-F]+$/.test(text)) return parseInt(text.slice(2), 16);
    if (FLOAT.test(text)) return parseFloat(text);
  }
  return text;
}

/** Characters that may not start a plain scalar on the fast path. */
const PLAIN_START_BAD = new Set(['&', '*', '!', '|', '>', "'", '"', '%', '@', '`', '{', '}', '[', ']', '#', ',', '?']);

function checkPlain(text: string): string {
  const first = text[0];
  if (first === undefined) return text;
  if (PLAIN_START_BAD.has(first)) fail();
  if (first === '-' && (text.length === 1 || text[1] === ' ')) fail();
  if (text.includes(': ') || text.endsWith(':') || text.includes('\t')) fail();
  return text;
}

/** Strips a trailing ` # comment` from a plain value. */
function stripComment(text: string): string {
  const hash = text.indexOf(' #');
  return (hash >= 0 ? text.slice(0, hash) : text).trimEnd();
}

function restIsComment(rest: string): void {
  const t = rest.trim();
  if (t !== '' && !t.startsWith('#')) fail();
}

const ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};

/** Reads a quoted scalar starting at `text[start]`; returns the value and the index after the closing quote. */
function readQuoted(text: string, start: number): [string, number] {
  const quote = text[start];
  let out = '';
  let i = start + 1;
  if (quote === "'") {
    for (;;) {
      const j = text.indexOf("'", i);
      if (j < 0) fail();
      out += text.slice(i, j);
      if (text[j + 1] === "'") {
        out += "'";
        i = j + 2;
      } else {
        return [out, j + 1];
      }
    }
  }
  for (;;) {
    const ch = text[i];
    if (ch === undefined) fail();
    if (ch === '"') return [out, i + 1];
    if (ch === '\\') {
      const e = text[i + 1] ?? '';
      const simple = ESCAPES[e];
      if (simple !== undefined) {
        out += simple;
        i += 2;
        continue;
      }
      const len = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
      const hex = text.slice(i + 2, i + 2 + len);
      if (len === 0 || hex.length !== len || !/^[0-9a-fA-F]+$/.test(hex)) fail();
      out += String.fromCodePoint(parseInt(hex, 16));
      i += 2 + len;
      continue;
    }
    out += ch;
    i++;
  }
}

/** Reads a flow collection or scalar at `text[i]` (single line); returns value and next index. */
function readFlow(text: string, i: number): [unknown, number] {
  const skip = (k: number): number => {
    while (text[k] === ' ') k++;
    return k;
  };
  i = skip(i);
  const ch = text[i];
  if (ch === '[') {
    const out: unknown[] = [];
    i = skip(i + 1);
    while (text[i] !== ']') {
      const [v, next] = readFlow(text, i);
      out.push(v);
      i = skip(next);
      if (text[i] === ',') i = skip(i + 1);
      else if (text[i] !== ']') fail();
    }
    return [out, i + 1];
  }
  if (ch === '{') {
    const out: Record<string, unknown> = {};
    i = skip(i + 1);
    while (text[i] !== '}') {
      const [k, afterKey] = readFlow(text, i);
      if (typeof k !== 'string' || Object.prototype.hasOwnProperty.call(out, k)) fail();
      let j = skip(afterKey);
      if (text[j] !== ':') fail();
      j = skip(j + 1);
      let v: unknown = null;
      if (text[j] !== ',' && text[j] !== '}') [v, j] = readFlow(text, j);
      out[k as string] = v;
      i = skip(j);
      if (text[i] === ',') i = skip(i + 1);
      else if (text[i] !== '}') fail();
    }
    return [out, i + 1];
  }
  if (ch === '"' || ch === "'") return readQuoted(text, i);
  if (ch === undefined) fail();
  // Plain scalar in flow context: ends at , [ ] { } or ': ' / ':' before an indicator, or ' #'.
  let j = i;
  for (; j < text.length; j++) {
    const c = text[j];
    if (c === ',' || c === '[' || c === ']' || c === '{' || c === '}') break;
    if (c === ':' && (j + 1 === text.length || ' ,[]{}'.includes(text[j + 1] ?? ''))) break;
    if (c === '#' && text[j - 1] === ' ') fail();
  }
  const raw = text.slice(i, j).trimEnd();
  if (raw === '' || PLAIN_START_BAD.has(raw[0] ?? '') || raw.includes('\t') || raw === '-' || raw.startsWith('- ')) fail();
  return [resolvePlain(raw), j];
}

/** The reader over the lines of one document. */
class Reader {
  private pos = 0;
  constructor(
    private readonly lines: Line[],
    private readonly raw: readonly string[],
  ) {}

  /** The next content line (skipping blank and comment lines), without consuming it. */
  peek(): Line | undefined {
    while (this.pos < this.lines.length) {
      const line = this.lines[this.pos];
      if (line && line.text !== '' && !line.text.startsWith('#')) return line;
      this.pos++;
    }
    return undefined;
  }

  done(): boolean {
    return this.peek() === undefined;
  }

  /** A block node whose lines are indented at least `min`. */
  block(min: number): unknown {
    const line = this.peek();
    if (!line || line.indent < min) return null;
    if (line.text === '-' || line.text.startsWith('- ')) return this.sequence(line.indent);
    if (this.keyOf(line)) return this.map(line.indent);
    // A lone scalar or flow collection as the whole node.
    this.pos++;
    const value = this.inlineValue(line.text, line);
    const next = this.peek();
    if (next && next.indent >= min) fail();
    return value;
  }

  /** Splits `key: rest` when the line is a map entry; undefined otherwise. */
  keyOf(line: Line): { key: string; rest: string } | undefined {
    const text = line.text;
    const first = text[0];
    if (first === '"' || first === "'") {
      const [key, end] = readQuoted(text, 0);
      if (text[end] !== ':' || (end + 1 < text.length && text[end + 1] !== ' ')) return undefined;
      return { key, rest: text.slice(end + 1) };
    }
    let colon = text.indexOf(': ');
    if (colon < 0 && text.endsWith(':')) colon = text.length - 1;
    if (colon < 0) return undefined;
    const key = text.slice(0, colon).trimEnd();
    if (key.includes(' #') || PLAIN_START_BAD.has(key[0] ?? '') || key[0] === '-' || key === '<<' || key.includes('\t')) fail();
    if (typeof resolvePlain(key) !== 'string') fail();
    return { key, rest: text.slice(colon + 1) };
  }

  map(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (;;) {
      const line = this.peek();
      if (!line || line.indent < indent) return out;
      if (line.indent > indent) fail();
      const entry = this.keyOf(line);
      if (!entry) fail();
      const { key, rest } = entry as { key: string; rest: string };
      if (Object.prototype.hasOwnProperty.call(out, key)) fail();
      this.pos++;
      out[key] = this.valueAfter(rest, line, indent, true);
    }
  }

  sequence(indent: number): unknown[] {
    const out: unknown[] = [];
    for (;;) {
      const line = this.peek();
      if (!line || line.indent < indent) return out;
      if (line.indent > indent) fail();
      // A sequence at its parent key's indentation ends at the next key.
      if (!(line.text === '-' || line.text.startsWith('- '))) return out;
      const rest = line.text.slice(1);
      const pad = rest.length - rest.trimStart().length;
      const inner = rest.trimStart();
      if (inner === '' || inner.startsWith('#')) {
        this.pos++;
        out.push(this.block(indent + 1));
        continue;
      }
      if (inner.startsWith('- ') || inner === '-' || (!'[{"\'|>'.includes(inner[0] ?? '') && this.keyOf({ no: line.no, indent: 0, text: inner }))) {
        // `- key: value` or `- - item`: the rest of the line starts a nested block node.
        line.indent = indent + 1 + pad;
        line.text = inner;
        out.push(this.block(line.indent));
        continue;
      }
      this.pos++;
      out.push(this.valueAfter(rest, line, indent, false));
    }
  }

  /** The value after `key:` or `- `: inline, block scalar, or a nested block on the next lines. */
  valueAfter(rest: string, line: Line, indent: number, inMap: boolean): unknown {
    const t = rest.trimStart();
    if (t === '' || t.startsWith('#')) {
      const next = this.peek();
      if (!next) return null;
      if (next.indent > indent) return this.block(indent + 1);
      // A sequence may sit at the same indentation as its map key.
      if (inMap && next.indent === indent && (next.text === '-' || next.text.startsWith('- '))) return this.sequence(indent);
      return null;
    }
    if (t[0] === '|' || t[0] === '>') return this.blockScalar(t, indent);
    const value = this.inlineValue(t, line);
    const next = this.peek();
    if (next && next.indent > indent) fail(); // multi-line plain scalar, or an error: let `yaml` decide
    return value;
  }

  inlineValue(text: string, _line: Line): unknown {
    const first = text[0];
    if (first === '[' || first === '{' || first === '"' || first === "'") {
      const [value, end] = readFlow(text, 0);
      restIsComment(text.slice(end));
      return value;
    }
    return resolvePlain(checkPlain(stripComment(text)));
  }

  blockScalar(header: string, parentIndent: number): string {
    const m = /^([|>])([-+]?)(\s+#.*)?\s*$/.exec(header);
    if (!m) fail();
    const [, style, chomp] = m as unknown as [string, string, string];
    // Content: following raw lines until one is less indented than the content indent.
    const start = this.pos;
    let contentIndent = -1;
    const body: string[] = [];
    let i = start;
    for (; i < this.lines.length; i++) {
      const line = this.lines[i] as Line;
      const raw = this.raw[line.no] ?? '';
      if (raw.trim() === '') {
        if (contentIndent >= 0 && raw.length > contentIndent) fail();
        body.push(raw.length > contentIndent && contentIndent >= 0 ? raw.slice(contentIndent) : '');
        continue;
      }
      if (contentIndent < 0) {
        if (line.indent <= parentIndent) break;
        contentIndent = line.indent;
      }
      if (line.indent < contentIndent) break;
      body.push(raw.slice(contentIndent));
    }
    this.pos = i;
    // Trailing blank lines belong to the chomping, not the content.
    let end = body.length;
    while (end > 0 && body[end - 1] === '') end--;
    const trailing = body.length - end;
    const content = body.slice(0, end);
    if (content.length === 0) return chomp === '+' ? '\n'.repeat(trailing) : '';
    if (body.slice(0, end).some((l) => l.startsWith('\t'))) fail();
    let text: string;
    if (style === '|') {
      text = content.join('\n');
    } else {
      if (content.some((l) => l.startsWith(' ')) || content[0] === '') fail();
      text = '';
      for (let k = 0; k < content.length; k++) {
        const l = content[k] ?? '';
        if (k === 0) text = l;
        else if (l === '') text += '\n';
        else text += content[k - 1] === '' ? l : ' ' + l;
      }
    }
    if (chomp === '-') return text;
    if (chomp === '+') return text + '\n'.repeat(trailing + 1);
    return text + '\n';
  }
}

/**
 * Reads every document of `text` on the fast path. Returns undefined when the text uses
 * anything outside the supported subset, or is not valid YAML; the caller then uses the
 * `yaml` package. Empty documents (no content, or just `null`) are left out.
 */
export function fastParse(text: string): FastDocument[] | undefined {
  if (text.includes('\t') || text.includes('\r') || text.charCodeAt(0) === 0xfeff) return undefined;
  const raw = text.split('\n');
  const docs: FastDocument[] = [];
  let current: Line[] = [];
  const flush = (): void => {
    const reader = new Reader(current, raw);
    const first = reader.peek();
    if (first) {
      // Read the position first: reading may re-indent the line (`- key: value`).
      const line = first.no + 1;
      const column = first.indent + 1;
      const value = reader.block(0);
      if (!reader.done()) fail();
      if (value !== null) docs.push({ value, line, column });
    }
    current = [];
  };
  try {
    for (let no = 0; no < raw.length; no++) {
      const l = raw[no] ?? '';
      if (l.startsWith('---') && (l.length === 3 || l[3] === ' ')) {
        restIsComment(l.slice(3));
        flush();
        continue;
      }
      if (l.startsWith('...') || l.startsWith('%')) fail();
      const trimmed = l.trimStart();
      current.push({ no, indent: l.length - trimmed.length, text: trimmed.trimEnd() });
    }
    flush();
    return docs;
  } catch {
    // Unsupported input, or anything odd (e.g. an escape beyond Unicode): `yaml` decides.
    return undefined;
  }
}
