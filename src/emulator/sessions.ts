/**
 * REST sessions (docs/gateway-api.md "Sessions", "Configurations and activation", "What
 * real clients send"): a `JSESSIONID` cookie per session, cookie authentication after
 * create, an idle timeout, and one working copy per session.
 */
import { randomBytes } from 'node:crypto';
import type { KeyUser } from './api-keys.js';
import type { ConfigContent } from './model.js';

/** Name of the session cookie. */
export const SESSION_COOKIE = 'JSESSIONID';

/** One open session. */
export interface Session {
  /** The cookie value (a secret: never logged). */
  readonly id: string;
  readonly user: KeyUser;
  /** The session's working copy; null until a configuration is loaded. */
  working: ConfigContent | null;
  /** The activation counter of the configuration store when the working copy was loaded. */
  loadedAtActivation: number;
  /** Last call, in ms since the epoch (the idle timeout counts from here). */
  lastSeen: number;
}

/** The open sessions, expiring those idle for longer than the timeout. */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  /**
   * @param idleTimeoutMs idle time after which a session stops working (default 10 minutes)
   * @param now clock in ms since the epoch (injectable for tests)
   */
  constructor(
    private readonly idleTimeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Opens a session for `user` with no configuration loaded. */
  create(user: KeyUser): Session {
    const session: Session = {
      id: randomBytes(16).toString('hex').toUpperCase(),
      user,
      working: null,
      loadedAtActivation: 0,
      lastSeen: this.now(),
    };
    this.sessions.set(session.id, session);
    return session;
  }

  /**
   * The live session with this cookie value, its idle clock refreshed; undefined when unknown,
   * terminated or idled out (an idled-out session is removed).
   */
  touch(id: string): Session | undefined {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    const now = this.now();
    if (now - session.lastSeen > this.idleTimeoutMs) {
      this.sessions.delete(id);
      return undefined;
    }
    session.lastSeen = now;
    return session;
  }

  /** Ends a session; its unsaved edits are lost. */
  terminate(id: string): void {
    this.sessions.delete(id);
  }

  /** Ends every session (fault drill "expiry of all sessions"). */
  expireAll(): void {
    this.sessions.clear();
  }

  /** Number of sessions that have not idled out. */
  openCount(): number {
    const now = this.now();
    for (const [id, s] of this.sessions) if (now - s.lastSeen > this.idleTimeoutMs) this.sessions.delete(id);
    return this.sessions.size;
  }
}

/**
 * The session cookie values found in `Cookie` headers, in order. Tolerant: cookies
 * separated by `;` or `,`, spaces, quoted values, attributes of a copied `Set-Cookie` value
 * (`Path=/; Secure; HttpOnly`) and several headers are all accepted (docs/gateway-api.md
 * "What real clients send").
 */
export function sessionIdsFromCookies(header: string | string[] | undefined): string[] {
  if (header === undefined) return [];
  const headers = Array.isArray(header) ? header : [header];
  const out: string[] = [];
  for (const h of headers) {
    for (const part of h.split(/[;,]/)) {
      const eq = part.indexOf('=');
      if (eq < 0) continue;
      const name = part.slice(0, eq).trim();
      if (name.toUpperCase() !== SESSION_COOKIE) continue;
      let value = part.slice(eq + 1).trim();
      if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
      if (value !== '') out.push(value);
    }
  }
  return out;
}
