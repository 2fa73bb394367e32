/**
 * A small HTTP proxy in front of a plain-HTTP emulator, for faults the emulator's own
 * injection cannot produce: a response lost after the gateway handled the call (the
 * create landed, the client never hears), and `Retry-After` on error responses.
 *
 * It forwards every request unchanged, so the emulator's `requestLog` still shows every
 * call that reached it. It records, per request, only whether an `Authorization` or
 * `Cookie` header was present, never their values.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { request } from 'undici';

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

export interface SeenRequest {
  method: string;
  path: string;
  authorization: boolean;
  cookie: boolean;
  accept: string | undefined;
}

export interface FaultProxy {
  /** Base URL through the proxy (same base path as the upstream). */
  readonly url: string;
  readonly seen: SeenRequest[];
  /** JSESSIONID values the upstream set, so that tests can check they appear in no output. */
  readonly sessionCookies: string[];
  addRule(rule: ProxyRule): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts a proxy on a free loopback port in front of `upstreamUrl` (an `http://` emulator base URL). */
export async function startFaultProxy(upstreamUrl: string): Promise<FaultProxy> {
  const upstream = new URL(upstreamUrl);
  const basePath = upstream.pathname.replace(/\/+$/, '');
  const rules: { rule: ProxyRule; matches: number }[] = [];
  const seen: SeenRequest[] = [];
  const sessionCookies: string[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    const full = req.url ?? '/';
    const rel = full.split('?')[0]?.slice(basePath.length) ?? '';
    seen.push({
      method,
      path: rel,
      authorization: req.headers.authorization !== undefined,
      cookie: req.headers.cookie !== undefined,
      accept: req.headers.accept,
    });
    const active: ProxyRule[] = [];
    for (const r of rules) {
      if (r.rule.method !== method || !r.rule.path.test(rel)) continue;
      r.matches += 1;
      if (r.rule.nth === undefined || r.rule.nth === r.matches) active.push(r.rule);
    }
    const body = await readBody(req);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === 'string' && k !== 'host' && k !== 'connection' && k !== 'content-length') headers[k] = v;
    }
    const upstreamRes = await request(new URL(full, upstream.origin), {
      method: method as 'GET',
      headers,
      body: body.length > 0 ? body : undefined,
    });
    const text = await upstreamRes.body.text();
    if (active.some((r) => r.dropResponse === true)) {
      req.socket.destroy();
      return;
    }
    const setCookie = upstreamRes.headers['set-cookie'];
    for (const c of typeof setCookie === 'string' ? [setCookie] : (setCookie ?? [])) {
      const value = /JSESSIONID=([^;]+)/.exec(c)?.[1];
      if (value) sessionCookies.push(value);
    }
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(upstreamRes.headers)) {
      if (typeof v === 'string' && k !== 'connection' && k !== 'keep-alive' && k !== 'transfer-encoding') out[k] = v;
      if (Array.isArray(v)) out[k] = v.join(', ');
    }
    for (const r of active) Object.assign(out, r.addHeaders ?? {});
    res.writeHead(upstreamRes.statusCode, out);
    res.end(text);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    seen,
    sessionCookies,
    addRule: (rule) => rules.push({ rule, matches: 0 }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
