/**
 * The content of one object's content sub-resource (kinds with `KindDefinition.content`;
 * docs/manifest-reference.md "Document content"): its bytes and their SHA-256 digest, as
 * the manifest loader reads them from a file and the live state reads them from the gateway.
 */
import { contentDigest } from '../crypto/digest.js';

/** The content of one object: its bytes (base64) and their digest. */
export interface ObjectContent {
  /** `sha256:<hex>` of the bytes ({@link contentDigest}). */
  readonly digest: string;
  /** The bytes, base64. */
  readonly base64: string;
  /** Desired only: the absolute path of the `fromFile` the bytes were read from. */
  readonly file?: string;
}

/** The {@link ObjectContent} of `data`, read from `file` when given. */
export function objectContent(data: Uint8Array, file?: string): ObjectContent {
  return { digest: contentDigest(data), base64: Buffer.from(data).toString('base64'), ...(file !== undefined ? { file } : {}) };
}
