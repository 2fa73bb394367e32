/**
 * Private keys for manifests of tests: a certificate's `privateKey` must be a PEM private key
 * that can be read (src/kinds/ssl-certificate/rules.ts). EC P-256 keys, made fresh per import.
 */
import { generateKeyPairSync } from 'node:crypto';

/** A PEM (PKCS#8) private key; encrypted (AES-256-CBC) with `passphrase` when one is given. */
export function pemPrivateKey(passphrase?: string): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return privateKey.export({ type: 'pkcs8', format: 'pem', ...(passphrase !== undefined ? { cipher: 'aes-256-cbc', passphrase } : {}) }).toString();
}

/** `pem` as a double-quoted YAML scalar on one line. */
export function yamlQuoted(pem: string): string {
  return JSON.stringify(pem);
}
