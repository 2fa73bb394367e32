/**
 * The identity of an SSL certificate: it has no `name` attribute, so it is matched by the
 * SHA-256 fingerprint of its PEM `certificate` (docs/architecture.md "Decisions"). A
 * manifest names it with a local handle; a live certificate that no manifest declares is
 * shown as `sha256:<first 16 hex digits>`.
 */
import type { CertificateTools } from '../../crypto/port.js';
import { sha256, sha256Hex } from '../../crypto/digest.js';
import type { IdentityHooks } from '../kind.js';

/** Prefix of the name of a live certificate that no desired certificate matches. */
export const CERTIFICATE_NAME_PREFIX = 'sha256:';

/** True for the name of a live certificate that no desired certificate matches: `sha256:` and 16 lowercase hex digits. */
export function isUndeclaredCertificateName(name: string): boolean {
  return name.length === CERTIFICATE_NAME_PREFIX.length + 16 && name.startsWith(CERTIFICATE_NAME_PREFIX) && /^[0-9a-f]+$/.test(name.slice(CERTIFICATE_NAME_PREFIX.length));
}

/**
 * The offset just past `-----` when `text` holds a PEM label (`[A-Z0-9 ]+`) then `-----` at
 * `start`, else -1.
 */
function afterLabel(text: string, start: number): number {
  let i = start;
  while (i < text.length && /[A-Z0-9 ]/.test(text.charAt(i))) i++;
  return i > start && text.startsWith('-----', i) ? i + 5 : -1;
}

/**
 * The body of the first PEM block of `pem` (what `/-----BEGIN [A-Z0-9 ]+-----([\s\S]*?)-----END [A-Z0-9 ]+-----/`
 * captures), scanned in linear time: the text comes from a manifest or the gateway.
 */
function firstPemBody(pem: string): string | undefined {
  for (let begin = pem.indexOf('-----BEGIN '); begin >= 0; begin = pem.indexOf('-----BEGIN ', begin + 1)) {
    const start = afterLabel(pem, begin + '-----BEGIN '.length);
    if (start < 0) continue;
    for (let end = pem.indexOf('-----END ', start); end >= 0; end = pem.indexOf('-----END ', end + 1)) {
      if (afterLabel(pem, end + '-----END '.length) >= 0) return pem.slice(start, end);
    }
    // No end line after this block's start: none after a later start either.
    return undefined;
  }
  return undefined;
}

/**
 * SHA-256 fingerprint (lowercase hex) of the DER bytes of the first PEM block of `pem`
 * (`-----BEGIN ...-----`, base64 body, `-----END ...-----`). Returns undefined when `pem`
 * holds no PEM block (the caller decides whether that is an error).
 */
export function certificateFingerprint(pem: string): string | undefined {
  const body = firstPemBody(pem);
  if (body === undefined) return undefined;
  const der = Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
  return sha256Hex(der);
}

/** The common name of a PEM certificate's subject, read by `certificates`, or undefined when it is no certificate or has none. */
export function subjectCommonName(pem: string, certificates: CertificateTools): string | undefined {
  const cn = certificates.subject(pem)?.split('\n').find((line) => line.startsWith('CN='));
  return cn?.slice(3);
}

export const certificateIdentity: IdentityHooks = {
  byName: false,
  attributes: ['certificate'],
  // A matched certificate is equal by definition.
  ignoredInDiff: ['certificate'],
  declared: (attributes) => {
    const pem = attributes.certificate;
    const key = typeof pem === 'string' ? certificateFingerprint(pem) : undefined;
    return key === undefined ? { problem: 'attributes.certificate must hold a PEM certificate (it is the identity on the gateway)' } : { key };
  },
  live: (attributes, handleOf) => {
    const pem = attributes.certificate;
    if (typeof pem !== 'string') return { name: undefined };
    // Whatever the gateway holds gets a stable key, PEM or not.
    const key = certificateFingerprint(pem) ?? sha256().update(pem).hex();
    return { name: handleOf(key) ?? `${CERTIFICATE_NAME_PREFIX}${key.slice(0, 16)}`, key };
  },
  lookup: (_name, attributes) => {
    const certificate = attributes.certificate;
    return { matches: (listed) => typeof certificate === 'string' && listed.certificate === certificate };
  },
  deleteWhenOrphaned: true,
  // An exported certificate is named after its subject: `shop.example.com-3f9a0c1d2e4b`.
  exportName: (attributes, certificates) => (typeof attributes.certificate === 'string' ? subjectCommonName(attributes.certificate, certificates) : undefined),
};
