/**
 * API keys of the emulator: random JWT-shaped bearer keys (docs/gateway-api.md "Sessions":
 * a key is a JWT, valid for two years) and key files.
 *
 * Keys are secrets: nothing here logs, prints or puts them into an error message.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, mkdir, open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ConfigError, FileReadError } from '../core/errors.js';
import { FILE_LIMITS, readTextBoundedAsync } from '../core/files.js';

/** Who a key belongs to. */
export type Role = 'administrator' | 'read-only';

/** A key's user: the name shown as `createdBy` of configurations it activates or saves. */
export interface KeyUser {
  readonly user: string;
  readonly role: Role;
}

const TWO_YEARS_SECONDS = 2 * 365 * 24 * 3600;

function base64url(value: Buffer | string): string {
  return Buffer.from(value).toString('base64url');
}

/**
 * A random JWT-shaped key `header.payload.signature` (base64url), whose payload names the
 * user and expires after 2 years. The signature is 32 random bytes: the emulator compares
 * keys as opaque strings, never trusting the payload.
 */
export function generateApiKey(user: string, now: Date = new Date()): string {
  const iat = Math.floor(now.getTime() / 1000);
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64url(
    JSON.stringify({ sub: user, iat, exp: iat + TWO_YEARS_SECONDS, jti: randomBytes(12).toString('hex') }),
  );
  return `${header}.${payload}.${base64url(randomBytes(32))}`;
}

/**
 * Reads the key stored in `file` (surrounding whitespace trimmed) or, when the file does not
 * exist, generates one for `user` and writes it there with mode 0600 (parent directories
 * created with mode 0700). Returns the key, whether it was created, and whether an existing
 * file is readable by group or others (callers warn: it holds a secret).
 * @throws ConfigError when the file exists but is empty or cannot be read/written.
 */
export async function readOrCreateKeyFile(file: string, user: string): Promise<{ key: string; created: boolean; groupOrWorldReadable: boolean }> {
  try {
    const key = (await readTextBoundedAsync(file, FILE_LIMITS.apiKey)).trim();
    if (key === '') throw new ConfigError(`API key file ${file} is empty`);
    const mode = (await stat(file)).mode;
    return { key, created: false, groupOrWorldReadable: process.platform !== 'win32' && (mode & 0o077) !== 0 };
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    if (!(error instanceof FileReadError)) throw error;
    if (error.kind !== 'missing') throw new ConfigError(`cannot read API key file ${file}: ${error.problem}`, { cause: error });
  }
  const key = generateApiKey(user);
  try {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    let handle;
    try {
      handle = await open(file, 'wx', 0o600);
    } catch (error) {
      // Another process created it in between: use its key.
      if ((error as { code?: unknown }).code === 'EEXIST') return readOrCreateKeyFile(file, user);
      throw error;
    }
    try {
      await handle.writeFile(`${key}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await chmod(file, 0o600);
  } catch (error) {
    throw new ConfigError(`cannot write API key file ${file}`, { cause: error });
  }
  return { key, created: true, groupOrWorldReadable: false };
}

/** The emulator's keys and the users they stand for; lookups compare in constant time. */
export class KeyRing {
  private readonly entries: { readonly key: Buffer; readonly user: KeyUser }[] = [];

  /** Registers a key. */
  add(key: string, user: KeyUser): void {
    this.entries.push({ key: Buffer.from(key, 'utf8'), user });
  }

  /** The user of `key`, or undefined when it is no key of this emulator. */
  lookup(key: string): KeyUser | undefined {
    const candidate = Buffer.from(key, 'utf8');
    let found: KeyUser | undefined;
    for (const entry of this.entries) {
      if (entry.key.length === candidate.length && timingSafeEqual(entry.key, candidate)) found = entry.user;
    }
    return found;
  }
}
