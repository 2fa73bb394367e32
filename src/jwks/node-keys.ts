/**
 * Public keys through `node:crypto` (docs/manifest-reference.md "Token keys from a JWKS"):
 * a JWK converted to the PEM SubjectPublicKeyInfo form the gateway takes, and a PEM public
 * key named by its RFC 7638 thumbprint ({@link NODE_PUBLIC_KEYS}, the port the operations
 * hand to the engine). The engine never reaches this module.
 */
import { createPublicKey } from 'node:crypto';
import type { JsonWebKey } from 'node:crypto';
import type { PublicKeyTools } from '../crypto/port.js';
import type { Jwk } from './keys.js';
import { JwkProblem, jwkThumbprint } from './keys.js';

/**
 * The PEM SubjectPublicKeyInfo (`-----BEGIN PUBLIC KEY-----`) of a public JWK, through
 * node's `crypto` (no hand-written ASN.1).
 * @throws JwkProblem when node cannot read the key (or it holds private members)
 */
export function jwkToPem(key: Jwk): string {
  if ('d' in key) throw new JwkProblem(`key '${key.kid ?? ''}' holds private key material ("d"); a JWK Set publishes public keys only`);
  try {
    return createPublicKey({ key: key as JsonWebKey, format: 'jwk' }).export({ type: 'spki', format: 'pem' }).toString();
  } catch (error) {
    throw new JwkProblem(`key '${key.kid ?? ''}' is not a usable public key (${error instanceof Error ? error.message : String(error)})`);
  }
}

/**
 * The RFC 7638 thumbprint of a PEM public key (the gateway's live `jwsKey`), or undefined
 * when `pem` is not a public key node can read (for example an HMAC passphrase).
 */
export function pemThumbprint(pem: string): string | undefined {
  if (!pem.includes('-----BEGIN')) return undefined;
  try {
    return jwkThumbprint(createPublicKey(pem).export({ format: 'jwk' }));
  } catch {
    return undefined;
  }
}

/** {@link pemThumbprint} as the port the engine takes. */
export const NODE_PUBLIC_KEYS: PublicKeyTools = { pemThumbprint };
