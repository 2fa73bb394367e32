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
