/**
 * Rules for the faults the emulator's own injection cannot produce, on the shared
 * intercepting proxy (test/support/proxy.ts): a response lost after the gateway handled
 * the call (the create landed, the client never hears), and `Retry-After` on error
 * responses. Every request is forwarded unchanged.
 */
import type { InterceptingProxy, ProxiedCall } from '../support/proxy.js';
import { startInterceptingProxy } from '../support/proxy.js';

export interface ProxyRule {
  method: string;
  /** Matched against the path after the base path, without the query. */
  path: RegExp;
  /** Only the Nth matching call (1-based); every matching call when absent. */
  nth?: number;
  /** Forward the call, then destroy the client connection instead of answering. */
  dropResponse?: boolean;
  /** Headers added to the forwarded response. */
  addHeaders?: Record<string, string>;
}

export interface FaultProxy extends Pick<InterceptingProxy, 'url' | 'sessionCookies' | 'close'> {
  /** Every call seen, in order (method, path, whether credentials were sent; never their values). */
  readonly seen: ProxiedCall[];
  addRule(rule: ProxyRule): void;
}

/** Starts a proxy on a free loopback port in front of `upstreamUrl` (an `http://` emulator base URL). */
export async function startFaultProxy(upstreamUrl: string): Promise<FaultProxy> {
  const rules: { rule: ProxyRule; matches: number }[] = [];
  const proxy = await startInterceptingProxy(upstreamUrl, (call) => {
    const active: ProxyRule[] = [];
    for (const r of rules) {
      if (r.rule.method !== call.method || !r.rule.path.test(call.path)) continue;
      r.matches += 1;
      if (r.rule.nth === undefined || r.rule.nth === r.matches) active.push(r.rule);
    }
    if (active.length === 0) return undefined;
    return { drop: active.some((r) => r.dropResponse === true), addHeaders: Object.assign({}, ...active.map((r) => r.addHeaders ?? {})) as Record<string, string> };
  });
  return {
    url: proxy.url,
    seen: proxy.calls,
    sessionCookies: proxy.sessionCookies,
    close: () => proxy.close(),
    addRule: (rule) => rules.push({ rule, matches: 0 }),
  };
}
