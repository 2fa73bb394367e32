/**
 * The digest and certificate ports of src/crypto/port.ts on `node:crypto` (public
 * keys: src/jwks/node-keys.ts). Imported by the operations, the
 * manifest checks and the export, which hand them to the pure code; the engine never
 * reaches this module (test/architecture/boundaries.test.ts).
 */
import { X509Certificate, createHash, createHmac, createPrivateKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { CertificateTools, Digests, TextDigest } from './port.js';

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

/** SHA-256 and HMAC-SHA256 on `node:crypto` (the same hex as src/crypto/digest.ts, faster on large inputs). */
export const NODE_DIGESTS: Digests = {
  sha256: () => wrap(createHash('sha256')),
  hmacSha256: (key) => wrap(createHmac('sha256', key)),
};

/** The private key of a PEM, or the error reading it. */
function privateKeyOf(pem: string, passphrase: string | undefined): KeyObject | { error: unknown } {
  try {
    return createPrivateKey({ key: pem, format: 'pem', ...(passphrase !== undefined ? { passphrase } : {}) });
  } catch (error) {
    return { error };
  }
}

/** The certificate of a PEM (the first one of a chain), or undefined when it is none. */
function certificateOf(pem: string): X509Certificate | undefined {
  try {
    return new X509Certificate(pem);
  } catch {
    return undefined;
  }
}

/** Certificates and private keys read by `node:crypto`. */
export const NODE_CERTIFICATES: CertificateTools = {
  subject: (pem) => certificateOf(pem)?.subject,
  readPrivateKey: (pem, passphrase) => {
    const key = privateKeyOf(pem, passphrase);
    if (!('error' in key)) return 'read';
    return (key.error as { code?: unknown }).code === 'ERR_MISSING_PASSPHRASE' ? 'passphrase-missing' : 'unreadable';
  },
  keyBelongsTo: (keyPem, passphrase, certificatePem) => {
    const key = privateKeyOf(keyPem, passphrase);
    const x509 = certificateOf(certificatePem);
    return 'error' in key || x509 === undefined ? undefined : x509.checkPrivateKey(key);
  },
};
