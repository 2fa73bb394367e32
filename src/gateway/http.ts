/**
 * The HTTP layer: one undici `Pool` per session (keep-alive, one connection: every
 * client of this API is strictly sequential inside a session, docs/gateway-api.md "Base
 * path and transport"), TLS verified by default, and the transport faults mapped
 * to typed errors.
 *
 * Bounds of one call:
 * - Time: connect within min(10 s, timeout); response headers, and each pause in the
 *   body, within the timeout (default 120 s; `--timeout`, `GWOPS_TIMEOUT` or a target's
 *   `timeout`); the whole exchange within twice the timeout, so that a body trickling in
 *   byte by byte (never pausing long enough for the pause limit) still ends the call
 *   (cause code {@link BODY_TOO_SLOW}). A call still running after 5 s is announced once through `onWarning`.
 * - Size: a body read whole (every answer except a 2xx list streamed to a sink) is
 *   refused past {@link MAX_BODY_BYTES} (64 MiB); a list body streamed element by element
 *   past {@link MAX_STREAMED_BODY_BYTES} (1 GiB). Both are checked against
 *   `Content-Length` before reading and counted while reading: at the limit reading stops,
 *   the body is destroyed, and the call fails with a {@link ResponseTooLargeError} (not
 *   retried).
 */
import { finished } from 'node:stream/promises';
import { rootCertificates } from 'node:tls';
import { Pool, errors as undiciErrors } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import { CLOSED_CODES, NOT_TLS_CODES, UNTRUSTED_CODES, pemSubjects, probeTls } from './diagnose.js';
import { ConnectionError, ConnectionTimeoutError, InterruptedError, ResponseTooLargeError, SchemeMismatchError, TlsVerificationError } from './errors.js';
import { checkBaseUrl, isLoopbackHost } from './base-url.js';
import { secondsText } from './error-text.js';
import type { ObjectLabel } from './errors.js';
import { trimTrailing } from '../core/linear-text.js';

/** Cause code of a call whose whole exchange outlasted twice the response timeout (a trickling body). */
export const BODY_TOO_SLOW = 'GWOPS_BODY_TOO_SLOW';

/** Default of the connect timeout, in milliseconds (never more than the response timeout). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** Default of the response timeout (headers, and each pause in the body), in milliseconds: activation can be slow. */
export const DEFAULT_RESPONSE_TIMEOUT_MS = 120_000;
/** After this long a call still running is announced through `onWarning`, once. Milliseconds. */
export const WAITING_NOTICE_MS = 5_000;

/** Timeouts of the HTTP layer, in milliseconds. */
export interface HttpTimeouts {
  /** Establishing the TCP/TLS connection. Default {@link DEFAULT_CONNECT_TIMEOUT_MS} (10 000). */
  readonly connectMs?: number;
  /** Waiting for the response headers. Default {@link DEFAULT_RESPONSE_TIMEOUT_MS} (120 000). */
  readonly headersMs?: number;
  /** Idle time between body chunks. Default {@link DEFAULT_RESPONSE_TIMEOUT_MS} (120 000). */
  readonly bodyMs?: number;
  /** When a call still running is announced through `onWarning`. Default {@link WAITING_NOTICE_MS} (5 000). */
  readonly noticeMs?: number;
}

/**
 * Largest body read whole: 64 MiB. Every answer is read whole except a 2xx list body
 * streamed to `RawRequest.sink` (element by element). A larger body fails the call with a
 * {@link ResponseTooLargeError}, decided while reading (the rest is never downloaded).
 */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * Largest list body streamed to `RawRequest.sink`: 1 GiB. Such a body is framed element
 * by element, so memory follows what the caller keeps, not the body's size; the limit
 * only stops a gateway that never ends its answer.
 */
export const MAX_STREAMED_BODY_BYTES = 1024 * 1024 * 1024;

/** Size limits of response bodies, in bytes (see {@link MAX_BODY_BYTES}, {@link MAX_STREAMED_BODY_BYTES}). */
export interface BodyLimits {
  /** Body read whole. Default {@link MAX_BODY_BYTES}. */
  readonly maxBodyBytes?: number | undefined;
  /** Body streamed to a sink. Default {@link MAX_STREAMED_BODY_BYTES}. */
  readonly maxStreamedBodyBytes?: number | undefined;
}

/** How to reach the gateway. */
export interface TransportOptions {
  /** Base URL of the API, e.g. `https://gw.example.com/airlock/rest` (docs/gateway-api.md "Base path and transport"). */
  readonly url: string;
  /** Extra trusted CA certificates (PEM), added to Node's default trust store. */
  readonly ca?: string | undefined;
  /** The file `ca` was read from, for messages (`--ca-file` or a target's `caFile`). */
  readonly caFile?: string | undefined;
  /** Skip TLS certificate verification; `onWarning` is told. */
  readonly insecure?: boolean | undefined;
  /**
   * Receives human-readable warnings (e.g. about `insecure`, or that a call has been
   * waiting for the gateway for more than `timeouts.noticeMs`). Default: none.
   */
  readonly onWarning?: ((message: string) => void) | undefined;
  readonly timeouts?: HttpTimeouts | undefined;
  /** Overrides of the body size limits (tests). */
  readonly limits?: BodyLimits | undefined;
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
  readonly body?: string | Buffer | undefined;
  readonly signal?: AbortSignal | undefined;
  /** For error messages only. */
  readonly object?: ObjectLabel | undefined;
  /**
   * Receives the body's chunks of a 2xx answer instead of `RawResponse.text` (which is
   * then empty), so large lists are never held whole. Other answers are read as text.
   */
  readonly sink?: ((chunk: Buffer) => void) | undefined;
  /**
   * True when the sink holds what it is given until the body ends (one resource read
   * piece by piece): the whole-body limit applies to it, not the streamed one.
   */
  readonly sinkHoldsWhole?: boolean | undefined;
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

/** The `Content-Length` of a response, when present and a plain number. */
function contentLength(headers: IncomingHttpHeaders): number | undefined {
  const value = headers['content-length'];
  return typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
}

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
  /** The base URL as given, without a trailing slash, for messages. */
  readonly baseUrl: string;
  private readonly url: URL;
  private readonly ca: string | undefined;
  private readonly caFile: string | undefined;
  private readonly basePath: string;
  private readonly pool: Pool;
  private readonly onWarning: ((message: string) => void) | undefined;
  private readonly connectMs: number;
  private readonly headersMs: number;
  private readonly bodyMs: number;
  private readonly noticeMs: number;
  private readonly maxBodyBytes: number;
  private readonly maxStreamedBodyBytes: number;

  /**
   * @throws ConfigError when the URL is refused (see {@link checkBaseUrl}); nothing is sent.
   */
  constructor(options: TransportOptions) {
    const url = checkBaseUrl(options.url);
    this.origin = url.origin;
    this.url = url;
    this.ca = options.ca;
    this.caFile = options.caFile;
    this.basePath = trimTrailing(url.pathname, '/');
    this.baseUrl = url.origin + this.basePath;
    const insecure = options.insecure === true;
    if (insecure && url.protocol === 'https:') {
      options.onWarning?.(
        `TLS certificate verification is disabled (--insecure): the identity of ${url.host} is not checked, ` +
          'and the API key could be sent to an impostor. Use --ca-file for a private CA instead.',
      );
    }
    const t = options.timeouts ?? {};
    this.onWarning = options.onWarning;
    this.connectMs = t.connectMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    this.headersMs = t.headersMs ?? DEFAULT_RESPONSE_TIMEOUT_MS;
    this.bodyMs = t.bodyMs ?? DEFAULT_RESPONSE_TIMEOUT_MS;
    this.noticeMs = t.noticeMs ?? WAITING_NOTICE_MS;
    this.maxBodyBytes = options.limits?.maxBodyBytes ?? MAX_BODY_BYTES;
    this.maxStreamedBodyBytes = options.limits?.maxStreamedBodyBytes ?? MAX_STREAMED_BODY_BYTES;
    this.pool = new Pool(url.origin, {
      connections: 1,
      pipelining: 1,
      connect: {
        ...(options.ca !== undefined ? { ca: [...rootCertificates, options.ca] } : {}),
        rejectUnauthorized: !insecure,
        timeout: this.connectMs,
      },
      headersTimeout: this.headersMs,
      bodyTimeout: this.bodyMs,
    });
  }

  /**
   * Sends one request and reads the whole body (or streams a 2xx body to `req.sink`),
   * within the size limits (see the module comment). Does not retry. When the call takes
   * longer than `timeouts.noticeMs`, `onWarning` is told once (the timer never keeps the
   * process alive and is cleared when the call ends).
   * @throws whatever `req.sink` throws, unchanged; ResponseTooLargeError; ConnectionError (phase `connect` or
   *   `response`; a ConnectionTimeoutError when a timeout expired), TlsVerificationError,
   *   InterruptedError when `signal` was aborted with an InterruptedError reason.
   */
  async send(req: RawRequest): Promise<RawResponse> {
    const onWarning = this.onWarning;
    const notice =
      onWarning === undefined
        ? undefined
        : setTimeout(() => {
            onWarning(
              `waiting for the gateway: ${req.method} ${req.path} has taken ${secondsText(this.noticeMs)} s ` +
                `(timeout ${secondsText(this.headersMs)} s, --timeout to change)`,
            );
          }, this.noticeMs);
    notice?.unref();
    try {
      return await this.exchange(req);
    } finally {
      clearTimeout(notice);
    }
  }

  private async exchange(req: RawRequest): Promise<RawResponse> {
    // An error that is not a transport fault (the sink's, or a body too large): thrown as it is.
    let stop: Error | undefined;
    const deadline = new AbortController();
    const deadlineMs = this.headersMs + this.bodyMs;
    const timer = setTimeout(() => deadline.abort(new Error(BODY_TOO_SLOW)), deadlineMs);
    timer.unref();
    // The run's signal aborts this request through a listener removed when it ends, not
    // AbortSignal.any: that one registers every request's signal with the run's for as
    // long as the run lasts, and V8 keeps what those registrations reach through every
    // minor collection (at 100,000 calls, gigabytes promoted to the old generation).
    const outer = req.signal;
    const onAbort = (): void => deadline.abort(outer?.reason);
    if (outer?.aborted) onAbort();
    else outer?.addEventListener('abort', onAbort, { once: true });
    const signal = deadline.signal;
    try {
      const res = await this.pool.request({
        path: this.basePath + req.path,
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal,
      });
      const sink = res.statusCode >= 200 && res.statusCode < 300 ? req.sink : undefined;
      const limit = sink && req.sinkHoldsWhole !== true ? this.maxStreamedBodyBytes : this.maxBodyBytes;
      const declared = contentLength(res.headers);
      const tooLarge = (): ResponseTooLargeError =>
        new ResponseTooLargeError({ method: req.method, path: req.path, object: req.object, limitBytes: limit, streamed: sink !== undefined && req.sinkHoldsWhole !== true, declaredBytes: declared });
      if (declared !== undefined && declared > limit) {
        stop = tooLarge();
        res.body.destroy();
      } else {
        const chunks: Buffer[] = [];
        let bytes = 0;
        // Each chunk as it was received ('data'): an async iterator over the body joins the
        // chunks waiting into one Buffer at every step, a copy of most of a 900 MB list.
        const body = res.body;
        body.on('data', (chunk: Buffer) => {
          if (stop !== undefined) return;
          bytes += chunk.length;
          if (bytes > limit) {
            stop = tooLarge();
            body.destroy();
            return;
          }
          if (!sink) {
            chunks.push(chunk);
            return;
          }
          try {
            sink(chunk);
          } catch (error) {
            stop = error instanceof Error ? error : new Error(String(error));
            body.destroy();
          }
        });
        try {
          await finished(body);
        } catch (error) {
          // Destroyed here (`stop`): the body ends early by design.
          if (stop === undefined) throw error;
        }
        if (stop === undefined) {
          // TextDecoder drops a leading BOM, as undici's body.text() does.
          const text = sink ? '' : new TextDecoder('utf-8').decode(Buffer.concat(chunks, bytes));
          return { status: res.statusCode, headers: res.headers, text };
        }
      }
    } catch (error) {
      if (deadline.signal.aborted && !req.signal?.aborted) {
        const init = { method: req.method, path: req.path, phase: 'response', causeCode: BODY_TOO_SLOW, origin: this.origin, object: req.object } as const;
        throw new ConnectionTimeoutError({ ...init, timeoutMs: deadlineMs }, { cause: error });
      }
      throw await this.diagnose(this.classify(error, req));
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    }
    throw stop;
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
    const init = { method: req.method, path: req.path, phase, causeCode: code, origin: this.origin, object: req.object } as const;
    const timeoutMs =
      code === 'UND_ERR_CONNECT_TIMEOUT' ? this.connectMs : code === 'UND_ERR_HEADERS_TIMEOUT' ? this.headersMs : code === 'UND_ERR_BODY_TIMEOUT' ? this.bodyMs : undefined;
    if (timeoutMs !== undefined) return new ConnectionTimeoutError({ ...init, timeoutMs }, { cause: error });
    return new ConnectionError(init, { cause: error });
  }

  /**
   * Names the cause of a transport failure where one TLS handshake can tell it
   * (src/gateway/diagnose.ts): `https://` to a plain-HTTP server, `http://` to an HTTPS
   * server, a certificate that the CA of the CA file did not sign. Else `error` unchanged.
   */
  private async diagnose(error: Error): Promise<Error> {
    const port = Number(this.url.port || (this.url.protocol === 'https:' ? 443 : 80));
    const probeMs = Math.min(this.connectMs, 5_000);
    const withPath = (protocol: string): string => `${protocol}//${this.url.host}${this.basePath}`;
    if (error instanceof TlsVerificationError && NOT_TLS_CODES.has(error.causeCode)) {
      const hint = isLoopbackHost(this.url.hostname)
        ? `did you mean ${withPath('http:')}?`
        : 'check the port (gwops speaks plain http only to loopback hosts)';
      return new SchemeMismatchError(
        { origin: this.origin, speaks: 'http', causeCode: error.causeCode, message: `the server at ${this.origin} does not speak TLS (${error.causeCode}): ${hint}` },
        { cause: error },
      );
    }
    if (error instanceof TlsVerificationError && UNTRUSTED_CODES.has(error.causeCode) && this.ca !== undefined) {
      const probe = await probeTls(this.url.hostname, port, probeMs);
      const issuer = probe.issuer !== undefined ? ` (issued by ${probe.issuer})` : '';
      const subjects = pemSubjects(this.ca);
      const cas = subjects.length > 0 ? ` (${subjects.join('; ')})` : '';
      return new TlsVerificationError(
        this.origin,
        error.causeCode,
        { cause: error },
        `the TLS certificate of ${this.origin}${issuer} is not signed by the CA in ${this.caFile ?? 'the CA file'}${cas} (${error.causeCode}): ` +
          'give --ca-file (or the target\'s caFile) the CA that issued it',
      );
    }
    if (error instanceof ConnectionError && !(error instanceof ConnectionTimeoutError) && this.url.protocol === 'http:' && CLOSED_CODES.has(error.causeCode)) {
      const probe = await probeTls(this.url.hostname, port, probeMs);
      if (probe.speaksTls) {
        return new SchemeMismatchError(
          {
            origin: this.origin,
            speaks: 'https',
            causeCode: error.causeCode,
            message: `${error.method} ${error.path} failed: the server at ${this.origin} closed the connection (${error.causeCode}); it speaks TLS, so it expects ${withPath('https:')}`,
          },
          { cause: error },
        );
      }
    }
    return error;
  }

  /** Closes the connection; pending requests are failed. Idempotent. */
  async close(): Promise<void> {
    if (this.pool.destroyed || this.pool.closed) return;
    await this.pool.destroy();
  }
}
