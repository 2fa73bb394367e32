/**
 * The HTTP side of the emulator: request parsing with the tolerance real clients need
 * (docs/gateway-api.md "Base path and transport", "What real clients send"),
 * authentication, routing, fault injection, the request log, and writing replies.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { stringify as stringifyYaml } from 'yaml';
import type { RequestLogEntry } from './api.js';
import { apiDocs } from './api-docs.js';
import type { OpenApiDocument } from './api-docs.js';
import type { FaultInjector } from './faults.js';
import type { Json } from './model.js';
import { jsonText } from './json-text.js';
import type { Reply } from './responses.js';
import { EmulatorApiError, dataReply, errorReply, errors, metaReply } from './responses.js';
import type { Call, EmulatorCore, Route } from './routing.js';
import { noEndpoint } from './routing.js';
import type { LoginApp } from './login-app.js';
import { isLoginAppPath, loginAppAnswer } from './login-app.js';
import type { Session } from './sessions.js';
import { SESSION_COOKIE, sessionIdsFromCookies } from './sessions.js';
import { apiKeyExpiry, utcInstant } from '../gateway/api-key.js';
import { KINDS } from '../kinds/index.js';

/** Largest request body accepted, in bytes (413 beyond). */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** `GET /system/status/node` versions per variant (api.ts). */
export const VARIANT_VERSIONS = { earliest: '7.8', middle: '8.2', latest: '8.6' } as const;

/** What the request handler needs. */
export interface ServerDeps {
  readonly core: EmulatorCore;
  /** Base path without a trailing slash, e.g. `/airlock/rest`. */
  readonly basePath: string;
  readonly routes: readonly Route[];
  readonly faults: FaultInjector;
  /** Added to every call, in ms. */
  readonly latencyMs: number;
  /** True when served over TLS (the session cookie gets `Secure`). */
  readonly secure: boolean;
  /** Receives one entry per request (appended to the request log by the caller). */
  readonly log: (entry: RequestLogEntry) => void;
  /** The login application served beside the API (`--login-app`), when on. */
  readonly loginApp?: LoginApp | undefined;
  /** Receives errors that became a 500 (an emulator bug), for diagnostics. */
  readonly onInternalError?: (error: unknown) => void;
  /** Replaces the API's own description it serves (EmulatorOptions `apiDocs`); undefined from it: 404. */
  readonly apiDocs?: ((served: OpenApiDocument) => unknown) | undefined;
}

/**
 * Collapses repeated slashes and drops a trailing one (clients send double slashes:
 * docs/gateway-api.md "What real clients send").
 */
export function normalisePath(path: string): string {
  const collapsed = path.replace(/\/{2,}/g, '/');
  return collapsed.length > 1 && collapsed.endsWith('/') ? collapsed.slice(0, -1) : collapsed;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * Query parameters, decoded like a servlet container does (`+` is a space, `%XX` escapes);
 * a value that arrives raw (`filter=name==x`) keeps everything after the first `=`.
 */
export function parseQuery(query: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = decode(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : decode(part.slice(eq + 1));
    const list = out.get(key);
    if (list) list.push(value);
    else out.set(key, [value]);
  }
  return out;
}

/** True for JSON media types (`application/json`, `application/vnd.api+json`, parameters ignored). */
export function isJsonMediaType(contentType: string): boolean {
  const media = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return media === 'application/json' || media.endsWith('+json');
}

/** Reads the whole body. @throws EmulatorApiError 413 beyond {@link MAX_BODY_BYTES}. */
async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) tooLarge = true;
    else chunks.push(buf);
  }
  if (tooLarge) throw new EmulatorApiError(413, 'INVALID_REQUEST_FORMAT', 'request body too large');
  return Buffer.concat(chunks);
}

/** The parsed JSON of a body; undefined when empty. */
function parseJsonBody(req: IncomingMessage, raw: Buffer): Json | undefined {
  const text = raw.toString('utf8');
  if (text.trim() === '') return undefined;
  const contentType = req.headers['content-type'];
  // A body without Content-Type is tolerated (some scripts omit it); any other type is not.
  if (contentType !== undefined && !isJsonMediaType(contentType)) {
    throw new EmulatorApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'the request body must be application/json');
  }
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
    throw new EmulatorApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'content encodings are not supported');
  }
  try {
    return JSON.parse(text) as Json;
  } catch {
    throw errors.invalidFormat('the request body is not valid JSON');
  }
}

function bearerKey(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** The collection paths of more than one segment (`api-security/openapi-documents`), split. */
const NESTED_COLLECTIONS = KINDS.map((k) => k.collection.split('/')).filter((parts) => parts.length > 1);

/**
 * The request's path segments with a collection path of more than one segment joined into
 * the one segment route patterns name it by (`configuration`, `api-security/openapi-documents`,
 * `7`), also under `configuration/templates`.
 */
function foldCollection(segments: readonly string[]): string[] {
  const start = segments[1] === 'templates' ? 2 : 1;
  if (segments[0] !== 'configuration') return [...segments];
  for (const parts of NESTED_COLLECTIONS) {
    if (parts.every((part, i) => segments[start + i] === part)) {
      return [...segments.slice(0, start), parts.join('/'), ...segments.slice(start + parts.length)];
    }
  }
  return [...segments];
}

/** Matches a route pattern; returns the parameters or undefined. */
function matchPattern(pattern: readonly string[], segments: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] ?? '';
    const s = segments[i] ?? '';
    if (p.startsWith(':')) params[p.slice(1)] = s;
    else if (p !== s) return undefined;
  }
  return params;
}

/**
 * Routes ordered so that a literal segment wins over a parameter at the same position
 * (`/configurations/export` before `/configurations/:id`), whatever order they were listed in.
 */
export function bySpecificity(routes: readonly Route[]): Route[] {
  const rank = (r: Route): string => r.pattern.map((p) => (p.startsWith(':') ? '1' : '0')).join('');
  return [...routes].sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0));
}

/** Creates the request listener of the emulator's HTTP(S) server. */
export function createRequestHandler(deps: ServerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  deps = { ...deps, routes: bySpecificity(deps.routes) };
  return (req, res) => {
    // A failure while answering (e.g. the client went away) ends the connection, nothing more.
    handle(deps, req, res).catch(() => res.destroy());
  };
}

async function handle(deps: ServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const started = performance.now();
  const method = (req.method ?? 'GET').toUpperCase();
  const rawUrl = req.url ?? '/';
  const q = rawUrl.indexOf('?');
  const query = q < 0 ? '' : rawUrl.slice(q + 1);
  const path = normalisePath(q < 0 ? rawUrl : rawUrl.slice(0, q));
  const base = deps.basePath;
  const inBase = base === '' || path === base || path.startsWith(`${base}/`);
  const rel = inBase ? path.slice(base.length) || '/' : path;
  const log = (status: number): void => {
    deps.log({ method, path: rel, query, status, durationMs: Math.round((performance.now() - started) * 1000) / 1000 });
  };

  let reply: Reply;
  try {
    const fault = deps.faults.decide(method, rel);
    const delay = deps.latencyMs + fault.latencyMs;
    if (delay > 0) await delayPrecisely(delay);
    if (fault.drop) {
      req.socket.destroy();
      log(0);
      return;
    }
    if (fault.expireSessions) deps.core.sessions.expireAll();
    const body = await readBody(req);
    if (fault.status !== undefined) reply = errorReply(fault.status, 'INJECTED_FAULT', 'fault injected by the emulator');
    else if (deps.loginApp && isLoginAppPath(path)) {
      const key = bearerKey(req);
      const admin = key !== undefined && deps.core.keys.lookup(key)?.role === 'administrator';
      const answer = loginAppAnswer(deps.loginApp, method, path, body, admin);
      reply = { status: answer.status, json: JSON.stringify(answer.body) };
    } else if (!inBase) reply = errorReply(404, 'NOT_FOUND', `no endpoint ${path}`);
    else reply = dispatch(deps, req, method, rel, query, body);
  } catch (error) {
    if (error instanceof EmulatorApiError) reply = errorReply(error.status, error.code, error.detail);
    else {
      deps.onInternalError?.(error);
      reply = errorReply(500, 'INTERNAL_ERROR');
    }
  }
  await write(res, reply);
  log(reply.status);
}


async function write(res: ServerResponse, reply: Reply): Promise<void> {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', ...reply.headers };
  if (reply.binary !== undefined) {
    headers['Content-Type'] = reply.binary.contentType;
    headers['Content-Length'] = String(reply.binary.data.length);
    res.writeHead(reply.status, headers);
    res.end(reply.binary.data);
    return;
  }
  if (reply.pieces !== undefined) {
    headers['Content-Type'] = 'application/json';
    res.writeHead(reply.status, headers);
    await writePieces(res, reply.pieces);
    return;
  }
  if (reply.body === undefined && reply.json === undefined) {
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  const text = reply.json ?? jsonText(reply.body);
  headers['Content-Type'] = 'application/json';
  headers['Content-Length'] = String(Buffer.byteLength(text));
  res.writeHead(reply.status, headers);
  res.end(text);
}

/**
 * Writes a body chunk by chunk (chunked transfer encoding; the chunks come about
 * json-text.ts's size), waiting for `drain` whenever the socket's buffer is full.
 * @throws Error when the client goes away before the end (the caller destroys the response)
 */
async function writePieces(res: ServerResponse, chunks: Iterable<Buffer>): Promise<void> {
  for (const chunk of chunks) if (!res.write(chunk)) await drained(res);
  res.end();
}

/** Resolves when `res` can take more, rejects when it closes first. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onDrain = (): void => {
      res.off('close', onClose);
      resolve();
    };
    const onClose = (): void => {
      res.off('drain', onDrain);
      reject(new Error('the client closed the connection'));
    };
    res.once('drain', onDrain);
    res.once('close', onClose);
  });
}

function dispatch(deps: ServerDeps, req: IncomingMessage, method: string, rel: string, query: string, raw: Buffer): Reply {
  const { core } = deps;
  const segments = foldCollection(rel.split('/').filter((s) => s !== '').map(decode));
  const route = segments.join('/');

  if (route === 'session/create') {
    if (method !== 'POST') throw new EmulatorApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed here`);
    const key = bearerKey(req);
    const user = key === undefined ? undefined : core.keys.lookup(key);
    if (!user) throw errors.unauthorized('a valid API key is required: Authorization: Bearer <key>');
    // A key past its `exp` is refused as a gateway refuses it (docs/gateway-api.md "Sessions").
    const expiry = key === undefined ? undefined : apiKeyExpiry(key);
    if (expiry !== undefined && expiry.getTime() <= Date.now()) throw errors.unauthorized(`the API key expired on ${utcInstant(expiry)}`);
    const session = core.sessions.create(user);
    const cookie = `${SESSION_COOKIE}=${session.id}; Path=/; HttpOnly${deps.secure ? '; Secure' : ''}`;
    return { ...metaReply(200), headers: { 'Set-Cookie': cookie } };
  }

  // The API's own description is served without a session, as API documentation usually is.
  if ((route === 'v3/api-docs' || route === 'v3/api-docs.yaml') && method === 'GET') {
    const served = apiDocs(deps.routes, core.variant, VARIANT_VERSIONS[core.variant]);
    const doc = deps.apiDocs ? deps.apiDocs(served) : served;
    if (doc === undefined) throw noEndpoint(rel);
    if (route === 'v3/api-docs') return { status: 200, json: JSON.stringify(doc) };
    return { status: 200, binary: { contentType: 'application/yaml', data: Buffer.from(stringifyYaml(doc, { aliasDuplicateObjects: false }), 'utf8') } };
  }

  const session = authenticate(core, req);
  if (route === 'session/terminate') {
    if (method !== 'POST') throw new EmulatorApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed here`);
    core.sessions.terminate(session.id);
    return metaReply(200);
  }
  if (route === 'system/status/node' && method === 'GET') {
    return dataReply({
      type: 'node-status',
      // The status's id is the last segment of its path.
      id: route.slice(route.lastIndexOf('/') + 1),
      attributes: { version: VARIANT_VERSIONS[core.variant], hostName: core.system.node.hostName, failoverState: 'standalone' },
    });
  }

  let pathMatched = false;
  for (const r of deps.routes) {
    const params = matchPattern(r.pattern, segments);
    if (!params) continue;
    pathMatched = true;
    if (r.method !== method) continue;
    if (r.modifying && session.user.role === 'read-only') throw errors.forbidden();
    if (r.needsLoad && !session.working) throw errors.loadRequired();
    let parsed: { value: Json | undefined } | undefined;
    const call: Call = {
      core,
      method,
      segments,
      params,
      query: parseQuery(query),
      session,
      json: () => (parsed ??= { value: parseJsonBody(req, raw) }).value,
      raw: () => raw,
      contentType: req.headers['content-type'],
    };
    return r.handle(call);
  }
  if (pathMatched) throw new EmulatorApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${rel}`);
  throw noEndpoint(rel);
}

/** The session of the request's `JSESSIONID` cookie. @throws EmulatorApiError 401 when there is none. */
function authenticate(core: EmulatorCore, req: IncomingMessage): Session {
  for (const id of sessionIdsFromCookies(req.headers.cookie)) {
    const session = core.sessions.touch(id);
    if (session) return session;
  }
  throw errors.unauthorized('no valid session: create one with POST /session/create');
}

/** Timer margin: Node's timers fire up to about a millisecond late. */
const TIMER_MARGIN_MS = 1.5;

/**
 * Waits `ms` milliseconds, as exactly as the event loop allows: a timer for all but the
 * last {@link TIMER_MARGIN_MS}, then turns of the event loop until the deadline. A plain
 * `setTimeout(20)` fires after about 20.9 ms, which would add 4 % to every call of an
 * emulated 20 ms network and skew measurements against a latency floor.
 */
async function delayPrecisely(ms: number): Promise<void> {
  const deadline = performance.now() + ms;
  if (ms > TIMER_MARGIN_MS) await sleep(ms - TIMER_MARGIN_MS);
  while (performance.now() < deadline) await nextTurn();
}
