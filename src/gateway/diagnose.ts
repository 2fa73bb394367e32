/**
 * Diagnoses of transport failures that name their cause (docs/gateway-api.md "Base path
 * and transport", "Diagnosing a wrong URL"): only run after a call already failed, each
 * at most one short TLS handshake that sends no HTTP request, no key and no cookie.
 *
 * - `https://` to a plain-HTTP server: the handshake fails with an SSL version error.
 * - `http://` to an HTTPS server: the server closes the connection; a TLS handshake with
 *   the same host and port succeeds.
 * - a certificate that the CA of `--ca-file` did not sign: the handshake (without
 *   verification) shows the certificate's issuer.
 */
import { X509Certificate } from 'node:crypto';
import { connect } from 'node:tls';
import { delimitedSections } from '../core/linear-text.js';

/** What a TLS handshake without verification saw. */
export interface TlsProbe {
  /** True when the server completed a TLS handshake. */
  readonly speaksTls: boolean;
  /** The distinguished name of the issuer of the server's certificate, `CN=..., O=...`. */
  readonly issuer?: string | undefined;
  /** The distinguished name of the server's certificate. */
  readonly subject?: string | undefined;
}

/** A distinguished name on one line: `CN=gwops emulator, O=gwops`. */
export function distinguishedName(text: string): string {
  return text.split('\n').map((part) => part.trim()).filter((part) => part !== '').join(', ');
}

/**
 * Opens a TLS connection to `host:port` without verifying the certificate, reads the
 * certificate's issuer and subject, and closes it. Never throws; `speaksTls` is false when
 * no handshake completed within `timeoutMs` milliseconds.
 */
export function probeTls(host: string, port: number, timeoutMs: number): Promise<TlsProbe> {
  return new Promise<TlsProbe>((resolve) => {
    const hostname = host.replace(/^\[(.*)\]$/, '$1');
    const socket = connect({ host: hostname, port, rejectUnauthorized: false, ...(/^[\d.:]+$/.test(hostname) ? {} : { servername: hostname }) });
    const finish = (probe: TlsProbe): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(probe);
    };
    const timer = setTimeout(() => finish({ speaksTls: false }), timeoutMs);
    timer.unref();
    socket.once('error', () => finish({ speaksTls: false }));
    socket.once('secureConnect', () => {
      const raw = socket.getPeerCertificate().raw as Buffer | undefined;
      if (raw === undefined || raw.length === 0) {
        finish({ speaksTls: true });
        return;
      }
      try {
        const certificate = new X509Certificate(raw);
        finish({ speaksTls: true, issuer: distinguishedName(certificate.issuer), subject: distinguishedName(certificate.subject) });
      } catch {
        finish({ speaksTls: true });
      }
    });
  });
}

/** The subjects of the certificates in a PEM bundle, e.g. `CN=Example CA`; unparseable ones are left out. */
export function pemSubjects(pem: string): string[] {
  const blocks = delimitedSections(pem, '-----BEGIN CERTIFICATE-----', '-----END CERTIFICATE-----');
  const subjects: string[] = [];
  for (const block of blocks) {
    try {
      subjects.push(distinguishedName(new X509Certificate(block).subject));
    } catch {
      // Not a certificate Node can read: the message then names the file only.
    }
  }
  return subjects;
}

/** Codes of a TLS handshake that met something other than TLS (a plain-HTTP server answering). */
export const NOT_TLS_CODES: ReadonlySet<string> = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST']);

/** Codes of a connection the server closed without an answer (what an HTTPS server does to a plain-HTTP request). */
export const CLOSED_CODES: ReadonlySet<string> = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'HPE_INVALID_CONSTANT', 'UND_ERR_INFO']);

/** Codes of a certificate that no trusted CA signed. */
export const UNTRUSTED_CODES: ReadonlySet<string> = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
]);
