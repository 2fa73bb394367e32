/**
 * What is special about certificate manifests: the `privateKey` must be a PEM private key
 * that can be read (with the `passphrase` when one is given) and must belong to the
 * `certificate` (its public key is the certificate's). Checked offline with the
 * context's `certificates` (node:crypto, handed in by src/manifest/rules.ts), so
 * a wrong key is found by `validate` and `plan` instead of by the gateway. Messages name
 * the document and the attribute, never the key. A key or passphrase not read
 * (`validate --skip-secrets`, `graph`) and a certificate that is no PEM (the identity's
 * problem) are not checked here.
 */
import type { CertificateTools } from '../../crypto/port.js';
import type { ManifestRules } from '../kind.js';

const PRIVATE_KEY = ['attributes', 'privateKey'];

/**
 * Whether a PEM private key is encrypted: a PKCS#8 `ENCRYPTED PRIVATE KEY` block, a
 * traditional block with `Proc-Type: 4,ENCRYPTED`, or any key `certificates` cannot read
 * without a passphrase for that reason. A text that is no key at all is not encrypted.
 */
export function isEncryptedPrivateKey(pem: string, certificates: CertificateTools): boolean {
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----/.test(pem) || /^Proc-Type:[ \t]*4,ENCRYPTED[ \t]*\r?$/m.test(pem)) return true;
  return certificates.readPrivateKey(pem) === 'passphrase-missing';
}

/**
 * A certificate's `passphrase` (write-only) takes a value only when the live `privateKey`
 * (returned as uploaded: docs/gateway-api.md "Attributes and server defaults") is an
 * encrypted PEM key; without a key there is nothing to decrypt. KindDefinition `takesWriteOnly`.
 */
export function takesWriteOnly(path: readonly string[], live: Readonly<Record<string, unknown>>, certificates: CertificateTools): boolean {
  if (path.length !== 1 || path[0] !== 'passphrase') return true;
  const key = live.privateKey;
  return typeof key === 'string' && key !== '' && isEncryptedPrivateKey(key, certificates);
}

export const rules: ManifestRules = (documents, context) => {
  for (const doc of documents) {
    const { privateKey, passphrase, certificate } = doc.attributes;
    if (typeof privateKey !== 'string') continue;
    if (passphrase !== undefined && typeof passphrase !== 'string') continue;
    const label = context.label(doc);
    if (context.certificates.readPrivateKey(privateKey, passphrase) !== 'read') {
      context.report(doc, {
        code: 'invalid-private-key',
        pointer: PRIVATE_KEY,
        message:
          `'privateKey' of ${label} is not a PEM private key that can be read${passphrase !== undefined ? ' with its passphrase' : ''}: ` +
          `give the certificate's key as PEM (-----BEGIN PRIVATE KEY----- …)${passphrase !== undefined ? ' and the passphrase it is encrypted with' : ', and its passphrase when it is encrypted'}`,
      });
      continue;
    }
    const subject = typeof certificate === 'string' ? context.certificates.subject(certificate) : undefined;
    if (subject !== undefined && typeof certificate === 'string' && context.certificates.keyBelongsTo(privateKey, passphrase, certificate) === false) {
      context.report(doc, {
        code: 'private-key-mismatch',
        pointer: PRIVATE_KEY,
        message: `'privateKey' of ${label} does not belong to its certificate (subject ${subject.replace(/\n/g, ', ')}): give the key the certificate was issued for`,
      });
    }
  }
};
