/**
 * `gwops emulator`: runs the local gateway (src/emulator/) until SIGINT/SIGTERM. Prints its
 * base URL and where the API key files are, never a key.
 */
import { X509Certificate } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ConfigError, UsageError, FileReadError } from '../../../errors.js';
import { FILE_LIMITS, readTextBoundedAsync } from '../../../files.js';
import { VARIANTS } from '../../../kinds/index.js';
import type { Variant } from '../../../kinds/index.js';
import { readOrCreateKeyFile } from '../../../emulator/api-keys.js';
import { startEmulator } from '../../../emulator/index.js';
import { LOGIN_APP_ROTATE_PATH } from '../../../emulator/login-app.js';
import type { FaultRule, RunningEmulator, ServeOptions } from '../../../emulator/index.js';
import { isLoopbackHost } from '../../../gateway/base-url.js';
import { INTERRUPT_SIGNALS, signalSource } from '../../../interrupts.js';
import type { InterruptSignal } from '../../../interrupts.js';
import { EXIT } from '../../../exit-codes.js';
import type { CliIO } from '../../io.js';

/** Options as commander parses them. */
export interface EmulatorCommandOptions {
  host: string;
  port: string;
  tls?: boolean;
  tlsCert?: string;
  tlsKey?: string;
  apiKeyFile: string;
  readOnlyApiKeyFile: string;
  stateFile?: string;
  variant: string;
  latencyMs: string;
  sessionTimeoutSeconds: string;
  basePath: string;
  verbose?: boolean;
  /** Where the served certificate (PEM, public part only) is written for clients to trust. */
  certFile: string;
  /** `--fault` specs, see {@link parseFaultSpec}. */
  fault?: string[];
  faultSeed?: string;
  /** `--login-app`: also serve a login application's signing keys (src/emulator/login-app.ts). */
  loginApp?: boolean;
}


/** Kept request log entries of a long-running emulator. */
const REQUEST_LOG_LIMIT = 10_000;

function integer(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`${name} must be an integer from ${min} to ${max}, not '${text}'`);
  }
  return value;
}

function variantOf(text: string): Variant {
  const found = VARIANTS.find((v) => v === text);
  if (!found) throw new UsageError(`--variant must be one of ${VARIANTS.join(', ')}, not '${text}'`);
  return found;
}

/**
 * Parses a `--fault` spec: comma-separated `key=value` pairs with keys `path` (glob after the
 * base path, required), `method`, `status`, `nth`, `fraction`, `latency-ms`, and the flags
 * `drop` and `expire-sessions`; e.g. `path=/configuration/mappings*,method=GET,status=503,nth=2`.
 * @throws UsageError for an unknown key or a bad value.
 */
export function parseFaultSpec(spec: string): FaultRule {
  let path: string | undefined;
  const rule: Omit<FaultRule, 'path'> & { path?: string } = {};
  for (const part of spec.split(',')) {
    const eq = part.indexOf('=');
    const key = (eq < 0 ? part : part.slice(0, eq)).trim();
    const value = eq < 0 ? undefined : part.slice(eq + 1).trim();
    const need = (): string => {
      if (value === undefined || value === '') throw new UsageError(`--fault: '${key}' needs a value`);
      return value;
    };
    switch (key) {
      case 'path':
        path = need();
        break;
      case 'method':
        rule.method = need().toUpperCase();
        break;
      case 'status':
        rule.status = integer('--fault status', need(), 100, 599);
        break;
      case 'nth':
        rule.nth = integer('--fault nth', need(), 1, Number.MAX_SAFE_INTEGER);
        break;
      case 'latency-ms':
        rule.latencyMs = integer('--fault latency-ms', need(), 0, 600_000);
        break;
      case 'fraction': {
        const f = Number(need());
        if (!(f >= 0 && f <= 1)) throw new UsageError(`--fault fraction must be between 0 and 1, not '${need()}'`);
        rule.fraction = f;
        break;
      }
      case 'drop':
        rule.drop = true;
        break;
      case 'expire-sessions':
        rule.expireSessions = true;
        break;
      default:
        throw new UsageError(`--fault: unknown key '${key}' (path, method, status, nth, fraction, latency-ms, drop, expire-sessions)`);
    }
  }
  if (path === undefined) throw new UsageError(`--fault needs path=<glob>: '${spec}'`);
  return { ...rule, path };
}

async function readPem(file: string, what: string): Promise<string> {
  try {
    return await readTextBoundedAsync(file, FILE_LIMITS.ca);
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    throw new ConfigError(`cannot read ${what} ${file}: ${error.problem}`, { cause: error });
  }
}

/**
 * Resolves the command's options (paths against `io.cwd`), reading or creating the key files.
 * @throws UsageError for invalid option values; ConfigError for unreadable files.
 */
export async function serveOptions(opts: EmulatorCommandOptions, io: CliIO): Promise<{ options: ServeOptions; keyFiles: { admin: string; readOnly: string; created: string[] } }> {
  const port = integer('--port', opts.port, 0, 65535);
  const latencyMs = integer('--latency-ms', opts.latencyMs, 0, 600_000);
  const timeout = integer('--session-timeout-seconds', opts.sessionTimeoutSeconds, 1, 7 * 24 * 3600);
  const variant = variantOf(opts.variant);
  if ((opts.tlsCert === undefined) !== (opts.tlsKey === undefined)) throw new UsageError('--tls-cert and --tls-key go together');
  if (opts.tls === false && opts.tlsCert !== undefined) throw new UsageError('--tls-cert and --tls-key need TLS; drop --no-tls');
  let tls: ServeOptions['tls'] = opts.tls ?? true;
  if (opts.tlsCert !== undefined && opts.tlsKey !== undefined) {
    tls = {
      cert: await readPem(resolve(io.cwd, opts.tlsCert), 'TLS certificate'),
      key: await readPem(resolve(io.cwd, opts.tlsKey), 'TLS key'),
    };
  }
  const adminFile = resolve(io.cwd, opts.apiKeyFile);
  const readOnlyFile = resolve(io.cwd, opts.readOnlyApiKeyFile);
  if (adminFile === readOnlyFile) throw new UsageError('--api-key-file and --read-only-api-key-file must differ');
  const admin = await readOrCreateKeyFile(adminFile, 'admin');
  const readOnly = await readOrCreateKeyFile(readOnlyFile, 'read-only');
  if (admin.key === readOnly.key) throw new ConfigError('the administrator and read-only key files hold the same key');
  const created = [...(admin.created ? [adminFile] : []), ...(readOnly.created ? [readOnlyFile] : [])];
  for (const [file, found] of [[adminFile, admin], [readOnlyFile, readOnly]] as const) {
    if (found.groupOrWorldReadable) io.stderr.write(`warning: ${file} is readable by other users; restrict it with chmod 600\n`);
  }
  const options: ServeOptions = {
    host: opts.host,
    port,
    tls,
    basePath: opts.basePath,
    apiKey: admin.key,
    readOnlyApiKey: readOnly.key,
    variant,
    latencyMs,
    sessionIdleTimeoutMs: timeout * 1000,
    requestLogLimit: REQUEST_LOG_LIMIT,
    faults: (opts.fault ?? []).map(parseFaultSpec),
    ...(opts.loginApp === true ? { loginApp: true } : {}),
    ...(opts.faultSeed === undefined ? {} : { faultSeed: integer('--fault-seed', opts.faultSeed, 0, 2 ** 32 - 1) }),
    ...(opts.stateFile === undefined ? {} : { stateFile: resolve(io.cwd, opts.stateFile) }),
    ...(opts.verbose === true
      ? {
          onRequest: (e) => void io.stderr.write(`${e.method} ${e.path}${e.query ? `?${e.query}` : ''} ${e.status} ${e.durationMs.toFixed(1)}ms\n`),
          onInternalError: (error) => void io.stderr.write(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
        }
      : {}),
  };
  return { options, keyFiles: { admin: adminFile, readOnly: readOnlyFile, created } };
}

/**
 * Starts the emulator for the command, prints where it is, and waits for `stop` to settle;
 * then closes it. Returns the exit code.
 */
export async function runEmulatorCommand(opts: EmulatorCommandOptions, io: CliIO, stop: Promise<unknown>, onStarted?: (emulator: RunningEmulator) => void): Promise<number> {
  const { options, keyFiles } = await serveOptions(opts, io);
  const emulator = await startEmulator(options).catch((error: unknown) => {
    throw listenError(error, opts.host, options.port);
  });
  let certLines: string[] = [];
  if (emulator.caCertificate !== undefined) {
    const certFile = resolve(io.cwd, opts.certFile);
    try {
      await mkdir(dirname(certFile), { recursive: true, mode: 0o700 });
      await writeFile(certFile, emulator.caCertificate, { mode: 0o644 });
    } catch (error) {
      await emulator.close();
      throw new ConfigError(`cannot write the certificate file ${certFile}`, { cause: error });
    }
    const fingerprint = new X509Certificate(emulator.caCertificate).fingerprint256;
    certLines = [`TLS certificate (trust it, or skip verification): ${certFile}`, `TLS certificate SHA-256 fingerprint: ${fingerprint}`];
  }
  const created = (file: string): string => (keyFiles.created.includes(file) ? ' (created)' : '');
  io.stdout.write(
    [
      `gwops emulator (${emulator.variant} variant) listening on ${emulator.url}`,
      `administrator API key file: ${keyFiles.admin}${created(keyFiles.admin)}`,
      `read-only API key file:     ${keyFiles.readOnly}${created(keyFiles.readOnly)}`,
      ...(options.stateFile === undefined ? [] : [`state file: ${options.stateFile}`]),
      ...certLines,
      ...(emulator.loginApp
        ? [
            `login application JWKS: ${emulator.loginApp.jwksUrl}`,
            `rotate its signing keys: POST ${new URL(LOGIN_APP_ROTATE_PATH, emulator.loginApp.jwksUrl).href} (administrator key as Bearer; body {"graceSeconds": N})`,
          ]
        : []),
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );
  if (!isLoopbackHost(opts.host)) {
    io.stderr.write(`warning: listening on ${opts.host}, reachable from other machines; anyone with the API key can change this emulator\n`);
  }
  onStarted?.(emulator);
  await stop;
  await emulator.close();
  io.stdout.write('gwops emulator stopped\n');
  return EXIT.ok;
}


/** A one-line error for a failure to listen (port in use, no permission); anything else unchanged. */
function listenError(error: unknown, host: string, port: number | undefined): unknown {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
  const where = `${host}:${port ?? 0}`;
  if (code === 'EADDRINUSE') return new ConfigError(`cannot listen on ${where}: the port is already in use; choose another with --port (0 picks a free one)`, { cause: error });
  if (code === 'EACCES') return new ConfigError(`cannot listen on ${where}: permission denied (ports below 1024 need privileges); choose another with --port`, { cause: error });
  if (code === 'EADDRNOTAVAIL') return new ConfigError(`cannot listen on ${where}: the address is not one of this machine's; check --host`, { cause: error });
  return error;
}

/** A promise that settles on the first SIGHUP, SIGINT or SIGTERM (through the CLI's signal hub when installed). */
export function signalled(): Promise<InterruptSignal> {
  const source = signalSource();
  return new Promise((resolveSignal) => {
    const listeners = INTERRUPT_SIGNALS.map((signal) => [signal, (): void => done(signal)] as const);
    function done(signal: InterruptSignal): void {
      for (const [s, l] of listeners) source.off(s, l);
      resolveSignal(signal);
    }
    for (const [s, l] of listeners) source.on(s, l);
  });
}
