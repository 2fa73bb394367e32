/**
 * Typed errors of the gateway client. All map to exit code 1 (`EXIT.error`) except an
 * interruption (`SIGNAL_EXIT`: 129 for SIGHUP, 130 for SIGINT, 143 for SIGTERM). Callers
 * branch on the class and its fields (`status`, `code`), never on message text.
 *
 * Messages never contain the API key, the `JSESSIONID` cookie or request bodies: they
 * name the call (method and path), the status, the gateway's error code and detail, and
 * the object the call was about. The words they share are src/gateway/error-text.ts.
 */
import { GwopsError } from '../core/errors.js';
import { SIGNAL_EXIT } from '../core/exit-codes.js';
import type { InterruptSignal } from '../core/interrupts.js';
import { attemptsNote, bytesText, callLabel, hostOf, interruptionText, secondsText, sessionFailureText, timeoutCause } from './error-text.js';

/** The object a call is about, for error messages: e.g. `{ kind: 'mapping', name: 'shop-api' }`. */
export interface ObjectLabel {
  readonly kind: string;
  readonly name: string;
}

/** Fields of an {@link ApiError}. */
export interface ApiErrorInit {
  /** HTTP method, e.g. `PATCH`. */
  readonly method: string;
  /** Path relative to the API base URL, with the query string if any. */
  readonly path: string;
  readonly status: number;
  /** `errors[0].code` of the error document, when the gateway sent one. */
  readonly code?: string | undefined;
  /** `errors[0].detail` (or `title`), already redacted. */
  readonly detail?: string | undefined;
  readonly object?: ObjectLabel | undefined;
  /** `Retry-After` of the response, in milliseconds, when present and parseable. */
  readonly retryAfterMs?: number | undefined;
  /** How many times the call was sent in total (1 when it was not retried). */
  readonly attempts?: number | undefined;
}

/**
 * The gateway answered a call with a non-success status.
 * Message: `PATCH /configuration/mappings/12 (mapping 'shop-api') failed: 400 INVALID_VALUE: <detail>`.
 */
export class ApiError extends GwopsError {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly code: string | undefined;
  readonly detail: string | undefined;
  readonly object: ObjectLabel | undefined;
  readonly retryAfterMs: number | undefined;
  readonly attempts: number;

  constructor(init: ApiErrorInit, message?: string) {
    const code = init.code ? ` ${init.code}` : '';
    const detail = init.detail ? `: ${init.detail}` : '';
    super(
      message ??
        `${callLabel(init.method, init.path, init.object)} failed: ${init.status}${code}${detail}${attemptsNote(init.attempts)}`,
    );
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.object = init.object;
    this.retryAfterMs = init.retryAfterMs;
    this.attempts = init.attempts ?? 1;
  }

  /** A copy of this error that records the total number of attempts. */
  withAttempts(attempts: number): ApiError {
    return new ApiError({ ...this.fields(), attempts });
  }

  protected fields(): ApiErrorInit {
    return {
      method: this.method,
      path: this.path,
      status: this.status,
      code: this.code,
      detail: this.detail,
      object: this.object,
      retryAfterMs: this.retryAfterMs,
      attempts: this.attempts,
    };
  }
}

/**
 * Activation refused with 409 `OUTDATED_CONFIGURATION`: another session activated a
 * configuration after this run loaded its copy (docs/gateway-api.md "Configurations and
 * activation"). gwops never overrides this with `ignoreOutdatedConfiguration`.
 */
export class OutdatedConfigurationError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(
      init,
      `${init.method} ${init.path} failed: 409 OUTDATED_CONFIGURATION: someone else activated a configuration ` +
        'after this run loaded the active one; nothing was activated. Re-run plan and apply, which read the current state afresh ' +
        '(apply --retry-on-conflict N does so by itself).',
    );
  }

  override withAttempts(attempts: number): OutdatedConfigurationError {
    return new OutdatedConfigurationError({ ...this.fields(), attempts });
  }
}

/** Why a session-level failure happened. */
export type SessionFailure =
  /** `POST /session/create` answered 401/403: the API key was rejected. */
  | 'key-rejected'
  /** A call inside the session answered 401: the session expired or was terminated. */
  | 'expired'
  /** `POST /session/create` succeeded but set no `JSESSIONID` cookie. */
  | 'no-cookie'
  /** A call was made before `open()` or after `terminate()`. */
  | 'not-open'
  /**
   * The connection broke after `POST /session/create` was sent and before its answer: the
   * gateway may have opened a session whose cookie never arrived. Not retried, so that
   * no second session is opened; the unknown one idles out.
   */
  | 'create-unanswered';

/** The REST session could not be opened or is no longer valid. */
export class SessionError extends GwopsError {
  readonly reason: SessionFailure;
  readonly method: string;
  readonly path: string;
  readonly status: number | undefined;
  /**
   * For `key-rejected`: where the rejected key came from, e.g. `environment variable
   * GWOPS_API_KEY` (a description of the source, never the key).
   */
  readonly keySource: string | undefined;

  /** For `key-rejected`: the gateway's own code and message (`UNAUTHORIZED: ...`), already redacted. */
  readonly gatewayMessage: string | undefined;

  /**
   * @param gatewayMessage the gateway's code and detail, shown first when given
   * @param baseUrl the base URL used; named when it does not end in the usual base path
   * @param options the error's `cause`
   */
  constructor(
    reason: SessionFailure,
    method: string,
    path: string,
    status?: number,
    keySource?: string,
    gatewayMessage?: string,
    baseUrl?: string,
    options?: ErrorOptions,
  ) {
    super(`${method} ${path} failed: ${sessionFailureText(reason, status, keySource, gatewayMessage, baseUrl)}`, options);
    this.gatewayMessage = gatewayMessage;
    this.reason = reason;
    this.method = method;
    this.path = path;
    this.status = status;
    this.keySource = keySource;
  }
}

/** Where a transport fault happened. */
export type ConnectionPhase =
  /** Before the request was sent (refused, unreachable, connect timeout): it certainly did not arrive. */
  | 'connect'
  /** After sending started (reset, dropped, response timeout): the call may or may not have taken effect. */
  | 'response';

/** The gateway could not be reached, or the connection failed during a call. */
export class ConnectionError extends GwopsError {
  readonly method: string;
  readonly path: string;
  readonly phase: ConnectionPhase;
  /** The low-level error code, e.g. `ECONNREFUSED`, `UND_ERR_SOCKET`. */
  readonly causeCode: string;
  readonly object: ObjectLabel | undefined;
  readonly attempts: number;
  /** `protocol://host:port` of the gateway. */
  readonly origin: string;

  constructor(
    init: { method: string; path: string; phase: ConnectionPhase; causeCode: string; origin: string; object?: ObjectLabel | undefined; attempts?: number },
    options?: ErrorOptions,
  ) {
    const what =
      init.causeCode === 'ENOTFOUND'
        ? `host not found: ${hostOf(init.origin)} (no DNS entry; check the host name in the URL)`
        : init.phase === 'connect'
          ? `cannot connect to ${init.origin}`
          : `connection to ${init.origin} failed during the call`;
    super(`${callLabel(init.method, init.path, init.object)} failed: ${what} (${init.causeCode})${attemptsNote(init.attempts)}`, options);
    this.method = init.method;
    this.path = init.path;
    this.phase = init.phase;
    this.causeCode = init.causeCode;
    this.object = init.object;
    this.attempts = init.attempts ?? 1;
    this.origin = init.origin;
  }

  /** A copy of this error that records the total number of attempts. */
  withAttempts(attempts: number): ConnectionError {
    const { method, path, phase, causeCode, origin, object } = this;
    return new ConnectionError({ method, path, phase, causeCode, origin, object, attempts }, { cause: this.cause });
  }
}

/**
 * A {@link ConnectionError} because the gateway did not answer in time: no connection
 * within the connect timeout (phase `connect`), no response headers, or a body that
 * stopped arriving, within the response timeout (phase `response`; `--timeout`).
 * Message: `GET /configuration/mappings failed: the gateway at https://gw:443 timed out after 120 s (no response; UND_ERR_HEADERS_TIMEOUT)`.
 */
export class ConnectionTimeoutError extends ConnectionError {
  /** The timeout that expired, in milliseconds. */
  readonly timeoutMs: number;

  constructor(
    init: { method: string; path: string; phase: ConnectionPhase; causeCode: string; origin: string; timeoutMs: number; object?: ObjectLabel | undefined; attempts?: number },
    options?: ErrorOptions,
  ) {
    super(init, options);
    this.timeoutMs = init.timeoutMs;
    const after = `timed out after ${secondsText(init.timeoutMs)} s`;
    const what =
      init.phase === 'connect'
        ? `cannot connect to ${init.origin}: ${after}`
        : `the gateway at ${init.origin} ${after} (${timeoutCause(init.causeCode)}; --timeout sets the limit)`;
    const code = init.phase === 'connect' ? ` (${init.causeCode})` : '';
    this.message = `${callLabel(init.method, init.path, init.object)} failed: ${what}${code}${attemptsNote(init.attempts)}`;
  }

  /** A copy of this error that records the total number of attempts. */
  override withAttempts(attempts: number): ConnectionTimeoutError {
    const { method, path, phase, causeCode, origin, object, timeoutMs } = this;
    return new ConnectionTimeoutError({ method, path, phase, causeCode, origin, object, timeoutMs, attempts }, { cause: this.cause });
  }
}

/**
 * The gateway's answer is larger than gwops reads (see `MAX_BODY_BYTES` and
 * `MAX_STREAMED_BODY_BYTES` in http.ts): reading stopped at the limit and the rest was
 * discarded. Never retried (the same call would get the same answer). Exit code 1.
 */
export class ResponseTooLargeError extends GwopsError {
  readonly method: string;
  readonly path: string;
  readonly object: ObjectLabel | undefined;
  /** The limit that was exceeded, in bytes. */
  readonly limitBytes: number;
  /** True for the limit of a list body framed element by element, false for a whole body. */
  readonly streamed: boolean;
  /** The `Content-Length` the gateway announced, when it did. */
  readonly declaredBytes: number | undefined;

  constructor(init: { method: string; path: string; limitBytes: number; streamed: boolean; declaredBytes?: number | undefined; object?: ObjectLabel | undefined }) {
    const kind = init.streamed ? 'a list body read element by element' : 'a whole response body';
    const declared = init.declaredBytes !== undefined ? ` (Content-Length ${bytesText(init.declaredBytes)})` : '';
    super(
      `${callLabel(init.method, init.path, init.object)} failed: the response is larger than ${bytesText(init.limitBytes)}${declared}, ` +
        `the limit of gwops for ${kind}; gwops stopped reading it (not retried)`,
    );
    this.method = init.method;
    this.path = init.path;
    this.object = init.object;
    this.limitBytes = init.limitBytes;
    this.streamed = init.streamed;
    this.declaredBytes = init.declaredBytes;
  }
}

/**
 * The gateway's TLS certificate could not be verified. Never retried. `message` replaces
 * the general advice when the cause is known (a certificate that the CA of `--ca-file` did
 * not sign: src/gateway/diagnose.ts).
 */
export class TlsVerificationError extends GwopsError {
  readonly causeCode: string;
  constructor(origin: string, causeCode: string, options?: ErrorOptions, message?: string) {
    super(
      message ??
        `cannot verify the TLS certificate of ${origin} (${causeCode}): add the issuing CA with --ca-file ` +
          '(or the target\'s caFile), or, for a test gateway only, use --insecure',
      options,
    );
    this.causeCode = causeCode;
  }
}

/**
 * The URL's scheme is not what the server speaks: `https://` to a plain-HTTP server, or
 * `http://` to an HTTPS server (found by a TLS handshake, src/gateway/diagnose.ts). Never
 * retried: the same URL fails the same way. Exit code 1.
 */
export class SchemeMismatchError extends GwopsError {
  /** `protocol://host:port` of the URL given. */
  readonly origin: string;
  /** What the server speaks. */
  readonly speaks: 'http' | 'https';
  /** The low-level error code, e.g. `ERR_SSL_WRONG_VERSION_NUMBER`, `UND_ERR_SOCKET`. */
  readonly causeCode: string;
  constructor(init: { origin: string; speaks: 'http' | 'https'; causeCode: string; message: string }, options?: ErrorOptions) {
    super(init.message, options);
    this.origin = init.origin;
    this.speaks = init.speaks;
    this.causeCode = init.causeCode;
  }
}

/** The gateway answered with something that is not the expected JSON:API document. */
export class UnexpectedResponseError extends GwopsError {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  constructor(method: string, path: string, status: number, what: string) {
    super(`${method} ${path}: unexpected response (${status}): ${what}`);
    this.method = method;
    this.path = path;
    this.status = status;
  }
}

/**
 * What an interruption means for the active configuration: `discarded` (the usual case:
 * edits that were not activated are lost with the session), `activated` (the signal came
 * while the activation request was in flight, and the gateway answered that it activated),
 * `unknown` (the signal came while the activation request was in flight, and no answer
 * arrived in time).
 */
export type InterruptOutcome = 'discarded' | 'activated' | 'unknown';

/**
 * The run was interrupted by a signal; the session was terminated. Exit code 129
 * (SIGHUP), 130 (SIGINT) or 143 (SIGTERM); the message says what became of the edits.
 */
export class InterruptedError extends GwopsError {
  override readonly exitCode: number;
  readonly signal: InterruptSignal;
  readonly outcome: InterruptOutcome;
  /**
   * The work did not settle within the grace period after the session was terminated (or
   * a third signal came) and was given up on: the process must end now (src/cli/process.ts).
   */
  readonly abandoned: boolean;
  constructor(signal: InterruptSignal, outcome: InterruptOutcome = 'discarded', options: { readonly abandoned?: boolean } = {}) {
    super(interruptionText(signal, outcome));
    this.signal = signal;
    this.outcome = outcome;
    this.abandoned = options.abandoned === true;
    this.exitCode = SIGNAL_EXIT[signal];
  }
}
