/**
 * The emulator's complete content as JSON (configurations.ts `EncodedContent`, the
 * `gwops-emulator.json` entry of a configuration archive: routes-transfer.ts), written and
 * read piece by piece: at 100,000 mappings of about 9 kB each the text is far beyond what
 * one string may hold.
 */
import type { Variant } from '../kinds/index.js';
import { DataArraySplitter } from '../gateway/data-array.js';
import { jsonText } from './json-text.js';
import type { ConfigContent } from './model.js';
import { emptyContent } from './model.js';
import { withSharedDefaults } from './attribute-delta.js';
import { toStoredObject } from './stored-object.js';

/**
 * The text of `JSON.stringify` of the content as configurations.ts `EncodedContent`, character for character, an object
 * a piece: `{"nextId":…,"objects":[…]}`.
 */
export function* contentJsonPieces(content: ConfigContent): Generator<string> {
  yield `{"nextId":${JSON.stringify(content.nextId)},"objects":[`;
  let first = true;
  for (const map of Object.values(content.objects)) {
    for (const obj of map.values()) {
      yield first ? jsonText(obj) : `,${jsonText(obj)}`;
      first = false;
    }
  }
  yield ']}';
}

/** The start of the text that states `nextId` as {@link contentJsonPieces} writes it. */
const NEXT_ID = /^\s*\{\s*"nextId"\s*:\s*(\d+)\s*,/;
/** Bytes of the text's start kept to read `nextId` from. */
const HEAD_BYTES = 64;

/**
 * Reads {@link contentJsonPieces}'s text (or any JSON of `EncodedContent`) from its bytes,
 * chunk by chunk, into a content: each object checked as stored-object.ts reads it and its
 * attributes sharing the server defaults of `variant` again. `nextId` is read where the
 * emulator writes it, first; the content's next id is at least one beyond its largest.
 */
export class ContentJsonReader {
  readonly #content = emptyContent();
  readonly #splitter: DataArraySplitter;
  #head = Buffer.alloc(0);
  #maxId = 0;

  /** @param bad builds the error of a text that is no encoded content */
  constructor(
    variant: Variant,
    private readonly bad: (why: string) => Error,
  ) {
    this.#splitter = new DataArraySplitter((raw) => {
      const obj = toStoredObject(raw, bad);
      this.#content.objects[obj.type].set(obj.id, { ...obj, attributes: withSharedDefaults(obj.type, variant, obj.attributes) });
      this.#maxId = Math.max(this.#maxId, Number(obj.id) || 0);
    }, 'objects');
  }

  /**
   * Consumes the next bytes.
   * @throws the error `bad` builds when they do not continue an encoded content
   */
  write(chunk: Uint8Array): void {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    if (this.#head.length < HEAD_BYTES) this.#head = Buffer.concat([this.#head, bytes.subarray(0, HEAD_BYTES - this.#head.length)]);
    try {
      this.#splitter.write(bytes);
    } catch (error) {
      if (error instanceof SyntaxError) throw this.bad('not JSON');
      throw error;
    }
  }

  /**
   * The content read.
   * @throws the error `bad` builds when the text ended before its end or held no objects
   */
  result(): ConfigContent {
    try {
      this.#splitter.end();
    } catch {
      throw this.bad('no objects, or the text ends early');
    }
    const stated = NEXT_ID.exec(this.#head.toString('latin1'))?.[1];
    const nextId = stated === undefined ? 1 : Number(stated);
    this.#content.nextId = Math.max(Number.isSafeInteger(nextId) ? nextId : 1, this.#maxId + 1);
    return this.#content;
  }
}
