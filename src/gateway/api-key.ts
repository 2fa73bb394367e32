/**
 * What an API key says about itself: a gateway's API key is a JWT whose payload carries an
 * `exp` claim (docs/gateway-api.md "Sessions"). The payload is read without verifying the
 * signature (only the gateway can), and only to say when the key expires; the key itself
 * never appears in anything this module returns.
 */

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * When the key expires: the `exp` claim (seconds since 1970, RFC 7519 section 4.1.4) of a
 * key in JWT compact form (`header.payload.signature`, base64url), read without verifying.
 * @returns the expiry, or undefined when the key is not a JWT or has no numeric `exp`
 *   (such keys are used as they are)
 */
export function apiKeyExpiry(key: string): Date | undefined {
  const parts = key.split('.');
  if (parts.length !== 3 || !parts.every((p) => BASE64URL.test(p))) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isPlainObject(payload) || typeof payload.exp !== 'number' || !Number.isFinite(payload.exp)) return undefined;
  const date = new Date(payload.exp * 1000);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** `2025-01-31T12:00:00Z`: an instant as messages show it (UTC, whole seconds). */
export function utcInstant(date: Date): string {
  return date.toISOString().replace(/\.\d+Z$/, 'Z');
}
