/**
 * The use case `emulator`: runs the local gateway (src/emulator/) until told to stop. It
 * reads the TLS certificate and key given, reads or creates the API key files, starts the
 * emulator, writes the served certificate (public part only) for clients to trust, and
 * closes the emulator when `stop` settles. It never returns a key, only where the key
 * files are.
 */
import { X509Certificate } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ConfigError, FileReadError } from '../core/errors.js';
import { FILE_LIMITS, readTextBoundedAsync } from '../core/files.js';
import { readOrCreateKeyFile } from '../emulator/api-keys.js';
import { startEmulator } from '../emulator/index.js';
import type { RunningEmulator, ServeOptions } from '../emulator/index.js';

/** Kept request log entries of a long-running emulator. */
const REQUEST_LOG_LIMIT = 10_000;

/** What {@link runEmulator} is given: the emulator's options, with files where it takes text. */
export interface EmulatorInput extends Omit<ServeOptions, 'tls' | 'apiKey' | 'readOnlyApiKey' | 'requestLogLimit'> {
  /** TLS with a generated certificate (true), none (false), or the PEM files of a certificate and its key (absolute paths). */
  readonly tls: boolean | { readonly certFile: string; readonly keyFile: string };
  /** The administrator's API key file (absolute; created with a new key when missing). */
  readonly apiKeyFile: string;
  /** The read-only API key file (absolute; created with a new key when missing). */
  readonly readOnlyApiKeyFile: string;
  /** Where the served certificate (PEM, public part only) is written, with TLS (absolute). */
  readonly certFile: string;
  /** Told what the user should fix but does not stop the run (a key file others can read). */
  readonly warn: (message: string) => void;
}

/** The emulator as it runs, and where its files are. */
export interface EmulatorStarted {
  readonly emulator: RunningEmulator;
  /** The API key files, and those of them created by this run. */
  readonly keyFiles: { readonly admin: string; readonly readOnly: string; readonly created: readonly string[] };
  /** With TLS: the file the certificate was written to and its SHA-256 fingerprint (colon-separated hex). */
  readonly certificate?: { readonly file: string; readonly fingerprint256: string } | undefined;
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
 * Starts the emulator, tells `onStarted` where it is, and closes it when `stop` settles.
 * @throws ConfigError for unreadable PEM or key files, key files that hold the same key, a
 *   port or address it cannot listen on, or a certificate file it cannot write (the
 *   emulator is closed then)
 */
export async function runEmulator(input: EmulatorInput, stop: Promise<unknown>, onStarted: (started: EmulatorStarted) => void): Promise<void> {
  const { tls: tlsInput, apiKeyFile, readOnlyApiKeyFile, certFile, warn, ...serve } = input;
  const tls: ServeOptions['tls'] =
    typeof tlsInput === 'boolean' ? tlsInput : { cert: await readPem(tlsInput.certFile, 'TLS certificate'), key: await readPem(tlsInput.keyFile, 'TLS key') };
  const admin = await readOrCreateKeyFile(apiKeyFile, 'admin');
  const readOnly = await readOrCreateKeyFile(readOnlyApiKeyFile, 'read-only');
  if (admin.key === readOnly.key) throw new ConfigError('the administrator and read-only key files hold the same key');
  const created = [...(admin.created ? [apiKeyFile] : []), ...(readOnly.created ? [readOnlyApiKeyFile] : [])];
  for (const [file, found] of [[apiKeyFile, admin], [readOnlyApiKeyFile, readOnly]] as const) {
    if (found.groupOrWorldReadable) warn(`${file} is readable by other users; restrict it with chmod 600`);
  }
  const options: ServeOptions = { ...serve, tls, apiKey: admin.key, readOnlyApiKey: readOnly.key, requestLogLimit: REQUEST_LOG_LIMIT };
  const emulator = await startEmulator(options).catch((error: unknown) => {
    throw listenError(error, options.host ?? 'localhost', options.port);
  });
  let certificate: EmulatorStarted['certificate'];
  if (emulator.caCertificate !== undefined) {
    try {
      await mkdir(dirname(certFile), { recursive: true, mode: 0o700 });
      await writeFile(certFile, emulator.caCertificate, { mode: 0o644 });
    } catch (error) {
      await emulator.close();
      throw new ConfigError(`cannot write the certificate file ${certFile}`, { cause: error });
    }
    certificate = { file: certFile, fingerprint256: new X509Certificate(emulator.caCertificate).fingerprint256 };
  }
  onStarted({ emulator, keyFiles: { admin: apiKeyFile, readOnly: readOnlyApiKeyFile, created }, certificate });
  await stop;
  await emulator.close();
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
