/**
 * The HTTP layer: one undici `Pool` per session (keep-alive, one connection: every
 * client of this API is strictly sequential inside a session, real-clients.md "Base
 * URL, transport, headers"), TLS verified by default, and the transport faults mapped
 * to typed errors.
 */
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import { Pool, errors as undiciErrors } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import { ConfigError } from '../errors.js';
import { ConnectionError, InterruptedError, TlsVerificationError } from './errors.js';
import type { ObjectLabel } from './errors.js';

/** Timeouts of the HTTP layer, in milliseconds. */
export interface HttpTimeouts {
  /** Establishing the TCP/TLS connection. Default 10 000. */
  readonly connectMs?: number;
  /** Waiting for the response headers. Default 120 000 (activation can be slow). */
  readonly headersMs?: number;
  /** Idle time between body chunks. Default 120 000. */
  readonly bodyMs?: number;
}

/** How to reach the gateway. */
export interface TransportOptions {
  /** Base URL of the API, e.g. `https://gw.example.com/airlock/rest` (real-clients.md "Base URL"). */
  readonly url: string;
  /** Extra trusted CA certificates (PEM), added to Node's default trust store. */
  readonly ca?: string | undefined;
  /** Skip TLS certificate verification; `onWarning` is told. */
  readonly insecure?: boolean | undefined;
  /** Receives human-readable warnings (e.g. about `insecure`). Default: none. */
  readonly onWarning?: ((message: string) => void) | undefined;
  readonly timeouts?: HttpTimeouts | undefined;
}

/** One raw response. `text` is the whole body decoded as UTF-8 (empty for 204). */
export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/** One raw request. `path` is relative to the base URL and may carry a query string. */
export interface RawRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string | undefined;
  readonly signal?: AbortSignal | undefined;
  /** For error messages only. */
  readonly object?: ObjectLabel | undefined;
  /**
   * Receives the body's chunks of a 2xx answer instead of `RawResponse.text` (which is
   * then empty), so large lists are never held whole. Other answers are read as text.
   */
  readonly sink?: ((chunk: Buffer) => void) | undefined;
}

/**
 * True when `host` (a URL hostname, IPv6 possibly in brackets) is a loopback address:
 * `localhost` (and `*.localhost`), 127.0.0.0/8, or `::1`.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  const family = isIP(h);
  if (family === 4) return h.startsWith('127.');
  if (family === 6) {
    if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
    return mapped?.[1] !== undefined && mapped[1].startsWith('127.');
  }
  return false;
}

/**
 * Parses and checks the base URL: `https://` always; plain `http://` only for a loopback
 * host (issue 4 "Connection"). No request is made.
 * @throws ConfigError for an unparseable URL, another scheme, or plain http to a non-loopback host.
 */
export function checkBaseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`invalid gateway URL '${url}': expected e.g. https://gateway.example.com/airlock/rest`);
  }
  if (parsed.username || parsed.password) {
    throw new ConfigError('the gateway URL must not contain credentials: put the API key in GWOPS_API_KEY or an API key file');
  }
  if (parsed.protocol === 'https:') return parsed;
  if (parsed.protocol === 'http:') {
    if (isLoopbackHost(parsed.hostname)) return parsed;
    const https = new URL(parsed.href);
    https.protocol = 'https:';
    throw new ConfigError(
      `refusing plain http:// to ${parsed.host}: the API key and session cookie would travel unencrypted. ` +
        `Use ${https.href.replace(/\/$/, '')} (plain http is allowed only for loopback hosts: localhost, 127.0.0.0/8, ::1)`,
    );
  }
  throw new ConfigError(`unsupported scheme '${parsed.protocol}' in gateway URL: use https://`);
}

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REVOKED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'HOSTNAME_MISMATCH',
]);

/** Codes of faults that happen before a request is on the wire. */
const CONNECT_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = error.code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/** The HTTP transport of one session. Not safe for concurrent calls by design (one connection). */
export class HttpTransport {
  /** `protocol://host:port`, for messages. */
  readonly origin: string;
  private readonly basePath: string;
  private readonly pool: Pool;

  /**
   * @throws ConfigError when the URL is refused (see {@link checkBaseUrl}); nothing is sent.
   */
  constructor(options: TransportOptions) {
    const url = checkBaseUrl(options.url);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    const insecure = options.insecure === true;
    if (insecure && url.protocol === 'https:') {
      options.onWarning?.(
        `TLS certificate verification is disabled (--insecure): the identity of ${url.host} is not checked, ` +
          'and the API key could be sent to an impostor. Use --ca-file for a private CA instead.',
      );
    }
    const t = options.timeouts ?? {};
    this.pool = new Pool(url.origin, {
      connections: 1,
      pipelining: 1,
      connect: {
        ...(options.ca !== undefined ? { ca: [...rootCertificates, options.ca] } : {}),
        rejectUnauthorized: !insecure,
        timeout: t.connectMs ?? 10_000,
      },
      headersTimeout: t.headersMs ?? 120_000,
      bodyTimeout: t.bodyMs ?? 120_000,
    });
  }

  /**
   * Sends one request and reads the whole body (or streams a 2xx body to `req.sink`).
   * Does not retry.
   * @throws whatever `req.sink` throws, unchanged; ConnectionError (phase `connect` or `response`), TlsVerificationError,
   *   InterruptedError when `signal` was aborted with an InterruptedError reason.
   */
  async send(req: RawRequest): Promise<RawResponse> {
    let sinkError: Error | undefined;
    try {
      const res = await this.pool.request({
        path: this.basePath + req.path,
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: req.signal,
      });
      if (req.sink && res.statusCode >= 200 && res.statusCode < 300) {
        for await (const chunk of res.body) {
          try {
            req.sink(chunk as Buffer);
          } catch (error) {
            sinkError = error instanceof Error ? error : new Error(String(error));
            res.body.destroy();
            break;
          }
        }
        if (sinkError === undefined) return { status: res.statusCode, headers: res.headers, text: '' };
      } else {
        const text = await res.body.text();
        return { status: res.statusCode, headers: res.headers, text };
      }
    } catch (error) {
      throw this.classify(error, req);
    }
    // The sink rejected the body (not a transport fault): its error as it is.
    throw sinkError;
  }

  private classify(error: unknown, req: RawRequest): Error {
    const reason: unknown = req.signal?.aborted ? req.signal.reason : undefined;
    if (reason instanceof InterruptedError) return reason;
    if (error instanceof undiciErrors.RequestAbortedError && reason instanceof Error) return reason;
    const code = errorCode(error) ?? (error instanceof Error ? error.name : 'UNKNOWN');
    if (TLS_CODES.has(code) || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_')) {
      return new TlsVerificationError(this.origin, code, { cause: error });
    }
    const phase = CONNECT_CODES.has(code) ? 'connect' : 'response';
    return new ConnectionError({ method: req.method, path: req.path, phase, causeCode: code, origin: this.origin, object: req.object }, { cause: error });
  }

  /** Closes the connection; pending requests are failed. Idempotent. */
  async close(): Promise<void> {
    if (this.pool.destroyed || this.pool.closed) return;
    await this.pool.destroy();
  }
}
