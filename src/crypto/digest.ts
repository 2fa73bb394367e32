/**
 * Digests of text and bytes: SHA-256, and HMAC-SHA256 keyed by a secret, in pure
 * JavaScript (@noble/hashes), so that the pure engine (src/engine/) and the kind modules
 * may use them without `node:*`. For short inputs (a PEM, an id, a document's content);
 * a digest of a whole live state takes an injected {@link Digests} (src/crypto/node.ts),
 * which is several times faster on tens of megabytes.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Digests, TextDigest } from './port.js';

export type { Digests, TextDigest } from './port.js';

function wrap(hash: { update(bytes: Uint8Array): unknown; digest(): Uint8Array }): TextDigest {
  const digest: TextDigest = {
    update(text) {
      hash.update(utf8ToBytes(text));
      return digest;
    },
    hex: () => bytesToHex(hash.digest()),
  };
  return digest;
}

/** A SHA-256 digest of UTF-8 text. */
export function sha256(): TextDigest {
  return wrap(nobleSha256.create());
}

/** An HMAC-SHA256 of UTF-8 text keyed by `key` (UTF-8). */
export function hmacSha256(key: string): TextDigest {
  return wrap(hmac.create(nobleSha256, utf8ToBytes(key)));
}

/** The SHA-256 (lowercase hex) of bytes. */
export function sha256Hex(data: Uint8Array): string {
  return bytesToHex(nobleSha256(data));
}

/** These digests as a {@link Digests} (what the engine uses when none is handed in). */
export const PURE_DIGESTS: Digests = { sha256, hmacSha256 };

/** The SHA-256 digest of bytes as `sha256:<lowercase hex>` (a document's content, docs/manifest-reference.md "Document content"). */
export function contentDigest(data: Uint8Array): string {
  return `sha256:${sha256Hex(data)}`;
}
