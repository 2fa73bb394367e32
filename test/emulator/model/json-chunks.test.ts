/**
 * The emulator writes lists as UTF-8 chunks in which shared subtrees are copied as bytes
 * encoded once: the bytes must be those of JSON.stringify, whatever the values, whichever
 * subtrees are shared, and however large a piece is against the chunk size.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JSON_CHUNK_BYTES, JsonChunks, shareTree } from '../../../src/emulator/json-text.js';
import type { Json } from '../../../src/emulator/model.js';

/** Shares (deep-freezes) the subtrees of `value` chosen by `pick`, copying the rest. */
function withShared(value: Json, pick: () => boolean): Json {
  if (typeof value !== 'object' || value === null) return value;
  const copy: Json = Array.isArray(value) ? value.map((v) => withShared(v, pick)) : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withShared(v, pick)]));
  return pick() ? shareTree(copy) : copy;
}

const big = fc.constantFrom('a'.repeat(JSON_CHUNK_BYTES + 5), 'é😀"\\'.repeat(JSON_CHUNK_BYTES / 4), 'x'.repeat(JSON_CHUNK_BYTES / 3));

describe('JsonChunks', () => {
  it('writes the bytes of JSON.stringify for any values, shared or not, across chunk boundaries', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.jsonValue(), big, fc.record({ text: big, more: fc.jsonValue() })), { maxLength: 6 }), fc.array(fc.boolean(), { minLength: 1 }), (values, picks) => {
        let k = 0;
        const pick = (): boolean => picks[k++ % picks.length] ?? false;
        const chunks = new JsonChunks();
        const written = values.map((v) => withShared(v as Json, pick));
        // The same shared subtree twice (its bytes are made once and reused).
        for (const v of [...written, ...written]) chunks.json(v);
        const bytes = Buffer.concat(chunks.end());
        expect(bytes.equals(Buffer.from([...written, ...written].map((v) => JSON.stringify(v)).join(''), 'utf8'))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('hands over whole chunks as they fill, each at most the chunk size', () => {
    const chunks = new JsonChunks();
    const value = shareTree({ text: 'z'.repeat(3 * JSON_CHUNK_BYTES) });
    chunks.json({ own: 1, value });
    expect(chunks.ready).toBe(true);
    const taken = chunks.take();
    expect(taken.length).toBeGreaterThanOrEqual(3);
    for (const chunk of taken) expect(chunk.length).toBeLessThanOrEqual(JSON_CHUNK_BYTES);
    expect(Buffer.concat([...taken, ...chunks.end()]).toString('utf8')).toBe(JSON.stringify({ own: 1, value }));
  });
});
