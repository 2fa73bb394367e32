/**
 * Reads back, line by line, a JSON document laid out as src/render/json-chunks.ts writes it
 * (either layout): each line opens a container (`"key": {`, `[`), closes one (`}`, `],`) or
 * holds one whole value (`"key": 3,`, `{"index":1,…},`); each whole value is parsed with
 * `JSON.parse` on its own, so a plan file of 100,000 steps never exists as one string.
 *
 * The value built is the one `JSON.parse` gives for the whole text (own `__proto__` members
 * included, the last of two equal keys winning). Text this reader cannot follow (another
 * layout, such as a file written on one line, or text that is not JSON at all) makes
 * {@link JsonLinesReader.end} answer undefined: the caller then parses the whole text, so
 * that such a file is read, or refused with `JSON.parse`'s own message, as before.
 */
import { setOwnMember } from './own-member.js';
import { trimEdges } from './linear-text.js';

type Container = Record<string, unknown> | unknown[];

interface Frame {
  readonly container: Container;
  /** Elements or members so far. */
  count: number;
  /** True when the last element or member was followed by a comma. */
  comma: boolean;
}

/** JSON's whitespace (RFC 8259): what may stand around a line's tokens. */
const EDGES = ' \t\r';

/** A line this reader cannot follow. */
class Unfollowed extends Error {}

/** The end (exclusive) of the JSON string that starts at `start` (a `"`), or -1. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x22) return i + 1;
  }
  return -1;
}

/**
 * Builds a JSON value from the lines of its text, told one at a time ({@link line}, without
 * the line break), then {@link end}. Holds only the value built so far.
 */
export class JsonLinesReader {
  private readonly stack: Frame[] = [];
  private root: { value: unknown } | undefined;
  private failed = false;

  /** Takes the next line of the text. Never throws: a line it cannot follow is remembered for {@link end}. */
  line(text: string): void {
    if (this.failed) return;
    try {
      this.take(trimEdges(text, EDGES));
    } catch {
      this.failed = true;
      this.stack.length = 0;
      this.root = undefined;
    }
  }

  /** False once a line could not be followed (the rest need not be told). */
  get following(): boolean {
    return !this.failed;
  }

  /** The value of the whole text, or undefined when a line could not be followed or the text ended early. */
  end(): { value: unknown } | undefined {
    return this.failed || this.stack.length > 0 ? undefined : this.root;
  }

  private take(line: string): void {
    if (line === '') return;
    if (this.root !== undefined && this.stack.length === 0) throw new Unfollowed('text after the value');
    const top = this.stack[this.stack.length - 1];
    let body = line;
    let key: string | undefined;
    if (top && !Array.isArray(top.container) && line[0] !== '}') {
      const end = line[0] === '"' ? stringEnd(line, 0) : -1;
      if (end < 0) throw new Unfollowed('no member name');
      key = JSON.parse(line.slice(0, end)) as string;
      body = trimEdges(line.slice(end), EDGES);
      if (body[0] !== ':') throw new Unfollowed('no colon');
      body = trimEdges(body.slice(1), EDGES);
    }
    const comma = body.endsWith(',');
    if (comma) body = trimEdges(body.slice(0, -1), EDGES);
    if (key === undefined && (body === '}' || body === ']')) {
      if (!top || top.comma || Array.isArray(top.container) !== (body === ']')) throw new Unfollowed('unmatched close');
      this.stack.pop();
      this.placed(comma);
      return;
    }
    if (body === '{' || body === '[') {
      if (comma) throw new Unfollowed('comma after an opening');
      const container: Container = body === '{' ? {} : [];
      this.place(top, key, container);
      this.stack.push({ container, count: 0, comma: false });
      return;
    }
    this.place(top, key, JSON.parse(body));
    this.placed(comma);
  }

  /** Puts `value` into `top` (or makes it the root). */
  private place(top: Frame | undefined, key: string | undefined, value: unknown): void {
    if (!top) {
      if (this.root !== undefined) throw new Unfollowed('second value');
      this.root = { value };
      return;
    }
    if (top.count > 0 && !top.comma) throw new Unfollowed('missing comma');
    top.count++;
    top.comma = false;
    if (Array.isArray(top.container)) top.container.push(value);
    else setOwnMember(top.container, key ?? '', value);
  }

  /** Records whether the value just completed was followed by a comma. */
  private placed(comma: boolean): void {
    const top = this.stack[this.stack.length - 1];
    if (top) top.comma = comma;
    else if (comma) throw new Unfollowed('comma after the value');
  }
}
