/**
 * X.509 certificates in PEM shown as a person reads them: subject, subject alternative
 * names, validity (notBefore, notAfter) and SHA-256 fingerprint, parsed with node:crypto.
 * Which attributes hold certificates the schemas say (`x-gwops-certificate`,
 * src/schema/index.ts `certificateAttributes`); the PEM itself is shown only with
 * `--verbose`.
 */
import { X509Certificate } from 'node:crypto';
import { delimitedSections, withoutDelimited } from '../core/linear-text.js';

/** One PEM certificate block: `-----BEGIN CERTIFICATE-----` … `-----END CERTIFICATE-----`. */
const PEM_BLOCK: readonly [string, string] = ['-----BEGIN CERTIFICATE-----', '-----END CERTIFICATE-----'];

/** `2026-11-01T00:00:00Z` from OpenSSL's `Nov  1 00:00:00 2026 GMT`. */
function isoTime(text: string): string {
  const time = new Date(text);
  return Number.isNaN(time.getTime()) ? text : time.toISOString().replace('.000Z', 'Z');
}

/** The lines of one parsed certificate. */
function describe(cert: X509Certificate): string[] {
  return [
    `subject:   ${cert.subject.split('\n').join(', ')}`,
    `SANs:      ${cert.subjectAltName ?? '(none)'}`,
    `notBefore: ${isoTime(cert.validFrom)}`,
    `notAfter:  ${isoTime(cert.validTo)}`,
    `SHA-256:   ${cert.fingerprint256}`,
  ];
}

/**
 * A certificate value in words: for each PEM certificate of `value` (a string holding one
 * or several, or a list of such strings), its subject, SANs, notBefore, notAfter and
 * SHA-256 fingerprint; several are numbered.
 * @returns the lines, the first one naming what the value holds; undefined when `value`
 *   holds anything that is not a parsable PEM certificate (the caller shows it as it is)
 */
export function describeCertificates(value: unknown): string[] | undefined {
  const texts = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
  if (texts === undefined) return undefined;
  const certs: X509Certificate[] = [];
  for (const text of texts) {
    const blocks = delimitedSections(text, ...PEM_BLOCK);
    // Anything besides certificate blocks and white space is shown as it is.
    if (blocks.length === 0 || withoutDelimited(text, [PEM_BLOCK]).trim() !== '') return undefined;
    for (const block of blocks) {
      try {
        certs.push(new X509Certificate(block));
      } catch {
        return undefined;
      }
    }
  }
  if (certs.length === 0) return undefined;
  if (certs.length === 1 && certs[0]) return ['(certificate)', ...describe(certs[0]).map((line) => `  ${line}`)];
  return [`(${certs.length} certificates)`, ...certs.flatMap((cert, i) => describe(cert).map((line, j) => `  ${j === 0 ? `[${i + 1}]` : '   '} ${line}`))];
}
