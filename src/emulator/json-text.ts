/**
 * JSON text of the emulator's answers, without re-serialising what objects share.
 *
 * The server-default subtrees are deep-frozen and shared by every object created from them
 * (defaults.ts); {@link shareTree} registers them here, and {@link jsonText} writes each
 * registered subtree's text once and reuses it. A full mapping is about 9 kB of JSON of
 * which a few hundred bytes are its own, so a list of 100,000 mappings costs the
 * serialisation of those few hundred bytes each, without a per-object cache of 9 kB
 * strings (900 MB at that size).
 */
import type { Json } from './model.js';

/** Containers of shared, deep-frozen trees. */
const shared = new WeakSet<object>();
/** Their JSON text, made on first use. */
const sharedText = new WeakMap<object, string>();

/**
 * Deep-freezes a JSON tree in place and registers every container in it as shared, so
 * {@link jsonText} serialises each of them once. Returns `value`.
 */
export function shareTree<T extends Json>(value: T): T {
  if (typeof value === 'object' && value !== null && !shared.has(value)) {
    for (const child of Object.values(value)) shareTree(child);
    Object.freeze(value);
    shared.add(value);
  }
  return value;
}

/**
 * `JSON.stringify(value)`, character for character (same member order, escapes, numbers,
 * members holding `undefined` left out and array elements holding it written as `null`),
 * for JSON data (no `toJSON`, no cycles). Shared subtrees ({@link shareTree}) are
 * serialised once and their text reused.
 */
export function jsonText(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (shared.has(value)) {
    let text = sharedText.get(value);
    if (text === undefined) {
      text = JSON.stringify(value);
      sharedText.set(value, text);
    }
    return text;
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      const item: unknown = value[i];
      out += item === undefined || typeof item === 'function' || typeof item === 'symbol' ? 'null' : jsonText(item);
    }
    return `${out}]`;
  }
  let out = '{';
  let first = true;
  for (const key of Object.keys(value)) {
    const member: unknown = (value as Record<string, unknown>)[key];
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${jsonText(member)}`;
    first = false;
  }
  return `${out}}`;
}

/** Bytes of each chunk a {@link JsonChunks} fills. */
export const JSON_CHUNK_BYTES = 64 * 1024;

/** UTF-8 text of each shared subtree, made on first use. */
const sharedBytes = new WeakMap<object, Buffer>();

/**
 * JSON text gathered as UTF-8 bytes in chunks of about {@link JSON_CHUNK_BYTES}: a shared subtree's
 * bytes are copied in as they are, encoded once for all objects, so a list of 100,000 mappings
 * costs a copy of their defaults' bytes instead of an encoding of 900 MB of text.
 */
export class JsonChunks {
  #chunk = Buffer.allocUnsafe(JSON_CHUNK_BYTES);
  #at = 0;
  #full: Buffer[] = [];

  /** True when whole chunks are waiting to be taken. */
  get ready(): boolean {
    return this.#full.length > 0;
  }

  /** Appends text. */
  text(text: string): void {
    if (text.length === 0) return;
    // A UTF-16 unit takes at most 3 bytes of UTF-8.
    if (text.length * 3 > JSON_CHUNK_BYTES - this.#at) {
      this.#flush();
      if (text.length * 3 > JSON_CHUNK_BYTES) {
        this.#full.push(Buffer.from(text, 'utf8'));
        return;
      }
    }
    this.#at += this.#chunk.write(text, this.#at, 'utf8');
  }

  /** Appends bytes (copied). */
  bytes(bytes: Buffer): void {
    let from = 0;
    while (from < bytes.length) {
      const n = Math.min(bytes.length - from, JSON_CHUNK_BYTES - this.#at);
      bytes.copy(this.#chunk, this.#at, from, from + n);
      this.#at += n;
      from += n;
      if (this.#at === JSON_CHUNK_BYTES) this.#flush();
    }
  }

  /** Appends `jsonText(value)`, its shared subtrees as their bytes. */
  json(value: unknown): void {
    this.text(this.#pending(value, ''));
  }

  /** The whole chunks gathered so far, given up. */
  take(): Buffer[] {
    const full = this.#full;
    this.#full = [];
    return full;
  }

  /** Every chunk not taken yet, the last one partly filled. */
  end(): Buffer[] {
    this.#flush();
    return this.take();
  }

  #flush(): void {
    if (this.#at === 0) return;
    this.#full.push(this.#at === JSON_CHUNK_BYTES ? this.#chunk : this.#chunk.subarray(0, this.#at));
    this.#chunk = Buffer.allocUnsafe(JSON_CHUNK_BYTES);
    this.#at = 0;
  }

  /** `pending` followed by the text of `value`: own parts returned as text, shared subtrees appended as bytes. */
  #pending(value: unknown, pending: string): string {
    if (typeof value !== 'object' || value === null) return pending + (JSON.stringify(value) ?? 'null');
    if (shared.has(value)) {
      let bytes = sharedBytes.get(value);
      if (bytes === undefined) {
        bytes = Buffer.from(jsonText(value), 'utf8');
        sharedBytes.set(value, bytes);
      }
      this.text(pending);
      this.bytes(bytes);
      return '';
    }
    let out = pending;
    if (Array.isArray(value)) {
      out += '[';
      for (let i = 0; i < value.length; i++) {
        if (i > 0) out += ',';
        const item: unknown = value[i];
        out = item === undefined || typeof item === 'function' || typeof item === 'symbol' ? `${out}null` : this.#pending(item, out);
      }
      return `${out}]`;
    }
    out += '{';
    let first = true;
    for (const key of Object.keys(value)) {
      const member: unknown = (value as Record<string, unknown>)[key];
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
      out = this.#pending(member, `${out}${first ? '' : ','}${JSON.stringify(key)}:`);
      first = false;
    }
    return `${out}}`;
  }
}
