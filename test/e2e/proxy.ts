/**
 * A small HTTP proxy in front of a plain-HTTP emulator, for gateways that misbehave in
 * ways the emulator's own fault injection does not: an answer replaced by another, or a
 * reply held back after the gateway handled the call. Every call that is forwarded
 * reaches the emulator unchanged, so its request log and state stay the truth.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { request } from 'undici';

/** One call as the proxy sees it: the path is relative to the API base path, without the query. */
export interface ProxiedCall {
  readonly method: string;
  readonly path: string;
  readonly body: string;
}

/** What to do with a call; forwarded unchanged when the interceptor returns undefined. */
export type Interception =
  /** Answer this without forwarding. */
  | { readonly reply: { readonly status: number; readonly body?: string } }
  /** Forward, then hold the gateway's reply this long (milliseconds) before passing it on; `onHeld` runs once the gateway has answered. */
  | { readonly holdMs: number; readonly onHeld?: () => void };

export interface InterceptingProxy {
  /** Base URL through the proxy (same base path as the upstream). */
  readonly url: string;
  /** Every call seen, in order. */
  readonly calls: ProxiedCall[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts a proxy on a free loopback port in front of `upstreamUrl` (an `http://` emulator base URL). */
export async function startInterceptingProxy(
  upstreamUrl: string,
  intercept: (call: ProxiedCall) => Interception | undefined,
): Promise<InterceptingProxy> {
  const upstream = new URL(upstreamUrl);
  const basePath = upstream.pathname.replace(/\/+$/, '');
  const calls: ProxiedCall[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    const full = req.url ?? '/';
    const body = await readBody(req);
    const call: ProxiedCall = { method, path: full.split('?')[0]?.slice(basePath.length) ?? '', body: body.toString('utf8') };
    calls.push(call);
    const action = intercept(call);
    if (action && 'reply' in action) {
      res.writeHead(action.reply.status, { 'content-type': 'application/json' });
      res.end(action.reply.body ?? '');
      return;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === 'string' && k !== 'host' && k !== 'connection' && k !== 'content-length') headers[k] = v;
    }
    const answer = await request(new URL(full, upstream.origin), { method: method as 'GET', headers, body: body.length > 0 ? body : undefined });
    const text = await answer.body.text();
    if (action) {
      action.onHeld?.();
      await new Promise((resolve) => setTimeout(resolve, action.holdMs));
    }
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(answer.headers)) {
      if (v !== undefined && k !== 'connection' && k !== 'keep-alive' && k !== 'transfer-encoding' && k !== 'content-length') out[k] = v;
    }
    if (res.destroyed) return;
    res.writeHead(answer.statusCode, out);
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
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
