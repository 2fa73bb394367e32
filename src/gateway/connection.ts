/**
 * Where the gateway is, how to authenticate and how long to wait (README.md, connection
 * options): the URL from `--url` or the target; the API key from `--api-key-file`, the
 * target's `apiKeyEnv`/`apiKeyFile`, or `GWOPS_API_KEY`, never from a command-line value;
 * the timeout from `--timeout`, `GWOPS_TIMEOUT` or the target's `timeout`.
 */
import { resolve } from 'node:path';
import { ConfigError, UsageError, FileReadError } from '../core/errors.js';
import { apiKeyExpiry, utcInstant } from './api-key.js';
import { FILE_LIMITS, readTextBounded } from '../core/files.js';
import { checkBaseUrl } from './base-url.js';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_RESPONSE_TIMEOUT_MS } from './http.js';
import { trimTrailing } from '../core/linear-text.js';

/**
 * The connection part of a target of `gwops.yaml` (the manifest loader's `ConnectionTarget`
 * has these members and more): URL, where the API key is, an extra CA.
 */
export interface ConnectionTarget {
  /** Base URL of the API, e.g. `https://gw.example.com/airlock/rest`. */
  readonly url: string;
  /** Name of an environment variable holding the API key. */
  readonly apiKeyEnv?: string | undefined;
  /** File holding the API key (relative to `cwd`). */
  readonly apiKeyFile?: string | undefined;
  /** PEM file of an extra CA to trust (relative to `cwd`). */
  readonly caFile?: string | undefined;
  /** How long to wait for the gateway, in seconds (see {@link resolveConnection}). */
  readonly timeout?: number | undefined;
}

/** Inputs of {@link resolveConnection}; `url`, `apiKeyFile`, `caFile`, `insecure` come from the command line. */
export interface ConnectionInput {
  readonly url?: string | undefined;
  readonly target?: ConnectionTarget | undefined;
  /** Name of the target, for messages only. */
  readonly targetName?: string | undefined;
  readonly apiKeyFile?: string | undefined;
  readonly caFile?: string | undefined;
  readonly insecure?: boolean | undefined;
  /** `--timeout`, in seconds (see {@link parseTimeoutSeconds}). */
  readonly timeout?: number | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Relative file paths are resolved against this directory. */
  readonly cwd: string;
  /** The time an API key's expiry is compared with (default: the clock). */
  readonly now?: Date | undefined;
}

/**
 * A resolved connection. `apiKey` is a secret: never print, log or serialise this
 * object (its `toJSON` leaves the key out, as a safety net).
 */
export interface ResolvedConnection {
  readonly url: string;
  readonly apiKey: string;
  /**
   * Where the key came from, for messages (not secret), e.g. `environment variable
   * GWOPS_API_KEY` or `apiKeyFile of target 'prod' (/path/key)`.
   */
  readonly apiKeySource: string;
  /** PEM of the extra CA, when one was configured. */
  readonly ca?: string;
  /** The file `ca` was read from (absolute), for messages. */
  readonly caFile?: string;
  readonly insecure: boolean;
  /** The timeouts of every call, from the resolved timeout (see {@link resolveConnection}). */
  readonly timeouts: { readonly connectMs: number; readonly headersMs: number; readonly bodyMs: number };
}

/** The environment variable holding the API key when neither `--api-key-file` nor the target names one. */
export const API_KEY_ENV = 'GWOPS_API_KEY';

/** The environment variable holding the timeout in seconds (below `--timeout`, above a target's `timeout`). */
export const TIMEOUT_ENV = 'GWOPS_TIMEOUT';

/** Default timeout, in seconds: how long a call may wait for the answer (and each pause in it). */
export const DEFAULT_TIMEOUT_SECONDS = DEFAULT_RESPONSE_TIMEOUT_MS / 1000;

/** Smallest accepted timeout, in seconds (the HTTP client's timers have about 1 s resolution). */
export const MIN_TIMEOUT_SECONDS = 1;

/** Largest accepted timeout, in seconds (one day). */
export const MAX_TIMEOUT_SECONDS = 86_400;

const TIMEOUT_RULE = `takes a number of seconds from ${MIN_TIMEOUT_SECONDS} to ${MAX_TIMEOUT_SECONDS}, e.g. 30`;

/**
 * Parses a timeout given as text (`--timeout`, `GWOPS_TIMEOUT`): a decimal number of
 * seconds from {@link MIN_TIMEOUT_SECONDS} to {@link MAX_TIMEOUT_SECONDS}.
 * @returns the seconds, or undefined when the text is not such a number
 */
export function parseTimeoutSeconds(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return undefined;
  const seconds = Number(trimmed);
  return isValidTimeout(seconds) ? seconds : undefined;
}

function isValidTimeout(seconds: number): boolean {
  return Number.isFinite(seconds) && seconds >= MIN_TIMEOUT_SECONDS && seconds <= MAX_TIMEOUT_SECONDS;
}

/**
 * The `--timeout` value as seconds.
 * @throws UsageError (one line, without the value) when it is not a valid timeout
 */
export function timeoutOption(text: string, option = '--timeout'): number {
  const seconds = parseTimeoutSeconds(text);
  if (seconds === undefined) throw new UsageError(`${option} ${TIMEOUT_RULE}`);
  return seconds;
}

/** What the bounded reader said about a file (src/core/files.ts); any other error is rethrown. */
function problemOf(error: unknown): string {
  if (error instanceof FileReadError) return error.problem;
  throw error;
}

function readText(path: string, what: string, limit: number): string {
  try {
    return readTextBounded(path, limit);
  } catch (error) {
    throw new ConfigError(`cannot read ${what} ${path}: ${problemOf(error)}`);
  }
}

function checkedKey(text: string, what: string): string {
  const key = text.trim();
  if (key === '') throw new ConfigError(`${what} is empty`);
  if (/\s/.test(key)) throw new ConfigError(`${what} must hold only the API key (one line, no spaces)`);
  return key;
}

/**
 * The key in the file named by `--api-key-file`. When the file cannot be read the value
 * is not shown: it may be the key itself, pasted instead of a path.
 */
function keyFromOptionFile(full: string): string {
  let text: string;
  try {
    text = readTextBounded(full, FILE_LIMITS.apiKey);
  } catch (error) {
    throw new ConfigError(
      `cannot read the file named by --api-key-file (${problemOf(error)}); the value given is not shown, as it may be the key itself. ` +
        '--api-key-file takes the path of a file that holds the API key (or use GWOPS_API_KEY)',
    );
  }
  return checkedKey(text, `API key file ${full} (--api-key-file)`);
}

/** The timeouts of a connection: `--timeout`, then `GWOPS_TIMEOUT`, then the target's `timeout`, then 120 s. */
function resolveTimeouts(input: ConnectionInput, targetLabel: string): ResolvedConnection['timeouts'] {
  let seconds = DEFAULT_TIMEOUT_SECONDS;
  const fromEnv = input.env[TIMEOUT_ENV]?.trim();
  if (input.timeout !== undefined) {
    if (!isValidTimeout(input.timeout)) throw new UsageError(`--timeout ${TIMEOUT_RULE}`);
    seconds = input.timeout;
  } else if (fromEnv) {
    const parsed = parseTimeoutSeconds(fromEnv);
    if (parsed === undefined) throw new ConfigError(`environment variable ${TIMEOUT_ENV} ${TIMEOUT_RULE}`);
    seconds = parsed;
  } else if (input.target?.timeout !== undefined) {
    if (!isValidTimeout(input.target.timeout)) throw new ConfigError(`timeout of ${targetLabel} ${TIMEOUT_RULE}`);
    seconds = input.target.timeout;
  }
  const ms = Math.round(seconds * 1000);
  return { connectMs: Math.min(DEFAULT_CONNECT_TIMEOUT_MS, ms), headersMs: ms, bodyMs: ms };
}

/**
 * Resolves URL, API key, TLS settings and timeouts.
 *
 * The key: `--api-key-file`, then the target's own key setting (`apiKeyEnv`, then
 * `apiKeyFile`), then `GWOPS_API_KEY`. A target that names its own key never gets
 * `GWOPS_API_KEY` instead: when `GWOPS_API_KEY` is set and differs from the target's key
 * (or the target's `apiKeyEnv` is unset), the connection is refused, naming both sources.
 * Where the key came from is recorded in `apiKeySource` (for messages such as a rejected key).
 *
 * A key that belongs to a target goes only to the target's URL: `--url` beside a target
 * must be the target's own URL (compared without a trailing slash), unless
 * `--api-key-file` gives the key. A key that is a JWT whose `exp` has passed (read without
 * verifying, `now` or the clock) is refused before connecting.
 *
 * The CA file: `--ca-file`, else the target's `caFile`.
 *
 * The timeout (seconds): `--timeout`, then `GWOPS_TIMEOUT`, then the target's `timeout`,
 * then {@link DEFAULT_TIMEOUT_SECONDS} (120). It bounds the wait for the response headers
 * and each pause in the body; connecting takes at most min(10 s, timeout).
 * @throws ConfigError when no URL is given, the URL is refused (plain http to a
 *   non-loopback host), no key is found (naming every place looked at, never a value),
 *   two different keys apply, `--url` is not the URL of the target whose key would go
 *   there, the key expired, a file cannot be read or holds no PEM certificate, or
 *   `GWOPS_TIMEOUT` or the target's `timeout` is invalid; UsageError for an invalid `timeout`.
 */
export function resolveConnection(input: ConnectionInput): ResolvedConnection {
  const url = input.url ?? input.target?.url;
  if (url === undefined || url === '') {
    throw new ConfigError('no gateway URL: pass --url URL or --target NAME (a target of gwops.yaml)');
  }
  checkBaseUrl(url);
  const targetLabel = input.targetName !== undefined ? `target '${input.targetName}'` : 'the target';
  refuseForeignUrl(input, targetLabel);
  const timeouts = resolveTimeouts(input, targetLabel);
  const { key: apiKey, source: apiKeySource } = resolveApiKey(input, targetLabel);
  refuseExpiredKey(apiKey, apiKeySource, input.now ?? new Date());
  const caFile = input.caFile ?? input.target?.caFile;
  let ca: string | undefined;
  let caPath: string | undefined;
  if (caFile !== undefined) {
    const full = resolve(input.cwd, caFile);
    caPath = full;
    ca = readText(full, input.caFile !== undefined ? 'CA file (--ca-file)' : `CA file (caFile of ${targetLabel})`, FILE_LIMITS.ca);
    if (!ca.includes('-----BEGIN CERTIFICATE-----')) throw new ConfigError(`CA file ${full} holds no PEM certificate`);
  }
  const resolved: ResolvedConnection = { url, apiKey, apiKeySource, insecure: input.insecure === true, timeouts, ...(ca !== undefined ? { ca } : {}), ...(caPath !== undefined ? { caFile: caPath } : {}) };
  Object.defineProperty(resolved, 'toJSON', {
    enumerable: false,
    value: () => ({ url, insecure: resolved.insecure, ca: ca !== undefined ? '[PEM]' : undefined, apiKey: '[redacted]', apiKeySource, timeouts }),
  });
  return resolved;
}

/** A base URL compared as the gateway sees it: parsed (scheme and host case, default port) and without trailing slashes. */
function comparableUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${trimTrailing(parsed.pathname, '/')}${parsed.search}`;
}

/**
 * A target's key goes only to the target's own URL: `--url` beside a target must be that
 * URL, unless `--api-key-file` names the key for it (then no key of the target is used).
 * @throws ConfigError naming both URLs; nothing has been read or sent
 */
function refuseForeignUrl(input: ConnectionInput, targetLabel: string): void {
  if (input.url === undefined || input.target === undefined || input.apiKeyFile !== undefined) return;
  checkBaseUrl(input.target.url);
  if (comparableUrl(input.url) === comparableUrl(input.target.url)) return;
  throw new ConfigError(
    `--url ${input.url} is not the URL of ${targetLabel} (${input.target.url}); gwops sends a target's API key only to the ` +
      `target's own URL: drop --url to reach ${targetLabel}, or drop --target and give the key for ${input.url} with --api-key-file or ${API_KEY_ENV}`,
  );
}

/**
 * Refuses a key that is a JWT whose `exp` has passed (the gateway would answer 401):
 * named by where it came from and the date it expired, never by value.
 * @throws ConfigError
 */
function refuseExpiredKey(key: string, source: string, now: Date): void {
  const expiry = apiKeyExpiry(key);
  if (expiry === undefined || expiry.getTime() > now.getTime()) return;
  throw new ConfigError(
    `the API key from ${source} expired on ${utcInstant(expiry)} (its exp claim); nothing was sent to the gateway: ` +
      'issue a new API key on the gateway and put it there',
  );
}

interface FoundKey {
  readonly key: string;
  readonly source: string;
}

function resolveApiKey(input: ConnectionInput, targetLabel: string): FoundKey {
  if (input.apiKeyFile !== undefined) {
    const full = resolve(input.cwd, input.apiKeyFile);
    return { key: keyFromOptionFile(full), source: `--api-key-file (${full})` };
  }
  const looked: string[] = ['--api-key-file'];
  const target = input.target;
  const globalSource = `environment variable ${API_KEY_ENV}`;
  const globalKey = input.env[API_KEY_ENV]?.trim() || undefined;

  // The target's own key setting.
  let own: FoundKey | undefined;
  let envSource: string | undefined;
  if (target?.apiKeyEnv !== undefined) {
    envSource = `environment variable ${target.apiKeyEnv} (apiKeyEnv of ${targetLabel})`;
    const value = input.env[target.apiKeyEnv]?.trim();
    if (value) own = { key: value, source: envSource };
    else looked.push(envSource);
  }
  if (own === undefined && target?.apiKeyFile !== undefined) {
    const full = resolve(input.cwd, target.apiKeyFile);
    const what = `API key file (apiKeyFile of ${targetLabel})`;
    own = { key: checkedKey(readText(full, what, FILE_LIMITS.apiKey), `${what} ${full}`), source: `apiKeyFile of ${targetLabel} (${full})` };
  }
  const settings = [target?.apiKeyEnv !== undefined ? 'apiKeyEnv' : undefined, target?.apiKeyFile !== undefined ? 'apiKeyFile' : undefined].filter(
    (s): s is string => s !== undefined,
  );
  if (settings.length > 0 && globalKey !== undefined && own?.key !== globalKey) {
    // Never a value in these messages: only where each key is.
    const useGlobal = `remove ${settings.join(' and ')} from ${targetLabel} in the project file to use ${API_KEY_ENV}`;
    if (own !== undefined) {
      throw new ConfigError(
        `two different API keys apply to ${targetLabel}: ${globalSource} and ${own.source}; gwops does not guess which gateway ` +
          `a key is meant for: unset ${API_KEY_ENV} to use the key of ${targetLabel}, or ${useGlobal}`,
      );
    }
    throw new ConfigError(
      `${targetLabel} takes its API key from ${envSource ?? 'a setting of its own'}, which is not set, while ${globalSource} is set; ` +
        `gwops does not send ${API_KEY_ENV} to a target that names its own key: set ${target?.apiKeyEnv ?? 'it'} and unset ${API_KEY_ENV}, or ${useGlobal}`,
    );
  }
  if (own !== undefined) return own;
  if (settings.length === 0 && globalKey !== undefined) return { key: globalKey, source: globalSource };
  if (settings.length === 0) looked.push(globalSource);
  if (target && settings.length === 0) looked.push(`apiKeyEnv/apiKeyFile of ${targetLabel} (not set)`);
  const note = settings.length > 0 && target?.apiKeyEnv !== API_KEY_ENV ? ` (${API_KEY_ENV} is not used for a target that names its own key)` : '';
  throw new ConfigError(`no API key found; looked at: ${looked.join(', ')}${note}. API keys are never accepted as command-line values.`);
}
