/**
 * Where the gateway is and how to authenticate (issue 4 "Connection"): the URL from
 * `--url` or the target, the API key from `GWOPS_API_KEY`, `--api-key-file`, or the
 * target's `apiKeyEnv`/`apiKeyFile`, never from a command-line value.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../errors.js';
import { checkBaseUrl } from './http.js';

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
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Relative file paths are resolved against this directory. */
  readonly cwd: string;
}

/**
 * A resolved connection. `apiKey` is a secret: never print, log or serialise this
 * object (its `toJSON` leaves the key out, as a safety net).
 */
export interface ResolvedConnection {
  readonly url: string;
  readonly apiKey: string;
  /** PEM of the extra CA, when one was configured. */
  readonly ca?: string;
  readonly insecure: boolean;
}

/** The environment variable checked first for the API key. */
export const API_KEY_ENV = 'GWOPS_API_KEY';

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String((error as { code: unknown }).code) : 'unreadable';
    throw new ConfigError(`cannot read ${what} ${path} (${code})`);
  }
}

function keyFromFile(path: string, cwd: string, what: string): string {
  const full = resolve(cwd, path);
  const key = readText(full, what).trim();
  if (key === '') throw new ConfigError(`${what} ${full} is empty`);
  if (/\s/.test(key)) throw new ConfigError(`${what} ${full} must hold only the API key (one line, no spaces)`);
  return key;
}

/**
 * Resolves URL, API key and TLS settings. Precedence of the key: `--api-key-file`, then
 * `GWOPS_API_KEY`, then the target's `apiKeyEnv`, then the target's `apiKeyFile`.
 * The CA file: `--ca-file`, else the target's `caFile`.
 * @throws ConfigError when no URL is given, the URL is refused (plain http to a
 *   non-loopback host), no key is found (naming every place looked at, never a value),
 *   or a file cannot be read or holds no PEM certificate.
 */
export function resolveConnection(input: ConnectionInput): ResolvedConnection {
  const url = input.url ?? input.target?.url;
  if (url === undefined || url === '') {
    throw new ConfigError('no gateway URL: pass --url URL or --target NAME (a target of gwops.yaml)');
  }
  checkBaseUrl(url);
  const apiKey = resolveApiKey(input);
  const caFile = input.caFile ?? input.target?.caFile;
  let ca: string | undefined;
  if (caFile !== undefined) {
    const full = resolve(input.cwd, caFile);
    ca = readText(full, 'CA file');
    if (!ca.includes('-----BEGIN CERTIFICATE-----')) throw new ConfigError(`CA file ${full} holds no PEM certificate`);
  }
  const resolved: ResolvedConnection = { url, apiKey, insecure: input.insecure === true, ...(ca !== undefined ? { ca } : {}) };
  Object.defineProperty(resolved, 'toJSON', {
    enumerable: false,
    value: () => ({ url, insecure: resolved.insecure, ca: ca !== undefined ? '[PEM]' : undefined, apiKey: '[redacted]' }),
  });
  return resolved;
}

function resolveApiKey(input: ConnectionInput): string {
  const looked: string[] = [];
  if (input.apiKeyFile !== undefined) return keyFromFile(input.apiKeyFile, input.cwd, 'API key file (--api-key-file)');
  looked.push('--api-key-file');
  const fromEnv = input.env[API_KEY_ENV]?.trim();
  if (fromEnv) return fromEnv;
  looked.push(`environment variable ${API_KEY_ENV}`);
  const target = input.target;
  const targetLabel = input.targetName !== undefined ? `target '${input.targetName}'` : 'the target';
  if (target?.apiKeyEnv !== undefined) {
    const value = input.env[target.apiKeyEnv]?.trim();
    if (value) return value;
    looked.push(`environment variable ${target.apiKeyEnv} (apiKeyEnv of ${targetLabel})`);
  }
  if (target?.apiKeyFile !== undefined) return keyFromFile(target.apiKeyFile, input.cwd, `API key file (apiKeyFile of ${targetLabel})`);
  if (target) looked.push(`apiKeyEnv/apiKeyFile of ${targetLabel} (not set)`);
  throw new ConfigError(`no API key found; looked at: ${looked.join(', ')}. API keys are never accepted as command-line values.`);
}
