/**
 * `startEmulator`: the local gateway (docs/gateway-api.md describes what it serves), over
 * HTTPS (self-signed certificate generated at start) or plain HTTP. Types and HTTP
 * decisions are fixed in `api.ts`.
 */
import { createServer as createHttpServer } from 'node:http';
import type { Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { hostname } from 'node:os';
import { isIP } from 'node:net';
import { generate } from 'selfsigned';
import type { EmulatorOptions, FaultRule, RequestLogEntry, RunningEmulator } from './api.js';
import { KeyRing, generateApiKey } from './api-keys.js';
import { initialContent } from './built-ins.js';
import { ConfigurationStore } from './configurations.js';
import { FaultInjector } from './faults.js';
import { LOGIN_APP_JWKS_PATH, LoginApp } from './login-app.js';
import { configurationRoutes } from './routes-configurations.js';
import { contentRoutes } from './routes-content.js';
import { relationshipRoutes } from './routes-relationships.js';
import { resourceObject, resourceRoutes } from './routes-resources.js';
import { transferRoutes } from './routes-transfer.js';
import { singletonRoutes } from './routes-singletons.js';
import { kindRoutes } from './routes-kinds.js';
import { emulatorLicense, systemRoutes } from './routes-system.js';
import type { EmulatorCore, Route } from './routing.js';
import { createRequestHandler } from './server.js';
import { SessionStore } from './sessions.js';
import { templateRoutes } from './templates.js';
import { trimTrailing } from '../core/linear-text.js';

export type { EmulatorOptions, FaultRule, RequestLogEntry, RunningEmulator } from './api.js';

/** Every route (server.ts orders them by specificity). */
export const ROUTES: readonly Route[] = [...systemRoutes, ...configurationRoutes, ...transferRoutes, ...kindRoutes, ...templateRoutes, ...relationshipRoutes, ...contentRoutes, ...singletonRoutes, ...resourceRoutes];

const DEFAULT_IDLE_TIMEOUT_MS = 10 * 60 * 1000;

/** Options beyond the fixed `EmulatorOptions`, for the `gwops emulator` command. */
export interface ServeOptions extends EmulatorOptions {
  /** Called once per request with its log entry (e.g. for `--verbose`). */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Called with any error that became a 500 answer (an emulator bug). */
  onInternalError?: (error: unknown) => void;
  /** Keep at most this many request log entries (the oldest are dropped); unlimited when absent. */
  requestLogLimit?: number;
}

/** A self-signed server certificate for `host` (plus localhost and the loopback addresses). */
export async function selfSignedCertificate(host: string): Promise<{ cert: string; key: string }> {
  const altNames: { type: 2 | 7; value?: string; ip?: string }[] = [
    { type: 2, value: 'localhost' },
    { type: 7, ip: '127.0.0.1' },
    { type: 7, ip: '::1' },
  ];
  if (isIP(host) !== 0) {
    if (host !== '127.0.0.1' && host !== '::1') altNames.push({ type: 7, ip: host });
  } else if (host !== 'localhost') {
    altNames.push({ type: 2, value: host });
  }
  const now = new Date();
  const pems = await generate([{ name: 'commonName', value: 'gwops emulator' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - 60_000),
    notAfterDate: new Date(now.getTime() + 365 * 24 * 3600 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/** The host part of a URL for a listen address (wildcards become loopback, IPv6 in brackets). */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return isIP(host) === 6 ? `[${host}]` : host;
}

/**
 * Starts the emulator and resolves once it listens.
 * @throws ConfigError when the state file is unusable; the listen error (e.g. EADDRINUSE)
 * when the port cannot be bound.
 */
export async function startEmulator(options: ServeOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? '127.0.0.1';
  const variant = options.variant ?? 'latest';
  const basePath = normalisedBase(options.basePath ?? '/airlock/rest');
  const apiKey = options.apiKey ?? generateApiKey('admin');
  const readOnlyApiKey = options.readOnlyApiKey ?? generateApiKey('read-only');
  const keys = new KeyRing();
  keys.add(apiKey, { user: 'admin', role: 'administrator' });
  keys.add(readOnlyApiKey, { user: 'read-only', role: 'read-only' });

  const sessions = new SessionStore(options.sessionIdleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
  const builtIns = options.builtIns ?? true;
  const configurations = ConfigurationStore.open(options.stateFile, variant, new Date(), () => initialContent(variant, builtIns));
  const core: EmulatorCore = { variant, model: { variant }, sessions, configurations, keys, system: { node: { hostName: hostname() }, license: emulatorLicense() }, builtIns };
  const faults = new FaultInjector(options.faults ?? [], options.faultSeed ?? 1);
  const requestLog: RequestLogEntry[] = [];
  const loginApp = options.loginApp === true ? new LoginApp() : undefined;

  const tlsOption = options.tls ?? true;
  const tls = tlsOption === false ? undefined : tlsOption === true ? await selfSignedCertificate(host) : tlsOption;
  const handler = createRequestHandler({
    core,
    basePath,
    routes: ROUTES,
    loginApp,
    faults,
    latencyMs: options.latencyMs ?? 0,
    apiDocs: options.apiDocs,
    ...(options.onInternalError === undefined ? {} : { onInternalError: options.onInternalError }),
    secure: tls !== undefined,
    log: (entry) => {
      requestLog.push(entry);
      const limit = options.requestLogLimit;
      if (limit !== undefined && requestLog.length > limit) requestLog.splice(0, requestLog.length - limit);
      options.onRequest?.(entry);
    },
  });
  const server: Server = tls ? createHttpsServer({ cert: tls.cert, key: tls.key }, handler) : createHttpServer(handler);
  // Longer than most clients' pool idle times, so a pooled connection is rarely closed under a
  // client that is just sending on it (clients such as python-requests do not retry that).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 70_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8443, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? 8443);
  const origin = `${tls ? 'https' : 'http'}://${urlHost(host)}:${port}`;
  const url = `${origin}${basePath}`;

  let closed: Promise<void> | undefined;
  return {
    url,
    apiKey,
    readOnlyApiKey,
    variant,
    caCertificate: tls?.cert,
    ...(loginApp
      ? {
          loginApp: {
            jwksUrl: `${origin}${LOGIN_APP_JWKS_PATH}`,
            currentKid: () => loginApp.currentKid(),
            privateKey: (kid: string) => loginApp.privateKey(kid),
            rotate: (graceSeconds?: number) => loginApp.rotate(graceSeconds),
            expireRetired: () => loginApp.expireRetired(),
          },
        }
      : {}),
    requestLog,
    faults: { add: (rule: FaultRule) => faults.add(rule), clear: () => faults.clear() },
    expireSessions: () => sessions.expireAll(),
    openSessionCount: () => sessions.openCount(),
    activeSnapshot: () => {
      const active = configurations.active();
      const objects = [];
      for (const map of Object.values(active.content.objects)) {
        for (const obj of map.values()) objects.push(resourceObject(obj, variant));
      }
      return { id: active.id, comment: active.comment, objects };
    },
    close: () =>
      (closed ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      })),
  };
}

/** `/airlock/rest/` → `/airlock/rest`; `` and `/` → `` (served at the root). */
function normalisedBase(basePath: string): string {
  const trimmed = trimTrailing(basePath.replace(/\/{2,}/g, '/'), '/');
  if (trimmed === '') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}
