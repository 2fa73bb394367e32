/**
 * The REST session itself (docs/gateway-api.md "Sessions", "Base path and transport"):
 * `open()` creates it with the Bearer key, every later call carries only the `JSESSIONID`
 * cookie, and `terminate()` ends it. Every call goes through one connection, strictly in
 * sequence, with its retries (idempotent calls after 429/502/503/504 and connection
 * faults; a POST only when it certainly never reached the gateway), and a non-2xx answer
 * becomes a typed error (src/gateway/errors.ts) whose echoed text is redacted. The calls
 * of the configuration API are in src/gateway/session.ts (`GatewaySession`).
 */
import type { ApiErrorInit, ObjectLabel } from './errors.js';
import { ApiError, ConnectionError, OutdatedConfigurationError, SessionError, UnexpectedResponseError } from './errors.js';
import { SecretRedactor, truncateEcho } from '../core/secrets.js';
import { DocumentShapeError, firstError, parseJson } from '../api/documents.js';
import { HttpTransport } from './http.js';
import type { RawResponse, TransportOptions } from './http.js';
import { DEFAULT_RETRY_POLICY, abortReason, isRetryableStatus, isTransientFault, parseRetryAfter, retrying, systemClock } from './retry.js';
import type { RetryClock, RetryPolicy } from './retry.js';

/** Everything a session needs. The API key is used for `POST /session/create` only. */
export interface SessionOptions extends TransportOptions {
  readonly apiKey: string;
  /**
   * Where the key came from, e.g. `environment variable GWOPS_API_KEY` (not secret): named
   * when the gateway rejects the key (SessionError `key-rejected`).
   */
  readonly apiKeySource?: string | undefined;
  /** Overrides of {@link DEFAULT_RETRY_POLICY}. */
  readonly retry?: Partial<RetryPolicy> | undefined;
  /** Injected time (tests record waits instead of waiting). Default: the real clock. */
  readonly clock?: RetryClock | undefined;
  /** When aborted, running calls are cancelled and new ones refused with `signal.reason` (terminate still works). */
  readonly signal?: AbortSignal | undefined;
  /**
   * The run's secret registry: the session registers the API key and the `JSESSIONID`
   * cookie into it and redacts error details with everything it holds. Default: its own.
   */
  readonly secrets?: SecretRedactor | undefined;
}

/** The outcome of {@link SessionChannel.terminate}: it never throws. */
export interface TerminateResult {
  /** True when the gateway confirmed, or the session was already gone or never opened. */
  readonly terminated: boolean;
  /** Why terminating failed; already reported through `onWarning`. */
  readonly error?: Error;
}

/** One logical call of a session. */
export interface CallSpec {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly body?: unknown;
  /** Bytes sent as `application/octet-stream` instead of a JSON `body` (a content upload). */
  readonly octets?: Buffer | undefined;
  /** The media type of {@link octets}; `application/octet-stream` when absent. */
  readonly octetsType?: string | undefined;
  readonly object?: ObjectLabel | undefined;
  /**
   * When a failed send may be repeated: `transient` after any transient fault (idempotent
   * calls); `unsent` only when the request certainly never reached the gateway (a POST).
   */
  readonly retry: 'transient' | 'unsent';
  /** Send the Bearer key instead of the cookie (session create only). */
  readonly bearer?: boolean;
  /** Streams a 2xx body to this function instead of reading it as text (see RawRequest.sink). */
  readonly sink?: ((chunk: Buffer) => void) | undefined;
  /** The sink holds the body until it ends: the whole-body limit applies (see RawRequest.sinkHoldsWhole). */
  readonly sinkHoldsWhole?: boolean | undefined;
  /** The `Accept` header; default `application/json`. */
  readonly accept?: string | undefined;
}

const TERMINATE_POLICY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 200, maxDelayMs: 1_000, maxTotalMs: 5_000 };

/** Extracts the JSESSIONID value from `Set-Cookie` header(s). */
function sessionCookie(setCookie: string | string[] | undefined): string | undefined {
  const values = typeof setCookie === 'string' ? [setCookie] : (setCookie ?? []);
  for (const value of values) {
    const match = /(?:^|[;,]\s*)JSESSIONID=([^;,\s]+)/.exec(value);
    if (match?.[1]) return match[1];
  }
  return undefined;
}

/**
 * The session without the configuration API: open, calls with their retries and typed
 * errors, terminate. `GatewaySession` (src/gateway/session.ts) adds the calls.
 */
export class SessionChannel {
  private readonly transport: HttpTransport;
  private readonly apiKey: string;
  private readonly apiKeySource: string | undefined;
  /** The retry bounds of the session's calls (the options' overrides of DEFAULT_RETRY_POLICY). */
  protected readonly policy: RetryPolicy;
  protected readonly clock: RetryClock;
  protected readonly signal: AbortSignal | undefined;
  private readonly onWarning: ((message: string) => void) | undefined;
  private cookie: string | undefined;
  private readonly redactor: SecretRedactor;
  private terminated = false;
  private terminating: Promise<TerminateResult> | undefined;
  private readonly counts = new Map<string, number>();

  /** @throws ConfigError when the URL is refused (plain http to a non-loopback host); nothing is sent. */
  constructor(options: SessionOptions) {
    this.transport = new HttpTransport(options);
    this.apiKey = options.apiKey;
    this.apiKeySource = options.apiKeySource;
    this.redactor = options.secrets ?? new SecretRedactor();
    this.redactor.add(options.apiKey);
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.clock = options.clock ?? systemClock;
    this.signal = options.signal;
    this.onWarning = options.onWarning;
  }

  /** True between a successful `open()` and `terminate()`. */
  get isOpen(): boolean {
    return this.cookie !== undefined && !this.terminated;
  }

  /** HTTP requests sent so far, per method (every attempt counts), e.g. `{ POST: 2, GET: 5 }`. */
  requestCounts(): Readonly<Record<string, number>> {
    return Object.fromEntries(this.counts);
  }

  /**
   * `POST /session/create` with `Authorization: Bearer <key>`; keeps the `JSESSIONID`
   * cookie. Retried after an answer that created nothing (429/502/503/504) and after a
   * fault before the request was sent, but not after the connection broke once it was
   * sent: the gateway may then have opened a session whose cookie was lost, and a retry
   * would open a second one (docs/gateway-api.md "Sessions": a client ends its session).
   * Does nothing when already open; a terminated session cannot be reopened (`not-open`).
   * @throws SessionError (`key-rejected` on 401/403, `no-cookie`, `create-unanswered`),
   *   ApiError, ConnectionError, TlsVerificationError
   */
  async open(): Promise<void> {
    if (this.isOpen) return;
    if (this.terminated) throw new SessionError('not-open', 'POST', '/session/create');
    const res = await retrying(() => this.send({ method: 'POST', path: '/session/create', retry: 'unsent', bearer: true }), {
      policy: this.policy,
      clock: this.clock,
      signal: this.signal,
      retryable: (error) => isConnectPhase(error) || (error instanceof ApiError && isRetryableStatus(error.status)),
    }).catch((error: unknown) => {
      if (error instanceof ConnectionError && error.phase === 'response') {
        throw new SessionError('create-unanswered', 'POST', '/session/create', undefined, undefined, undefined, undefined, { cause: error });
      }
      throw error;
    });
    const cookie = sessionCookie(res.headers['set-cookie']);
    if (!cookie) throw new SessionError('no-cookie', 'POST', '/session/create');
    this.cookie = cookie;
    this.redactor.add(cookie);
  }

  /**
   * `POST /session/terminate`, then closes the connection. Idempotent; never throws:
   * a failure is reported through `onWarning` and returned. Works after the signal aborted.
   */
  terminate(): Promise<TerminateResult> {
    this.terminating ??= this.doTerminate();
    return this.terminating;
  }

  private async doTerminate(): Promise<TerminateResult> {
    const wasOpen = this.cookie !== undefined;
    this.terminated = true;
    try {
      if (!wasOpen) return { terminated: true };
      await retrying(() => this.send({ method: 'POST', path: '/session/terminate', retry: 'transient' }, false), {
        policy: TERMINATE_POLICY,
        clock: this.clock,
      });
      return { terminated: true };
    } catch (error) {
      if (error instanceof SessionError && error.reason === 'expired') return { terminated: true };
      const err = error instanceof Error ? error : new Error(String(error));
      this.onWarning?.(`could not terminate the REST session (it idles out on the gateway): ${err.message}`);
      return { terminated: false, error: err };
    } finally {
      this.cookie = undefined;
      await this.transport.close();
    }
  }

  /** One logical call: retried when idempotent (or, for a POST, only if nothing was sent). */
  protected async call(spec: CallSpec): Promise<RawResponse> {
    return retrying(() => this.send(spec), {
      policy: this.policy,
      clock: this.clock,
      signal: this.signal,
      retryable: spec.retry === 'transient' ? undefined : isConnectPhase,
    });
  }

  /** One HTTP request; a non-2xx answer becomes a typed error. */
  protected async send(spec: CallSpec, observeSignal = true): Promise<RawResponse> {
    if (observeSignal && this.signal?.aborted) throw abortReason(this.signal);
    if (!spec.bearer && !this.isOpen && spec.path !== '/session/terminate') {
      throw new SessionError('not-open', spec.method, spec.path);
    }
    const headers: Record<string, string> = { accept: spec.accept ?? 'application/json', 'content-type': spec.octets ? (spec.octetsType ?? 'application/octet-stream') : 'application/json' };
    if (spec.bearer) headers.authorization = `Bearer ${this.apiKey}`;
    else if (this.cookie) headers.cookie = `JSESSIONID=${this.cookie}`;
    this.counts.set(spec.method, (this.counts.get(spec.method) ?? 0) + 1);
    const res = await this.transport.send({
      method: spec.method,
      path: spec.path,
      headers,
      body: spec.octets ?? (spec.body === undefined ? undefined : JSON.stringify(spec.body)),
      signal: observeSignal ? this.signal : undefined,
      object: spec.object,
      sink: spec.sink,
      sinkHoldsWhole: spec.sinkHoldsWhole,
    });
    if (res.status >= 200 && res.status < 300) return res;
    throw this.failure(spec, res);
  }

  private failure(spec: CallSpec, res: RawResponse): Error {
    const error = firstError(res.text);
    const detail = error?.detail ?? error?.title;
    if (spec.bearer && (res.status === 401 || res.status === 403)) {
      // The gateway's own words first: a URL past the base path is answered 401 too (docs/gateway-api.md "Diagnosing a wrong URL").
      const said = detail === undefined ? undefined : `${error?.code !== undefined ? `${error.code}: ` : ''}${truncateEcho(this.secrets().redact(detail))}`;
      return new SessionError('key-rejected', spec.method, spec.path, res.status, this.apiKeySource, said, this.transport.baseUrl);
    }
    if (!spec.bearer && res.status === 401) return new SessionError('expired', spec.method, spec.path, res.status);
    const init: ApiErrorInit = {
      method: spec.method,
      path: spec.path,
      status: res.status,
      code: error?.code,
      // Redacted first, then cut: a cut through a secret would leave a prefix that no longer matches.
      detail: detail === undefined ? undefined : truncateEcho(this.secrets().redact(detail)),
      object: spec.object,
      retryAfterMs: parseRetryAfter(res.headers['retry-after'], this.clock.now()),
    };
    if (res.status === 409 && error?.code === 'OUTDATED_CONFIGURATION') return new OutdatedConfigurationError(init);
    if (spec.bearer && res.status === 404) {
      // No session endpoint at this URL: it does not end in the API's base path (docs/gateway-api.md "Diagnosing a wrong URL").
      return new ApiError(init, `${spec.method} ${spec.path} failed: 404${init.code !== undefined ? ` ${init.code}` : ''}${init.detail !== undefined ? `: ${init.detail}` : ''}: ${baseUrlHint(this.transport.baseUrl)}`);
    }
    return new ApiError(init);
  }

  /** A 2xx answer's body read as `shape` says; a body of another shape is an UnexpectedResponseError. */
  protected parse<T>(method: string, path: string, res: RawResponse, shape: (document: unknown) => T): T {
    try {
      return shape(parseJson(res.text));
    } catch (error) {
      if (error instanceof DocumentShapeError) throw new UnexpectedResponseError(method, path, res.status, error.message);
      throw error;
    }
  }

  /** The session's known secrets (API key, cookie once open, and whatever the run registered). */
  private secrets(): SecretRedactor {
    this.redactor.add(this.apiKey);
    if (this.cookie) this.redactor.add(this.cookie);
    return this.redactor;
  }
}

/**
 * What a URL must look like when the gateway has no session endpoint at it: the API's base
 * path, e.g. `https://host/airlock/rest` (docs/gateway-api.md "Base path and transport").
 */
export function baseUrlHint(baseUrl: string): string {
  let example = 'https://HOST/airlock/rest';
  try {
    const url = new URL(baseUrl);
    example = `${url.origin}/airlock/rest`;
  } catch {
    // The example with a placeholder host.
  }
  return `the URL ${baseUrl} has no session endpoint: it must end in the API's base path, e.g. ${example}`;
}

/**
 * A transport fault before the request was sent (it certainly did not arrive) that a retry
 * may cure: not a host without a DNS entry, nor a server that speaks another scheme
 * ({@link isTransientFault}).
 */
export function isConnectPhase(error: unknown): boolean {
  return error instanceof ConnectionError && error.phase === 'connect' && isTransientFault(error);
}
