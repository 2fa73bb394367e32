/**
 * A small HTTP proxy in front of a plain-HTTP emulator, for gateways that misbehave in
 * ways the emulator's own fault injection does not: an answer replaced by another, a
 * reply held back or lost after the gateway handled the call, extra response headers.
 * Every call that is forwarded reaches the emulator unchanged, so its request log and
 * state stay the truth. It records, per call, only whether an `Authorization` or
 * `Cookie` header was present, never their values.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';

/** One call as the proxy sees it: the path is relative to the API base path, without the query. */
export interface ProxiedCall {
  readonly method: string;
  readonly path: string;
  readonly body: string;
  readonly authorization: boolean;
  readonly cookie: boolean;
  readonly accept: string | undefined;
}

/** What to do with a call; forwarded unchanged when the interceptor returns undefined. */
export type Interception =
  /** Answer this without forwarding (with these extra headers). */
  | { readonly reply: { readonly status: number; readonly body?: string; readonly headers?: Record<string, string> } }
  /** Destroy the client connection without forwarding: the gateway never handles the call. */
  | { readonly reset: true }
  /**
   * Forward, then: hold the gateway's reply `holdMs` (milliseconds) before passing it on
   * (`onHeld` runs once the gateway has answered); or `drop` the client connection
   * instead of answering (the call took effect, the answer is lost); and add headers.
   */
  | {
      readonly holdMs?: number;
      readonly onHeld?: () => void;
      readonly drop?: boolean;
      readonly addHeaders?: Record<string, string>;
      /** Awaited before the call is forwarded (e.g. another client changes the gateway meanwhile). */
      readonly before?: () => Promise<void>;
    };

export interface InterceptingProxy {
  /** Base URL through the proxy (same base path as the upstream). */
  readonly url: string;
  /** Every call seen, in order. */
  readonly calls: ProxiedCall[];
  /** JSESSIONID values the upstream set, so that tests can check they appear in no output. */
  readonly sessionCookies: string[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
  return out;
}

/** Starts a proxy on a free loopback port in front of `upstreamUrl` (an `http://` emulator base URL). */
export async function startInterceptingProxy(
  upstreamUrl: string,
  intercept: (call: ProxiedCall) => Interception | undefined,
): Promise<InterceptingProxy> {
  const upstream = new URL(upstreamUrl);
  const basePath = upstream.pathname.replace(/\/+$/, '');
  const calls: ProxiedCall[] = [];
  const sessionCookies: string[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    const full = req.url ?? '/';
    const body = await readBody(req);
    const call: ProxiedCall = {
      method,
      path: full.split('?')[0]?.slice(basePath.length) ?? '',
      body: body.toString('utf8'),
      authorization: req.headers.authorization !== undefined,
      cookie: req.headers.cookie !== undefined,
      accept: req.headers.accept,
    };
    calls.push(call);
    const action = intercept(call);
    if (action && 'reset' in action) {
      req.socket.destroy();
      return;
    }
    if (action && 'reply' in action) {
      res.writeHead(action.reply.status, { 'content-type': 'application/json', ...action.reply.headers });
      res.end(action.reply.body ?? '');
      return;
    }
    if (action?.before) await action.before();
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && !HOP_BY_HOP.has(k)) headers[k] = v;
    const answer = await request(new URL(full, upstream.origin), { method: method as 'GET', headers, body: body.length > 0 ? body : undefined });
    const text = await answer.body.text();
    const setCookie = answer.headers['set-cookie'];
    for (const c of typeof setCookie === 'string' ? [setCookie] : (setCookie ?? [])) {
      const value = /JSESSIONID=([^;]+)/.exec(c)?.[1];
      if (value) sessionCookies.push(value);
    }
    if (action?.drop === true) {
      req.socket.destroy();
      return;
    }
    if (action?.holdMs !== undefined) {
      action.onHeld?.();
      await new Promise((resolve) => setTimeout(resolve, action.holdMs));
    }
    if (res.destroyed) return;
    res.writeHead(answer.statusCode, { ...forwardable(answer.headers), ...action?.addHeaders });
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
    sessionCookies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A plain-HTTP emulator behind an intercepting proxy, with a key file in a temporary folder. */
export interface ProxiedEmulator {
  readonly emulator: RunningEmulator;
  readonly proxy: InterceptingProxy;
  /** The temporary folder (removed after the suite). */
  readonly dir: string;
  /** File holding the emulator's administrator key. */
  readonly keyFile: string;
  /** `--url <proxy> --api-key-file <key file>` */
  readonly connection: readonly string[];
  /** Sets what the proxy does with each call; reset to "forward everything" before each test. */
  intercept(fn: (call: ProxiedCall) => Interception | undefined): void;
}

/**
 * Registers the suite hooks for tests of a misbehaving gateway: before all, an emulator,
 * the proxy in front of it and a key file; before each, forward everything and an empty
 * request log; after all, everything closed and removed.
 */
export function useProxiedEmulator(): ProxiedEmulator {
  let state: Omit<ProxiedEmulator, 'intercept' | 'connection'> | undefined;
  let current: (call: ProxiedCall) => Interception | undefined = () => undefined;
  beforeAll(async () => {
    const emulator = await startEmulator({ port: 0, tls: false });
    const proxy = await startInterceptingProxy(emulator.url, (call) => current(call));
    const dir = await mkdtemp(join(tmpdir(), 'gwops-proxied-'));
    const keyFile = join(dir, 'api-key');
    await writeFile(keyFile, emulator.apiKey, { mode: 0o600 });
    state = { emulator, proxy, dir, keyFile };
  });
  beforeEach(() => {
    current = () => undefined;
    if (state) state.emulator.requestLog.length = 0;
  });
  afterAll(async () => {
    if (!state) return;
    await state.proxy.close();
    await state.emulator.close();
    await rm(state.dir, { recursive: true, force: true });
  });
  const get = (): NonNullable<typeof state> => {
    if (!state) throw new Error('the proxied emulator starts in beforeAll');
    return state;
  };
  return {
    get emulator() {
      return get().emulator;
    },
    get proxy() {
      return get().proxy;
    },
    get dir() {
      return get().dir;
    },
    get keyFile() {
      return get().keyFile;
    },
    get connection() {
      return ['--url', get().proxy.url, '--api-key-file', get().keyFile];
    },
    intercept(fn) {
      current = fn;
    },
  };
}
