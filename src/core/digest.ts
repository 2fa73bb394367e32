/**
 * Digests of text: SHA-256, and HMAC-SHA256 keyed by a secret. Deterministic functions of
 * their input (no I/O, no clock), so the pure engine (src/engine/) may use them; this
 * module is the one place it reaches `node:crypto` through.
 */
import { createHash, createHmac } from 'node:crypto';

/** An incremental digest: feed text with `update`, read the lowercase hex digest once with `hex`. */
export interface TextDigest {
  update(text: string): TextDigest;
  hex(): string;
}

function wrap(hash: { update(text: string): unknown; digest(encoding: 'hex'): string }): TextDigest {
  const digest: TextDigest = {
    update(text) {
      hash.update(text);
      return digest;
    },
    hex: () => hash.digest('hex'),
  };
  return digest;
}

/** A SHA-256 digest of UTF-8 text. */
export function sha256(): TextDigest {
  return wrap(createHash('sha256'));
}

/** An HMAC-SHA256 of UTF-8 text keyed by `key` (UTF-8). */
export function hmacSha256(key: string): TextDigest {
  return wrap(createHmac('sha256', key));
}

/** The SHA-256 digest of bytes as `sha256:<lowercase hex>` (a document's content, docs/manifest-reference.md "Document content"). */
export function contentDigest(data: Uint8Array): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}
