/**
 * `gwops emulator`: runs the local gateway (the emulator operation, src/operations/emulator.ts)
 * until SIGINT/SIGTERM. Prints its base URL and where the API key files are, never a key.
 */
import { resolve } from 'node:path';
import { UsageError } from '../../../core/errors.js';
import { VARIANTS } from '../../../kinds/index.js';
import type { Variant } from '../../../kinds/index.js';
import { LOGIN_APP_ROTATE_PATH } from '../../../emulator/login-app.js';
import type { FaultRule, RunningEmulator } from '../../../emulator/index.js';
import type { EmulatorInput } from '../../../operations/emulator.js';
import { runEmulator } from '../../../operations/emulator.js';
import { isLoopbackHost } from '../../../gateway/base-url.js';
import { INTERRUPT_SIGNALS, signalSource } from '../../../core/interrupts.js';
import type { InterruptSignal } from '../../../core/interrupts.js';
import { EXIT } from '../../../core/exit-codes.js';
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

/**
 * Resolves the command's options (paths against `io.cwd`) into the emulator operation's input.
 * @throws UsageError for invalid option values
 */
export function emulatorInput(opts: EmulatorCommandOptions, io: CliIO): EmulatorInput {
  const port = integer('--port', opts.port, 0, 65535);
  const latencyMs = integer('--latency-ms', opts.latencyMs, 0, 600_000);
  const timeout = integer('--session-timeout-seconds', opts.sessionTimeoutSeconds, 1, 7 * 24 * 3600);
  const variant = variantOf(opts.variant);
  if ((opts.tlsCert === undefined) !== (opts.tlsKey === undefined)) throw new UsageError('--tls-cert and --tls-key go together');
  if (opts.tls === false && opts.tlsCert !== undefined) throw new UsageError('--tls-cert and --tls-key need TLS; drop --no-tls');
  const tls: EmulatorInput['tls'] =
    opts.tlsCert !== undefined && opts.tlsKey !== undefined ? { certFile: resolve(io.cwd, opts.tlsCert), keyFile: resolve(io.cwd, opts.tlsKey) } : (opts.tls ?? true);
  const apiKeyFile = resolve(io.cwd, opts.apiKeyFile);
  const readOnlyApiKeyFile = resolve(io.cwd, opts.readOnlyApiKeyFile);
  if (apiKeyFile === readOnlyApiKeyFile) throw new UsageError('--api-key-file and --read-only-api-key-file must differ');
  return {
    host: opts.host,
    port,
    tls,
    basePath: opts.basePath,
    apiKeyFile,
    readOnlyApiKeyFile,
    certFile: resolve(io.cwd, opts.certFile),
    variant,
    latencyMs,
    sessionIdleTimeoutMs: timeout * 1000,
    faults: (opts.fault ?? []).map(parseFaultSpec),
    warn: (message) => void io.stderr.write(`warning: ${message}\n`),
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
}

/**
 * Starts the emulator for the command (src/operations/emulator.ts), prints where it is,
 * and waits for `stop` to settle; then closes it. Returns the exit code.
 */
export async function runEmulatorCommand(opts: EmulatorCommandOptions, io: CliIO, stop: Promise<unknown>, onStarted?: (emulator: RunningEmulator) => void): Promise<number> {
  const input = emulatorInput(opts, io);
  await runEmulator(input, stop, ({ emulator, keyFiles, certificate }) => {
    const created = (file: string): string => (keyFiles.created.includes(file) ? ' (created)' : '');
    io.stdout.write(
      [
        `gwops emulator (${emulator.variant} variant) listening on ${emulator.url}`,
        `administrator API key file: ${keyFiles.admin}${created(keyFiles.admin)}`,
        `read-only API key file:     ${keyFiles.readOnly}${created(keyFiles.readOnly)}`,
        ...(input.stateFile === undefined ? [] : [`state file: ${input.stateFile}`]),
        ...(certificate ? [`TLS certificate (trust it, or skip verification): ${certificate.file}`, `TLS certificate SHA-256 fingerprint: ${certificate.fingerprint256}`] : []),
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
  });
  io.stdout.write('gwops emulator stopped\n');
  return EXIT.ok;
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
