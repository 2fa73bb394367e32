/**
 * What the pure code (src/engine/, the kind modules) asks of cryptography it does not do
 * itself: types only. The implementation on `node:crypto` is src/crypto/node.ts,
 * which only the operations, the manifest checks and the export import and hand in, so
 * that no module the engine reaches imports `node:*` (docs/architecture.md "Where things live").
 */

/** An incremental digest: feed text with `update`, read the lowercase hex digest once with `hex`. */
export interface TextDigest {
  update(text: string): TextDigest;
  hex(): string;
}

/** Digests of UTF-8 text: SHA-256, and HMAC-SHA256 keyed by `key` (UTF-8). */
export interface Digests {
  readonly sha256: () => TextDigest;
  readonly hmacSha256: (key: string) => TextDigest;
}

/** Reading public keys (the gateway's `jwsKey`, docs/manifest-reference.md "Token keys from a JWKS"). */
export interface PublicKeyTools {
  /**
   * The RFC 7638 thumbprint (base64url) of a PEM public key, or undefined when `pem` is
   * not a public key that can be read (for example an HMAC passphrase).
   */
  readonly pemThumbprint: (pem: string) => string | undefined;
}

/** Reading X.509 certificates and PEM private keys (the `ssl-certificate` kind). */
export interface CertificateTools {
  /** The subject of the first certificate of a PEM, one `NAME=value` per line; undefined when it is no certificate. */
  readonly subject: (pem: string) => string | undefined;
  /**
   * Whether a PEM private key can be read, with `passphrase` when given: `read`, or
   * `passphrase-missing` (an encrypted key read without one), or `unreadable`.
   */
  readonly readPrivateKey: (pem: string, passphrase?: string) => 'read' | 'passphrase-missing' | 'unreadable';
  /** Whether a private key (read with `passphrase`) belongs to a certificate; undefined when either cannot be read. */
  readonly keyBelongsTo: (keyPem: string, passphrase: string | undefined, certificatePem: string) => boolean | undefined;
}
