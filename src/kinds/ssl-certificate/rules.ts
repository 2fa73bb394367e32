/**
 * What is special about certificate manifests: the `privateKey` must be a PEM private key
 * that can be read (with the `passphrase` when one is given) and must belong to the
 * `certificate` (its public key is the certificate's). Checked offline with node:crypto, so
 * a wrong key is found by `validate` and `plan` instead of by the gateway. Messages name
 * the document and the attribute, never the key. A key or passphrase not read
 * (`validate --skip-secrets`, `graph`) and a certificate that is no PEM (the identity's
 * problem) are not checked here.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { ManifestRules } from '../kind.js';

const PRIVATE_KEY = ['attributes', 'privateKey'];

/** The certificate of a PEM (the first one of a chain), or undefined when it is none. */
function certificateOf(pem: string): X509Certificate | undefined {
  try {
    return new X509Certificate(pem);
  } catch {
    return undefined;
  }
}

/** The private key of a PEM, or undefined when it cannot be read (with `passphrase`). */
function privateKeyOf(pem: string, passphrase: string | undefined): KeyObject | undefined {
  try {
    return createPrivateKey({ key: pem, format: 'pem', ...(passphrase !== undefined ? { passphrase } : {}) });
  } catch {
    return undefined;
  }
}

/**
 * Whether a PEM private key is encrypted: a PKCS#8 `ENCRYPTED PRIVATE KEY` block, a
 * traditional block with `Proc-Type: 4,ENCRYPTED`, or any key node:crypto cannot read
 * without a passphrase for that reason. A text that is no key at all is not encrypted.
 */
export function isEncryptedPrivateKey(pem: string): boolean {
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----/.test(pem) || /^Proc-Type:[ \t]*4,ENCRYPTED[ \t]*\r?$/m.test(pem)) return true;
  try {
    createPrivateKey({ key: pem, format: 'pem' });
    return false;
  } catch (error) {
    return (error as { code?: unknown }).code === 'ERR_MISSING_PASSPHRASE';
  }
}

/**
 * A certificate's `passphrase` (write-only) takes a value only when the live `privateKey`
 * (returned as uploaded: docs/gateway-api.md "Attributes and server defaults") is an
 * encrypted PEM key; without a key there is nothing to decrypt. KindDefinition `takesWriteOnly`.
 */
export function takesWriteOnly(path: readonly string[], live: Readonly<Record<string, unknown>>): boolean {
  if (path.length !== 1 || path[0] !== 'passphrase') return true;
  const key = live.privateKey;
  return typeof key === 'string' && key !== '' && isEncryptedPrivateKey(key);
}

export const rules: ManifestRules = (documents, context) => {
  for (const doc of documents) {
    const { privateKey, passphrase, certificate } = doc.attributes;
    if (typeof privateKey !== 'string') continue;
    if (passphrase !== undefined && typeof passphrase !== 'string') continue;
    const label = context.label(doc);
    const key = privateKeyOf(privateKey, passphrase);
    if (key === undefined) {
      context.report(doc, {
        code: 'invalid-private-key',
        pointer: PRIVATE_KEY,
        message:
          `'privateKey' of ${label} is not a PEM private key that can be read${passphrase !== undefined ? ' with its passphrase' : ''}: ` +
          `give the certificate's key as PEM (-----BEGIN PRIVATE KEY----- …)${passphrase !== undefined ? ' and the passphrase it is encrypted with' : ', and its passphrase when it is encrypted'}`,
      });
      continue;
    }
    const x509 = typeof certificate === 'string' ? certificateOf(certificate) : undefined;
    if (x509 !== undefined && !x509.checkPrivateKey(key)) {
      context.report(doc, {
        code: 'private-key-mismatch',
        pointer: PRIVATE_KEY,
        message: `'privateKey' of ${label} does not belong to its certificate (subject ${x509.subject.replace(/\n/g, ', ')}): give the key the certificate was issued for`,
      });
    }
  }
};
