/**
 * The pure digests (src/crypto/digest.ts), which the engine and the kind modules use, give
 * the same lowercase hex as `node:crypto` (src/crypto/node.ts, which the operations
 * hand in for large inputs) over any text, key and bytes, fed in any number of pieces.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NODE_DIGESTS } from '../../src/crypto/node.js';
import { PURE_DIGESTS, contentDigest, sha256Hex } from '../../src/crypto/digest.js';
import type { Digests } from '../../src/crypto/digest.js';

/** Text of any code points, lone surrogates included (both sides encode them as U+FFFD). */
const text = fc.string({ unit: fc.oneof(fc.constantFrom('\ud800', '\udfff', 'é', '𝄞', '\u0000'), fc.string({ unit: 'binary', maxLength: 1 })), maxLength: 200 });

const hexOf = (digests: Digests, pieces: readonly string[], key?: string): string => {
  const digest = key === undefined ? digests.sha256() : digests.hmacSha256(key);
  for (const piece of pieces) digest.update(piece);
  return digest.hex();
};

describe('pure digests', () => {
  it('SHA-256 and HMAC-SHA256 of text in pieces equal node:crypto', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 8 }), fc.option(text, { nil: undefined }), (pieces, key) => {
        expect(hexOf(PURE_DIGESTS, pieces, key)).toBe(hexOf(NODE_DIGESTS, pieces, key));
      }),
      { numRuns: 300 },
    );
  });

  it('SHA-256 of bytes equals node:crypto', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        const expected = createHash('sha256').update(bytes).digest('hex');
        expect(sha256Hex(bytes)).toBe(expected);
        expect(contentDigest(bytes)).toBe(`sha256:${expected}`);
      }),
      { numRuns: 200 },
    );
  });
});
