/**
 * Fault injection for tests and drills (an emulator feature; its error code `INJECTED_FAULT`
 * is listed in docs/gateway-api.md "Errors"): per path pattern, added latency, an HTTP
 * status for the Nth matching call or a fraction of calls, a dropped connection, or the
 * expiry of all sessions. Rules and their meaning are fixed in `api.ts` (`FaultRule`).
 */
import type { FaultRule } from './api.js';

/** What the server must do for one request, merged over every matching rule. */
export interface FaultDecision {
  /** Added delay before handling, in ms. */
  latencyMs: number;
  /** Answer with this status and an `INJECTED_FAULT` error document instead of handling. */
  status: number | undefined;
  /** Destroy the connection without answering. */
  drop: boolean;
  /** Expire every session, then handle the call normally. */
  expireSessions: boolean;
}

/** What a rule's path is matched with: a regular expression, or the matcher of a glob. */
export interface PathMatcher {
  test(path: string): boolean;
}

/**
 * A glob (`*` = any characters, anchored at both ends) as a matcher. Each part between
 * stars is looked for left to right, nearest first, which is exact for globs with `*`
 * only; unlike `^a.*b.*c$` as a regular expression, whose time grows with the length of
 * the path to the power of the number of stars.
 */
export function globToRegExp(glob: string): PathMatcher {
  const parts = glob.split('*');
  const first = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  return {
    test(path: string): boolean {
      if (parts.length === 1) return path === glob;
      if (path.length < first.length + last.length || !path.startsWith(first) || !path.endsWith(last)) return false;
      let at = first.length;
      const end = path.length - last.length;
      for (const part of parts.slice(1, -1)) {
        const found = path.indexOf(part, at);
        if (found < 0 || found + part.length > end) return false;
        at = found + part.length;
      }
      return true;
    },
  };
}

/** mulberry32: a small deterministic PRNG (uniform in [0, 1)), so `fraction` rules repeat run to run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ActiveRule {
  readonly rule: FaultRule;
  readonly pattern: PathMatcher;
  matches: number;
}

/** The active fault rules and their match counters. */
export class FaultInjector {
  private rules: ActiveRule[] = [];
  private readonly random: () => number;

  constructor(rules: readonly FaultRule[] = [], seed = 1) {
    this.random = prng(seed);
    for (const r of rules) this.add(r);
  }

  /**
   * Adds a rule. `path` is matched against the request path after the base path (double
   * slashes collapsed, no query).
   * @throws RangeError when `fraction` is outside 0..1 or `nth` is not a positive integer.
   */
  add(rule: FaultRule): void {
    if (rule.fraction !== undefined && !(rule.fraction >= 0 && rule.fraction <= 1)) {
      throw new RangeError('fault fraction must be between 0 and 1');
    }
    if (rule.nth !== undefined && !(Number.isInteger(rule.nth) && rule.nth >= 1)) {
      throw new RangeError('fault nth must be a positive integer');
    }
    const pattern = typeof rule.path === 'string' ? globToRegExp(rule.path) : rule.path;
    this.rules.push({ rule, pattern, matches: 0 });
  }

  /** Removes every rule. */
  clear(): void {
    this.rules = [];
  }

  /** Decides what to do with one request, counting it against every matching rule. */
  decide(method: string, path: string): FaultDecision {
    const decision: FaultDecision = { latencyMs: 0, status: undefined, drop: false, expireSessions: false };
    for (const active of this.rules) {
      const { rule } = active;
      if (rule.method !== undefined && rule.method.toUpperCase() !== method) continue;
      if (active.pattern instanceof RegExp) active.pattern.lastIndex = 0;
      if (!active.pattern.test(path)) continue;
      active.matches += 1;
      decision.latencyMs += rule.latencyMs ?? 0;
      let triggers = true;
      if (rule.nth !== undefined) triggers = active.matches === rule.nth;
      if (triggers && rule.fraction !== undefined) triggers = this.random() < rule.fraction;
      if (!triggers) continue;
      if (rule.drop === true) decision.drop = true;
      if (rule.expireSessions === true) decision.expireSessions = true;
      if (rule.status !== undefined && decision.status === undefined) decision.status = rule.status;
    }
    return decision;
  }
}
