/**
 * Streams the `data[]` array of a JSON:API list response element by element, so a list
 * of 20,000 full mappings (about 180 MB of JSON) never exists in memory as one string or
 * one object tree: each element's bytes are cut out and parsed with `JSON.parse` on its
 * own, and the caller may shrink it at once.
 *
 * Only the framing is done here (depth, strings and escapes are tracked to find where each
 * element of the top-level `data` array starts and ends); all parsing is `JSON.parse`.
 *
 * Given a sparse fieldset (the attribute names a caller keeps, as JSON:API's `fields[TYPE]`
 * names them), the framing also cuts every other member out of each element's `attributes`
 * object before the element is parsed: a full mapping is about 9 KB of JSON, mostly the
 * server's defaults, of which a plan compares a few hundred bytes. A member is cut only
 * when its name, read as raw bytes, is certainly not in the set; a name written with an
 * escape or cut by a chunk boundary is kept, so the result may hold more attributes than
 * asked for, never fewer.
 *
 * Most of those bytes are the same from one element to the next (every mapping carries the
 * same default subtrees), so each member of an `attributes` object of at least
 * {@link MEMO_BYTES} is remembered by its place: when the next element's member at that place
 * has the very same bytes (one native comparison), the framing jumps over it. Scanning the
 * same bytes from the same state ends in the same state, so the jump changes nothing but
 * the time. Without a fieldset the member is not parsed either: its value is parsed once,
 * deep-frozen, and shared by every element that repeats it (a list of 100,000 mappings then
 * holds one copy of each default subtree instead of 100,000). Given `plain`, the splitter
 * does neither: it scans every byte and parses every element whole, as a plain client does.
 *
 * Told that `data` holds one object (`single`), it reads a single-resource document, such as
 * the answer to a create, the same way: the object is the one element. Given a memory shared
 * from one such document to the next, each jumps over the members the one before it repeated.
 *
 * Streaming parsers from npm were measured for this and were about 5x slower than
 * `JSON.parse`, against 1.6x for this framing plus `JSON.parse` (see the closing note of
 * the commit that added it); the plan benchmark's 1.5x target rules them out.
 */
import { DocumentShapeError } from '../api/documents.js';
import type { Reduction, Remembered } from './element-reductions.js';
import { putReused, reducedText } from './element-reductions.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const ATTRIBUTES = Buffer.from('attributes');
/** Members of an `attributes` object shorter than this are scanned, never remembered. */
const MEMO_BYTES = 64;

/** The attribute names of a sparse fieldset as bytes, grouped by length for a quick test. */
class FieldNames {
  private readonly byLength = new Map<number, Buffer[]>();

  constructor(names: Iterable<string>) {
    for (const name of names) {
      const bytes = Buffer.from(name, 'utf8');
      const same = this.byLength.get(bytes.length);
      if (same) same.push(bytes);
      else this.byLength.set(bytes.length, [bytes]);
    }
  }

  /** Whether the raw name `chunk[start, end)` may be one of the names (true when escaped). */
  mayHold(chunk: Buffer, start: number, end: number): boolean {
    const same = this.byLength.get(end - start);
    if (same) for (const name of same) if (chunk.compare(name, 0, name.length, start, end) === 0) return true;
    for (let k = start; k < end; k++) if (chunk[k] === BACKSLASH) return true;
    return false;
  }
}

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
  /** Bytes of the element held in {@link elementParts}. */
  private heldBytes = 0;
  private count = 0;
  private readonly fields: FieldNames | undefined;
  /** Where the last string closed at element-member depth said `attributes`. */
  private attributesKey = false;
  /** The `attributes` object being read (depth 4). */
  private reduction: Reduction | undefined;
  /** The reduced `attributes` objects of the element being read (with a sparse fieldset). */
  private reductions: Reduction[] = [];
  /** Start (in the element) of the attribute member being read, -1 between members. */
  private memberStart = -1;
  /** Its start in the current chunk, -1 when it began in an earlier one. */
  private memberStartInChunk = -1;
  /** Its place in the `attributes` object, from 0. */
  private memberIndex = -1;
  private memberKept = false;
  /** True once the member being read has had its name read. */
  private memberNamed = false;
  /** The remembered member jumped over, when the member being read is one. */
  private memberRemembered: Remembered | undefined;
  /** Bytes from its start to the end of its name (-1 when unknown). */
  private memberNameEnd = -1;
  /** True when the next string at attribute depth is a member name. */
  private expectName = false;
  /** Start, in the current chunk, of the string being read at depth 3 or 4 (-1: none, or begun in an earlier chunk). */
  private stringStart = -1;
  /** The previous element's long `attributes` members, by place (shared with other splitters when given a memory). */
  private readonly remembered: (Remembered | undefined)[];

  /** False when told to be plain: nothing is remembered. */
  private readonly remembers: boolean;

  /** True when `member` holds one resource object, the one element, instead of an array. */
  private readonly single: boolean;

  /**
   * @param onElement receives each element, parsed (a reused member's value is shared and
   *   frozen: do not change it)
   * @param member the top-level member holding the array (`objects` for the emulator's own
   *   configuration JSON)
   * @param fields a sparse fieldset: the attribute names to keep in each element's
   *   `attributes` (others may be left out unparsed); without it elements are whole
   * @param options `plain`: remember nothing, scan every byte and parse every element whole;
   *   `single`: `member` holds one object (a single-resource document such as a create's
   *   answer), delivered as the one element; `memory`: where the long members are
   *   remembered, shared by every splitter given it, so each document of a run of alike
   *   documents jumps over what the one before it repeated (splitters sharing a memory must
   *   be given the same `fields`)
   */
  constructor(
    private readonly onElement: (element: unknown) => void,
    private readonly member = 'data',
    fields?: Iterable<string>,
    options: { readonly plain?: boolean; readonly single?: boolean; readonly memory?: (Remembered | undefined)[] } = {},
  ) {
    this.fields = fields === undefined ? undefined : new FieldNames(fields);
    this.remembers = options.plain !== true;
    this.single = options.single === true;
    this.remembered = options.memory ?? [];
  }

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
    this.stringStart = -1;
    this.memberStartInChunk = -1;
    const fields = this.fields;
    // The element's byte at chunk[i] is byte i + base of the element.
    let base = this.heldBytes;
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
          // Read as JSON reads it, escapes included.
          this.lastKey = JSON.parse(`"${Buffer.concat(this.keyParts).toString('utf8')}"`) as string;
          this.keyParts = [];
          this.keyStart = -1;
        } else if (this.depth === 3 && this.inData) {
          this.attributesKey = this.stringStart >= 0 && chunk.compare(ATTRIBUTES, 0, ATTRIBUTES.length, this.stringStart, end) === 0;
        } else if (this.depth === 4 && this.memberStart >= 0 && !this.memberNamed) {
          this.memberNamed = true;
          this.memberKept = fields === undefined || this.stringStart < 0 || fields.mayHold(chunk, this.stringStart, end);
          this.memberNameEnd = this.memberStartInChunk >= 0 ? end + 1 - this.memberStartInChunk : -1;
        }
        i = end + 1;
        continue;
      }
      const c = chunk[i];
      if (c === QUOTE) {
        if (this.expectName && this.depth === 4) {
          this.expectName = false;
          this.memberIndex += 1;
          const known = this.remembered[this.memberIndex];
          if (known !== undefined && i + known.bytes.length <= chunk.length && chunk.compare(known.bytes, 0, known.bytes.length, i, i + known.bytes.length) === 0) {
            // The same member as the previous element's at this place: jump to its end.
            this.startMember(i, base, known.kept, known);
            i += known.bytes.length;
            continue;
          }
          this.startMember(i, base, false, undefined);
        }
        this.inString = true;
        if (this.depth === 1) this.keyStart = i + 1;
        else this.stringStart = i + 1;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (this.depth === 1 && c === (this.single ? OPEN_BRACE : OPEN_BRACKET) && this.lastKey === this.member) {
          this.inData = true;
          this.sawData = true;
          if (this.single) {
            // The object is read as the one element of an array around it: one level deeper.
            this.elementStart = i;
            base = -i;
            this.depth += 1;
          }
        } else if (this.inData && this.depth === 2) {
          this.elementStart = i;
          base = -i;
        } else if (this.depth === 3 && c === OPEN_BRACE && this.attributesKey && this.inData) {
          this.reduction = { open: i + base, close: -1, kept: [], reused: [] };
          this.expectName = true;
          this.memberStart = -1;
          this.memberIndex = -1;
        }
        this.depth += 1;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        this.depth -= 1;
        if (this.reduction !== undefined && this.depth === 3) {
          this.endMember(chunk, i, base);
          this.reduction.close = i + base;
          if (fields !== undefined || this.reduction.reused.length > 0) this.reductions.push(this.reduction);
          this.reduction = undefined;
          this.expectName = false;
        } else if (this.inData && this.depth === 2 && this.elementStart >= 0) {
          this.elementParts.push(chunk.subarray(this.elementStart, i + 1));
          this.deliver();
          if (this.single) {
            this.depth -= 1;
            this.inData = false;
          }
        } else if (this.inData && this.depth === 1) {
          this.inData = false;
        }
      } else if (c === COMMA && this.reduction !== undefined && this.depth === 4) {
        this.endMember(chunk, i, base);
        this.expectName = true;
      }
      i += 1;
    }
    if (this.elementStart >= 0) {
      const rest = Buffer.from(chunk.subarray(this.elementStart));
      this.elementParts.push(rest);
      this.heldBytes += rest.length;
    }
    if (this.keyStart >= 0 && this.inString) this.keyParts.push(Buffer.from(chunk.subarray(this.keyStart)));
  }

  /** Starts an attribute member at chunk[i]; a remembered one comes with its name read and whether it is kept. */
  private startMember(i: number, base: number, kept: boolean, remembered: Remembered | undefined): void {
    this.memberStart = i + base;
    this.memberStartInChunk = i;
    this.memberNamed = remembered !== undefined;
    this.memberKept = kept;
    this.memberRemembered = remembered;
    this.memberNameEnd = -1;
  }

  /**
   * Ends the attribute member being read before chunk[i]: keeps its range when its name may
   * be asked for, and remembers a long one that was scanned (not one that began in an earlier chunk).
   */
  private endMember(chunk: Buffer, i: number, base: number): void {
    if (this.memberStart < 0) return;
    const kept = this.memberKept || !this.memberNamed;
    if (kept && this.fields !== undefined) this.reduction?.kept.push([this.memberStart, i + base]);
    const remembered = this.memberRemembered;
    if (remembered) {
      if (this.fields === undefined) this.reduction?.reused.push({ start: this.memberStart, end: i + base, member: remembered });
    } else if (this.remembers && this.memberStartInChunk >= 0 && this.memberNameEnd > 0 && i - this.memberStartInChunk >= MEMO_BYTES) {
      this.remembered[this.memberIndex] = { bytes: Buffer.from(chunk.subarray(this.memberStartInChunk, i)), nameEnd: this.memberNameEnd, kept };
    }
    this.memberStart = -1;
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
    if (!this.sawData) throw new DocumentShapeError(`document without a ${this.member} ${this.single ? 'object' : 'array'}`);
    if (this.depth !== 0 || this.inString || this.inData) throw new DocumentShapeError('truncated document');
  }

  private deliver(): void {
    const element = this.elementParts.length === 1 ? (this.elementParts[0] as Buffer) : Buffer.concat(this.elementParts);
    const reductions = this.reductions;
    const text = reductions.length === 0 ? element.toString('utf8') : reducedText(element, reductions);
    this.elementParts = [];
    this.heldBytes = 0;
    this.reductions = [];
    this.elementStart = -1;
    this.count += 1;
    const parsed: unknown = JSON.parse(text);
    if (this.fields === undefined && reductions.length > 0) putReused(parsed, reductions);
    this.onElement(parsed);
  }
}
