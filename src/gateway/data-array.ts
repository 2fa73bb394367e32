/**
 * Streams the `data[]` array of a JSON:API list response element by element, so a list
 * of 20,000 full mappings (about 180 MB of JSON) never exists in memory as one string or
 * one object tree: each element's bytes are cut out and parsed with `JSON.parse` on its
 * own, and the caller may shrink it at once.
 *
 * Only the framing is done here (depth, strings and escapes are tracked to find where each
 * element of the top-level `data` array starts and ends); all parsing is `JSON.parse`.
 * Streaming parsers from npm were measured for this and were about 5x slower than
 * `JSON.parse`, against 1.6x for this framing plus `JSON.parse` (see the closing note of
 * the commit that added it); the plan benchmark's 1.5x target rules them out.
 */
import { DocumentShapeError } from '../api/documents.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Incremental splitter: feed it the body's chunks with {@link write}, then call
 * {@link end}. `onElement` receives each element of the top-level `data` array (or of
 * another member's), parsed.
 */
export class DataArraySplitter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Bytes of the top-level key being read (depth 1 strings only). */
  private keyParts: Buffer[] = [];
  private lastKey = '';
  private keyStart = -1;
  /** True while inside the top-level `data` array. */
  private inData = false;
  private sawData = false;
  /** Bytes of the element being read, across chunks. */
  private elementParts: Buffer[] = [];
  private elementStart = -1;
  private count = 0;

  /**
   * @param onElement receives each element, parsed
   * @param member the top-level member holding the array (`objects` for the emulator's own
   *   configuration JSON)
   */
  constructor(
    private readonly onElement: (element: unknown) => void,
    private readonly member = 'data',
  ) {}

  /** Number of elements delivered so far. */
  get elements(): number {
    return this.count;
  }

  /**
   * Consumes one chunk of the body.
   * @throws SyntaxError when an element is not valid JSON
   */
  write(chunk: Buffer): void {
    this.elementStart = this.elementParts.length > 0 ? 0 : -1;
    this.keyStart = this.keyParts.length > 0 ? 0 : -1;
    let i = 0;
    if (this.inString && this.escaped) {
      // The previous chunk ended with an escaping backslash: this chunk's first byte is escaped.
      this.escaped = false;
      i = 1;
    }
    while (i < chunk.length) {
      if (this.inString) {
        const end = this.closingQuote(chunk, i);
        if (end < 0) break;
        this.inString = false;
        if (this.depth === 1 && this.keyStart >= 0) {
          this.keyParts.push(chunk.subarray(this.keyStart, end));
          this.lastKey = Buffer.concat(this.keyParts).toString('utf8');
          this.keyParts = [];
          this.keyStart = -1;
        }
        i = end + 1;
        continue;
      }
      const c = chunk[i];
      if (c === QUOTE) {
        this.inString = true;
        if (this.depth === 1) this.keyStart = i + 1;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (this.depth === 1 && c === OPEN_BRACKET && this.lastKey === this.member) {
          this.inData = true;
          this.sawData = true;
        } else if (this.inData && this.depth === 2) {
          this.elementStart = i;
        }
        this.depth += 1;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        this.depth -= 1;
        if (this.inData && this.depth === 2 && this.elementStart >= 0) {
          this.elementParts.push(chunk.subarray(this.elementStart, i + 1));
          this.deliver();
        } else if (this.inData && this.depth === 1) {
          this.inData = false;
        }
      }
      i += 1;
    }
    if (this.elementStart >= 0) this.elementParts.push(Buffer.from(chunk.subarray(this.elementStart)));
    if (this.keyStart >= 0 && this.inString) this.keyParts.push(Buffer.from(chunk.subarray(this.keyStart)));
  }

  /**
   * Index of the quote that closes the string being read, searching from `from` (most
   * bytes of a JSON:API document are inside strings, so this skips them with the native
   * `indexOf`); -1 when the string goes on past the chunk, with {@link escaped} set when
   * the chunk ends in an escaping backslash. A quote closes the string when an even number
   * of backslashes precedes it.
   */
  private closingQuote(chunk: Buffer, from: number): number {
    let search = from;
    for (;;) {
      const quote = chunk.indexOf(QUOTE, search);
      if (quote < 0) {
        let backslashes = 0;
        for (let k = chunk.length - 1; k >= from && chunk[k] === BACKSLASH; k--) backslashes += 1;
        this.escaped = backslashes % 2 === 1;
        return -1;
      }
      let backslashes = 0;
      for (let k = quote - 1; k >= from && chunk[k] === BACKSLASH; k--) backslashes += 1;
      if (backslashes % 2 === 0) return quote;
      search = quote + 1;
    }
  }

  /**
   * Checks that the body ended as a complete document with a `data` array.
   * @throws DocumentShapeError otherwise
   */
  end(): void {
    if (!this.sawData) throw new DocumentShapeError(`document without a ${this.member} array`);
    if (this.depth !== 0 || this.inString || this.inData) throw new DocumentShapeError('truncated document');
  }

  private deliver(): void {
    const text = this.elementParts.length === 1 ? this.elementParts[0]?.toString('utf8') : Buffer.concat(this.elementParts).toString('utf8');
    this.elementParts = [];
    this.elementStart = -1;
    this.count += 1;
    this.onElement(JSON.parse(text ?? ''));
  }
}
