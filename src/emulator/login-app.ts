/**
 * The login application beside the emulated gateway (`gwops emulator --login-app`,
 * README.md "The emulator's login application"): the signing keys that verify the tokens
 * it issues, published as a JSON Web Key Set under the login application's root path
 * `/auth/rest`, and a rotation control. Only the root path and the existence of a
 * signing-keys endpoint that returns a JWKS come from docs/gateway-api.md "The login
 * application"; the endpoint's path, the key ids, the `alg` convention for retiring keys
 * and the control endpoints are the emulator's choices.
 */
import { generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

/** Path of the JWKS endpoint (the emulator's choice, in the login application's `/public` area). */
export const LOGIN_APP_JWKS_PATH = '/auth/rest/public/signing-keys/jwks';
/** The emulator's own controls of its login application (not part of the login application's API). */
export const LOGIN_APP_ROTATE_PATH = '/emulator/login-app/signing-keys/rotate';
export const LOGIN_APP_EXPIRE_PATH = '/emulator/login-app/signing-keys/expire';
/** How long a retired key stays published after a rotation, by default. Seconds. */
export const DEFAULT_GRACE_SECONDS = 3600;

/** One signing key of the login application. */
export interface SigningKey {
  readonly kid: string;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  /** When a retired key stops being published (ms since the epoch); undefined for the current key. */
  readonly retiresAt?: number;
}

/** What tests and the emulator's controls do with the login application. */
export interface LoginAppControl {
  /** URL of the JWKS endpoint. */
  readonly jwksUrl: string;
  /** The kid of the key that signs new tokens. */
  currentKid(): string;
  /** The private key of a published key (for tests that sign tokens), undefined when not published. */
  privateKey(kid: string): KeyObject | undefined;
  /**
   * Makes a new key current; the previous current key stays published, without `alg`,
   * for `graceSeconds` (default {@link DEFAULT_GRACE_SECONDS}), then disappears.
   * @returns the new current kid
   */
  rotate(graceSeconds?: number): string;
  /** Ends every grace period now: only the current key stays published. */
  expireRetired(): void;
}

/** The login application's key store. The clock is injected (`now`, ms since the epoch). */
export class LoginApp {
  private keys: SigningKey[] = [];
  private serial = 0;

  constructor(private readonly now: () => number = Date.now) {
    this.keys.push(this.newKey());
  }

  private newKey(): SigningKey {
    this.serial += 1;
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return { kid: `emulator-key-${this.serial}`, privateKey, publicKey };
  }

  private published(): SigningKey[] {
    const now = this.now();
    this.keys = this.keys.filter((k) => k.retiresAt === undefined || k.retiresAt > now);
    return this.keys;
  }

  currentKid(): string {
    return (this.published().find((k) => k.retiresAt === undefined) as SigningKey).kid;
  }

  privateKey(kid: string): KeyObject | undefined {
    return this.published().find((k) => k.kid === kid)?.privateKey;
  }

  rotate(graceSeconds = DEFAULT_GRACE_SECONDS): string {
    const retiresAt = this.now() + Math.max(0, graceSeconds) * 1000;
    const next = this.newKey();
    this.keys = [next, ...this.published().map((k) => (k.retiresAt === undefined ? { ...k, retiresAt } : k))];
    return next.kid;
  }

  expireRetired(): void {
    this.keys = this.keys.filter((k) => k.retiresAt === undefined);
  }

  /**
   * The JWK Set: the current key first, with `alg: RS256` and `use: sig`; keys in their
   * grace period after it, with `use: sig` and no `alg` (they still verify tokens issued
   * before the rotation, but are no longer announced for signing).
   */
  jwks(): { keys: Record<string, unknown>[] } {
    return {
      keys: this.published().map((k) => ({
        ...(k.publicKey.export({ format: 'jwk' }) as Record<string, unknown>),
        kid: k.kid,
        use: 'sig',
        ...(k.retiresAt === undefined ? { alg: 'RS256' } : {}),
      })),
    };
  }
}

/** An answer of the login application: status and JSON body. */
export interface LoginAppAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** True for the paths the login application (and its controls) serve. */
export function isLoginAppPath(path: string): boolean {
  return path === LOGIN_APP_JWKS_PATH || path === LOGIN_APP_ROTATE_PATH || path === LOGIN_APP_EXPIRE_PATH;
}

const problem = (status: number, detail: string): LoginAppAnswer => ({ status, body: { errors: [{ status: String(status), detail }] } });

/**
 * Answers one request to a {@link isLoginAppPath} path:
 * - `GET` JWKS → 200 the JWK Set (no authentication: the keys are public);
 * - `POST` rotate, optional body `{"graceSeconds": N}` → 200 `{kid, retired}`;
 * - `POST` expire → 200 `{kid}`.
 * The controls need the administrator API key as `Authorization: Bearer` (`admin`), else 401.
 */
export function loginAppAnswer(app: LoginApp, method: string, path: string, body: Buffer, admin: boolean): LoginAppAnswer {
  if (path === LOGIN_APP_JWKS_PATH) {
    return method === 'GET' ? { status: 200, body: app.jwks() } : problem(405, `${method} is not allowed here`);
  }
  if (method !== 'POST') return problem(405, `${method} is not allowed here`);
  if (!admin) return problem(401, "the emulator's controls need the administrator API key: Authorization: Bearer <key>");
  if (path === LOGIN_APP_EXPIRE_PATH) {
    app.expireRetired();
    return { status: 200, body: { kid: app.currentKid() } };
  }
  let graceSeconds: number | undefined;
  const text = body.toString('utf8').trim();
  if (text !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return problem(400, 'the body must be JSON: {"graceSeconds": N}');
    }
    const grace = (parsed as { graceSeconds?: unknown } | null)?.graceSeconds;
    if (grace !== undefined && (typeof grace !== 'number' || !Number.isFinite(grace) || grace < 0)) {
      return problem(400, 'graceSeconds must be a number of seconds, 0 or more');
    }
    graceSeconds = grace;
  }
  const retired = app.currentKid();
  return { status: 200, body: { kid: app.rotate(graceSeconds), retired } };
}
