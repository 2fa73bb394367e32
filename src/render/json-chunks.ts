/**
 * A JSON document written as a sequence of chunks instead of one string: the same bytes as
 * `jsonDocument` (src/core/json-document.ts), so a document of 100,000 plan steps never exists
 * whole in memory. A value holding up to {@link PIECE_NODES} values (a plan step, a call, a
 * desired object) is serialised whole with `JSON.stringify`; a larger one (the document, a
 * call batching thousands of links) is walked member by member and element by element. The
 * pieces are gathered into chunks of at most {@link CHUNK_SIZE} characters (a piece longer
 * than that, such as a long string, is a chunk of its own). A chunk always ends between two JSON
 * tokens, never inside a string, so a writer that redacts each write as a whole
 * (src/cli/io.ts `redactingIO`) still sees every value whole.
 */

/** Characters (UTF-16 code units) a chunk gathers at most, unless one element alone is longer. */
export const CHUNK_SIZE = 64 * 1024;

/**
 * An array whose elements are made only as they are written: `map` of each item. It
 * serialises as the mapped array with `JSON.stringify` too (`toJSON`), so a value holding
 * one gives the same text either way.
 */
export class MappedArray<T> {
  constructor(
    readonly items: readonly T[],
    readonly map: (item: T) => unknown,
  ) {}

  toJSON(): unknown[] {
    return this.items.map((item) => this.map(item));
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof MappedArray) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';

/** What `JSON.stringify` leaves out as an object member (and writes as `null` in an array). */
const omitted = (value: unknown): boolean => value === undefined || typeof value === 'function' || typeof value === 'symbol';

/**
 * How a document is laid out: `indented` as `JSON.stringify(…, null, 2)`; `lines` indented
 * down to the elements of its lists of objects, each such element (a step, a call, a desired
 * object) and each other value serialised whole written on one line without spaces.
 */
export type JsonLayout = 'indented' | 'lines';

/** `value` serialised whole, as it reads nested at `indent` (JSON strings hold no raw newline, so every newline is indentation). */
function leaf(value: unknown, indent: string, layout: JsonLayout): string {
  if (layout === 'lines') return JSON.stringify(value) ?? 'null';
  const text = JSON.stringify(value, null, 2) ?? 'null';
  return indent === '' ? text : text.replaceAll('\n', `\n${indent}`);
}

/** Values (containers and scalars) a value may hold and still be serialised in one piece. */
const PIECE_NODES = 1000;

/** True when `value` holds at most {@link PIECE_NODES} values: it is serialised whole, else walked. */
function small(value: unknown): boolean {
  let left = PIECE_NODES;
  const visit = (node: unknown): boolean => {
    if (--left < 0 || node instanceof MappedArray) return false;
    if (Array.isArray(node)) return node.every(visit);
    if (isPlainObject(node)) {
      for (const key in node) if (!visit(node[key])) return false;
    }
    return true;
  };
  return visit(value);
}

const isContainer = (value: unknown): boolean => Array.isArray(value) || value instanceof MappedArray || isPlainObject(value);

/** True when `value` (an element of an array when `element`) is written member by member or element by element. */
function walked(value: unknown, element: boolean, layout: JsonLayout): boolean {
  if (value instanceof MappedArray) return true;
  if (!Array.isArray(value) && !isPlainObject(value)) return false;
  if (!small(value)) return true;
  return layout === 'lines' && !element && (isPlainObject(value) || value.some(isContainer));
}

/** The pieces of `value` at `indent` in `layout` (an element of an array when `element`). */
function* pieces(value: unknown, indent: string, layout: JsonLayout, element: boolean): Generator<string> {
  const inner = `${indent}  `;
  if (!walked(value, element, layout)) {
    yield leaf(value, indent, layout);
  } else if (value instanceof MappedArray || Array.isArray(value)) {
    const items: readonly unknown[] = value instanceof MappedArray ? value.items : value;
    if (items.length === 0) {
      yield '[]';
      return;
    }
    // Elements serialised whole are gathered into one piece of at most CHUNK_SIZE characters
    // (unless one alone is longer): a piece each, through every generator above, cost more than
    // serialising them (100,000 desired objects in a plan file).
    let gathered = '';
    for (let i = 0; i < items.length; i++) {
      const item: unknown = value instanceof MappedArray ? value.map(items[i]) : items[i];
      const before = `${i === 0 ? '[' : ','}\n${inner}`;
      if (!omitted(item) && walked(item, true, layout)) {
        if (gathered.length > 0) yield gathered;
        gathered = '';
        yield before;
        yield* pieces(item, inner, layout, true);
        continue;
      }
      const text = before + (omitted(item) ? 'null' : leaf(item, inner, layout));
      if (gathered.length > 0 && gathered.length + text.length > CHUNK_SIZE) {
        yield gathered;
        gathered = '';
      }
      gathered += text;
    }
    if (gathered.length > 0) yield gathered;
    yield `\n${indent}]`;
  } else if (isPlainObject(value)) {
    const keys = Object.keys(value).filter((key) => !omitted(value[key]));
    for (const [i, key] of keys.entries()) {
      yield `${i === 0 ? '{' : ','}\n${inner}${JSON.stringify(key)}: `;
      yield* pieces(value[key], inner, layout, false);
    }
    yield keys.length === 0 ? '{}' : `\n${indent}}`;
  }
}

/**
 * `body` as one JSON document in chunks: `formatVersion` first (a `formatVersion` member of
 * `body` gives way to it), then `body`'s members in their order; two-space indentation, a
 * trailing newline. In the `indented` layout the chunks joined are exactly
 * `jsonDocument(formatVersion, body)`; in either they parse to the same value.
 * Arrays and {@link MappedArray}s are written element by element.
 * @param formatVersion the version of the document's shape, e.g. `'1.0'`
 * @param layout see {@link JsonLayout}
 * @returns chunks of at most {@link CHUNK_SIZE} characters, except a piece longer than that alone
 */
export function* jsonDocumentChunks(formatVersion: string, body: Readonly<Record<string, unknown>>, layout: JsonLayout = 'indented'): Generator<string> {
  const { formatVersion: _own, ...members } = body;
  const all = function* (): Generator<string> {
    yield* pieces({ formatVersion, ...members }, '', layout, false);
    yield '\n';
  };
  yield* gatherChunks(all());
}

/**
 * Gathers `pieces` into chunks of at most {@link CHUNK_SIZE} characters, never splitting a
 * piece (a piece longer than that is a chunk of its own). Joined, the chunks are the pieces
 * joined; at least one chunk (empty when there is no piece).
 */
export function* gatherChunks(pieces: Iterable<string>): Generator<string> {
  let chunk = '';
  for (const piece of pieces) {
    if (chunk.length > 0 && chunk.length + piece.length > CHUNK_SIZE) {
      yield chunk;
      chunk = '';
    }
    chunk += piece;
  }
  yield chunk;
}
