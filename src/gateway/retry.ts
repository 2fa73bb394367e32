/**
 * Retries of safe calls (docs/architecture.md "Habits": retry what is safe):
 * 429/502/503/504 and connection faults (not a response timeout: see
 * {@link isTransientFault}), exponential backoff with jitter, `Retry-After`
 * honoured, bounded by attempts and by total time. Whether a call is safe to repeat is
 * decided by the caller (GatewaySession); a POST is never passed here blindly.
 */
import { ApiError, ConnectionError, ConnectionTimeoutError } from './errors.js';

/** Bounds of retrying. All durations in milliseconds. */
export interface RetryPolicy {
  /** Total sends of one call, the first included. `1` disables retries. */
  readonly maxAttempts: number;
  /** Backoff before the 2nd attempt; doubles per attempt. */
  readonly baseDelayMs: number;
  /** Cap of one computed backoff delay (a longer `Retry-After` is still honoured within `maxTotalMs`). */
  readonly maxDelayMs: number;
  /** No retry is started that would wait past this much time since the first attempt. */
  readonly maxTotalMs: number;
}

/** Defaults: 5 attempts, 250 ms doubling to at most 8 s, at most 60 s in total. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 250, maxDelayMs: 8_000, maxTotalMs: 60_000 };

/** Time and randomness, injectable so that tests can record waits instead of waiting. */
export interface RetryClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Waits `ms`; rejects with `signal.reason` when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Uniform in [0, 1). */
  random(): number;
}

/** The reason an aborted signal carries, as an Error. */
export function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new Error('aborted');
}

/** The real clock. */
export const systemClock: RetryClock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortReason(signal));
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(abortReason(signal));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** Statuses worth retrying: 429 Too Many Requests, 502, 503, 504. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 502 || status === 503 || status === 504;
}

/**
 * Parses a `Retry-After` header (RFC 9110 §10.2.3): delay-seconds or an HTTP date.
 * @param value the header value (the first one if repeated)
 * @param nowMs the current time, milliseconds since the epoch
 * @returns the delay in milliseconds (0 for a date in the past), or undefined when absent or unparseable
 */
export function parseRetryAfter(value: string | readonly string[] | undefined, nowMs: number): number | undefined {
  const raw = (typeof value === 'string' ? value : value?.[0])?.trim();
  if (!raw) return undefined;
  if (/^\d+$/.test(raw)) return Number(raw) * 1000;
  if (/^\d/.test(raw) || raw.startsWith('-')) return undefined;
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/**
 * The backoff before attempt `failedAttempts + 1`: `baseDelayMs * 2^(failedAttempts-1)`
 * capped at `maxDelayMs`, then "equal jitter": uniformly in [half, whole] of that.
 * @param failedAttempts attempts made so far (≥ 1)
 * @returns milliseconds, within [0, policy.maxDelayMs]
 */
export function backoffDelay(failedAttempts: number, policy: RetryPolicy, random: () => number): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, failedAttempts - 1));
  const half = exp / 2;
  return Math.round(half + half * Math.min(Math.max(random(), 0), 1));
}

/**
 * True for faults that a retry may cure: an {@link ApiError} with status 429/502/503/504,
 * or a {@link ConnectionError}, except a response timeout. Not retried: TLS verification
 * failures, 4xx, 500; a response timeout ({@link ConnectionTimeoutError} in phase
 * `response`: the gateway took the call and stayed silent for the whole timeout, and
 * repeating it would multiply the wait the user bounded with `--timeout`); a response too
 * large (ResponseTooLargeError: the same call would download the same answer again); a
 * host not found (`ENOTFOUND`); a scheme that the server does not speak (SchemeMismatchError).
 */
export function isTransientFault(error: unknown): boolean {
  if (error instanceof ApiError) return isRetryableStatus(error.status);
  if (error instanceof ConnectionTimeoutError && error.phase === 'response') return false;
  // A host without a DNS entry stays without one (EAI_AGAIN is the temporary failure).
  if (error instanceof ConnectionError && error.causeCode === 'ENOTFOUND') return false;
  return error instanceof ConnectionError;
}

/** What {@link retrying} needs besides the operation. */
export interface RetryOptions<T> {
  readonly policy: RetryPolicy;
  readonly clock: RetryClock;
  readonly signal?: AbortSignal | undefined;
  /** Which errors to retry; default {@link isTransientFault}. */
  readonly retryable?: ((error: unknown) => boolean) | undefined;
  /**
   * Called after the wait that follows a retryable failure, before the next attempt. A
   * result other than undefined ends the loop with that result (createChecked: "did the
   * create land after all?"). Errors it throws end the loop.
   */
  readonly recover?: ((error: unknown, failedAttempts: number) => Promise<T | undefined>) | undefined;
}

/** The wait before the next attempt: `Retry-After` when the gateway sent one, else backoff. */
export function nextDelay(error: unknown, failedAttempts: number, policy: RetryPolicy, random: () => number): number {
  if (error instanceof ApiError && error.retryAfterMs !== undefined) return error.retryAfterMs;
  return backoffDelay(failedAttempts, policy, random);
}

function withAttempts(error: unknown, attempts: number): unknown {
  if (attempts <= 1) return error;
  if (error instanceof ApiError || error instanceof ConnectionError) return error.withAttempts(attempts);
  return error;
}

/**
 * Runs `operation` until it succeeds, fails with a non-retryable error, or the policy's
 * bounds are reached.
 * @param operation receives the 1-based attempt number
 * @throws the last error; an ApiError/ConnectionError then records the number of attempts
 */
export async function retrying<T>(operation: (attempt: number) => Promise<T>, options: RetryOptions<T>): Promise<T> {
  const { policy, clock, signal } = options;
  const retryable = options.retryable ?? isTransientFault;
  const started = clock.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation(attempt);
    } catch (error) {
      if (!retryable(error) || attempt >= policy.maxAttempts) throw withAttempts(error, attempt);
      const delay = nextDelay(error, attempt, policy, () => clock.random());
      if (clock.now() - started + delay > policy.maxTotalMs) throw withAttempts(error, attempt);
      if (signal?.aborted) throw abortReason(signal);
      await clock.sleep(delay, signal);
      if (options.recover) {
        const recovered = await options.recover(error, attempt);
        if (recovered !== undefined) return recovered;
      }
    }
  }
}
