/**
 * The words of the gateway client's error messages (src/gateway/errors.ts): the call an
 * error is about, attempts, durations and sizes, and what a session failure or an
 * interruption means for the user. Messages never hold the API key, the `JSESSIONID`
 * cookie or a request body.
 */
import type { InterruptSignal } from '../core/interrupts.js';
import type { InterruptOutcome, ObjectLabel, SessionFailure } from './errors.js';

/** The call an error is about: `PATCH /configuration/mappings/12 (mapping 'shop-api')`. */
export function callLabel(method: string, path: string, object: ObjectLabel | undefined): string {
  return object ? `${method} ${path} (${object.kind} '${object.name}')` : `${method} ${path}`;
}

/** ` (after N attempts)` when the call was sent more than once, else nothing. */
export function attemptsNote(attempts: number | undefined): string {
  return attempts !== undefined && attempts > 1 ? ` (after ${attempts} attempts)` : '';
}

/** `ms` as seconds for messages: `120`, `0.5`. */
export function secondsText(ms: number): string {
  return String(Number((ms / 1000).toFixed(3)));
}

/** A byte count for messages: `64 MiB`, `1 GiB`, `512 bytes`. */
export function bytesText(bytes: number): string {
  const units: readonly (readonly [string, number])[] = [['GiB', 2 ** 30], ['MiB', 2 ** 20], ['KiB', 2 ** 10]];
  for (const [unit, size] of units) if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  return `${bytes} bytes`;
}

/** What did not arrive in time, by the timeout's error code. */
export function timeoutCause(code: string): string {
  if (code === 'UND_ERR_BODY_TIMEOUT') return 'the response body stopped arriving';
  // http.ts BODY_TOO_SLOW: the whole exchange took more than twice the timeout.
  if (code === 'GWOPS_BODY_TOO_SLOW') return 'the response body arrived too slowly; the whole call may take twice the timeout';
  return 'no response';
}

/** The host of `protocol://host:port`. */
export function hostOf(origin: string): string {
  try {
    return new URL(origin).hostname;
  } catch {
    return origin;
  }
}

/** Why a session call failed, for SessionError's message (after `METHOD PATH failed: `); `said` is the gateway's own code and detail. */
export function sessionFailureText(reason: SessionFailure, status: number | undefined, keySource: string | undefined, said?: string, baseUrl?: string): string {
  switch (reason) {
    case 'key-rejected':
      if (said !== undefined) {
        const key = keySource !== undefined ? `the API key from ${keySource}` : 'the API key';
        const url =
          baseUrl !== undefined && !/\/airlock\/rest$/.test(baseUrl)
            ? `, or the URL ${baseUrl} does not end in the API's base path (e.g. https://HOST/airlock/rest)`
            : '';
        return `${status ?? 401} ${said} (the gateway's message): ${key} was rejected (invalid, expired, revoked, lacking rights, or meant for another gateway)${url}`;
      }
      return keySource !== undefined
        ? `${status ?? 401} the API key from ${keySource} was rejected (invalid, expired, revoked, lacking rights, or meant for another gateway)`
        : `${status ?? 401} the gateway rejected the API key (invalid, expired, revoked, or lacking rights)`;
    case 'expired':
      return `${status ?? 401} the REST session is no longer valid (idle timeout or terminated); nothing was activated`;
    case 'no-cookie':
      return 'the gateway created a session but set no JSESSIONID cookie';
    case 'not-open':
      return 'no open REST session (call open() first; the session may already be terminated)';
    case 'create-unanswered':
      return (
        'the connection broke before the gateway answered, so the gateway may have opened a REST session that gwops cannot ' +
        'terminate (it idles out); gwops did not retry, so as not to open a second one; nothing was changed'
      );
  }
}

/** What an interruption by `signal` did to the edits, for InterruptedError's message. */
export function interruptionText(signal: InterruptSignal, outcome: InterruptOutcome): string {
  switch (outcome) {
    case 'discarded':
      return `interrupted by ${signal}: the REST session was terminated (edits not yet activated are discarded)`;
    case 'activated':
      return (
        `interrupted by ${signal} after the activation request was sent: the gateway activated the configuration ` +
        "(confirmed in its configurations list); the REST session was terminated"
      );
    case 'unknown':
      return (
        `interrupted by ${signal} while waiting for the answer to the activation request: whether the gateway ` +
        'activated the configuration is unknown; run gwops drift to see the live state before applying again'
      );
  }
}
