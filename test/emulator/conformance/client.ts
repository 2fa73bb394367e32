/**
 * A tiny test client for the emulator conformance suite, built on undici the way the real
 * clients in docs/gateway-api.md "What real clients send" talk to a gateway:
 * `POST /session/create` with a Bearer key, then the `JSESSIONID` cookie on every call,
 * JSON bodies, raw responses.
 *
 * It deliberately does not hide anything: every call returns status, headers, the raw
 * text and the parsed JSON document, so a test can assert exactly what came back.
 *
 * The suite checks the emulator against docs/gateway-api.md, one file per area:
 * - session.test.ts: sessions, cookies, 401, read-only 403, idle timeout, TLS, plain HTTP, keys
 * - configurations.test.ts: every row of docs/gateway-api.md "Configurations and activation",
 *   CONFIGURATION_LOAD_REQUIRED, concurrent activation (409 OUTDATED_CONFIGURATION /
 *   ignoreOutdatedConfiguration)
 * - resources.test.ts: every cell of the collection table, filters, templates, export/import
 * - patch-rules.test.ts: the four PATCH rules, deep merge, whole-list replacement, attribute checks
 * - relationships.test.ts: every row of the relationship table, both sides, maintenance
 * - errors.test.ts: the error statuses and codes the emulator can produce, error document shape
 * - tolerance.test.ts: what real clients send (double slashes, body-less POSTs, cookies, ...)
 * - defaults-variants.test.ts: server defaults per variant, write-only fields, variants
 * - validator.test.ts: each validator rule in both shapes, filters, activation refused on ERROR
 * - faults.test.ts: fault injection and the request log
 * - persistence.test.ts: stateFile across restarts, stray temp files
 * - persistence-crash.test.ts: a crash simulated mid-write and before the rename
 * - workflows.test.ts: whole call sequences of real clients
 * - vendor-ip-list-script.test.ts: the vendor's IP-list sample script's call sequence, replayed
 * - properties.test.ts: filters and deep merge against a reference model (fast-check)
 * - system.test.ts: license and nodes; api-docs.test.ts: the API's own description
 *
 * Every call the emulator accepts (2xx) is checked against its own `GET /v3/api-docs`
 * (api-docs-check.ts): an undescribed route or a body outside its schema fails the test.
 */
import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { afterAll, beforeAll } from 'vitest';
import type { Dispatcher } from 'undici';
import { startEmulator } from '../../../src/emulator/index.js';
import { KINDS, kindOf } from '../../../src/kinds/index.js';
import type { ResourceType } from '../../../src/kinds/index.js';
import { checkAccepted, registerDescribed } from './api-docs-check.js';
import type { EmulatorOptions, RunningEmulator } from '../../../src/emulator/api.js';
import type { ExampleFixtures } from '../../support/kind-examples.js';
import { KIND_EXAMPLES } from '../../support/kind-examples.js';

/** A JSON:API resource identifier. */
export interface Identifier {
  type: string;
  id: string;
}

/** A JSON:API resource object as the emulator answers it. */
export interface ResourceObject {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: Identifier | Identifier[] | null }>;
  meta?: Record<string, unknown>;
}

/** One error object of an error document. */
export interface ErrorObject {
  code: string;
  status?: string | number;
  title?: string;
  detail?: string;
}

/** A JSON:API document (success or error). */
export interface Doc {
  meta?: { type?: string; timestamp?: string; rid?: string };
  data?: ResourceObject | ResourceObject[] | null;
  errors?: ErrorObject[];
}

/** What one call answered. */
export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body bytes. */
  raw: Buffer;
  text: string;
  /** The parsed body when it is JSON; undefined for an empty or non-JSON body. */
  doc: Doc | undefined;
}

/** How a call's body is sent. */
export interface CallOptions {
  /** A value serialised as JSON with `Content-Type: application/json`. */
  json?: unknown;
  /** A raw body sent as is (Content-Type only if given in `headers`); a stream is sent chunked. */
  raw?: string | Buffer | Readable;
  /** Extra or overriding headers; a `null` value removes a default header. */
  headers?: Record<string, string | null>;
  /** Do not send the session cookie (even if the client holds one). */
  noCookie?: boolean;
}

/** The collection under `/configuration` of every resource type, from the kind registry. */
export const COLLECTION: Readonly<Record<ResourceType, string>> = Object.fromEntries(KINDS.map((k) => [k.type, k.collection])) as Record<ResourceType, string>;
export type Type = ResourceType;

/** A started emulator plus the undici dispatcher that trusts its certificate. */
export interface Harness {
  emulator: RunningEmulator;
  dispatcher: Agent;
  /** Closes the dispatcher, then the emulator. */
  close(): Promise<void>;
  /** A new client of this emulator (no session yet). */
  client(): Client;
}

/** Starts an emulator on a free loopback port (HTTPS unless `tls: false`). */
export async function startHarness(options: EmulatorOptions = {}): Promise<Harness> {
  const emulator = await startEmulator({ port: 0, ...options });
  registerDescribed(emulator.url, options.variant ?? 'latest');
  const ca = emulator.caCertificate;
  const dispatcher = new Agent(ca === undefined ? {} : { connect: { ca } });
  return {
    emulator,
    dispatcher,
    async close() {
      await dispatcher.close();
      await emulator.close();
    },
    client() {
      return new Client(emulator.url, dispatcher);
    },
  };
}

/**
 * Registers the hooks most suites need: before the tests, start a harness and open an
 * administrator session on it, handed to `ready`; after them, close the harness.
 */
export function useAdminSession(ready: (harness: Harness, client: Client) => void, options: EmulatorOptions = {}): void {
  let harness: Harness | undefined;
  beforeAll(async () => {
    harness = await startHarness(options);
    ready(harness, await harness.client().open(harness.emulator.apiKey));
  });
  afterAll(async () => {
    await harness?.close();
  });
}

/** The `name=value` part of a `Set-Cookie` header for `JSESSIONID`, if any. */
export function jsessionSetCookie(headers: Reply['headers']): string | undefined {
  const raw = headers['set-cookie'];
  const all = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return all.find((c) => c.trim().startsWith('JSESSIONID='));
}

export class Client {
  /** The cookie value sent as `Cookie:` (by default `JSESSIONID=<value>`). */
  cookie: string | undefined;
  /** The whole `Set-Cookie` header of session create, as some clients echo it. */
  setCookie: string | undefined;

  constructor(
    readonly baseUrl: string,
    private readonly dispatcher: Dispatcher,
  ) {}

  /** One HTTP call; `path` is relative to the base URL (e.g. `/configuration/mappings`). */
  async call(method: Dispatcher.HttpMethod, path: string, options: CallOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { accept: 'application/json' };
    let body: string | Buffer | Readable | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    } else if (options.raw !== undefined) {
      body = options.raw;
    }
    if (this.cookie !== undefined && options.noCookie !== true) headers.cookie = this.cookie;
    for (const [k, v] of Object.entries(options.headers ?? {})) {
      if (v === null) delete headers[k.toLowerCase()];
      else headers[k.toLowerCase()] = v;
    }
    const res = await request(this.baseUrl + path, { method, headers, body, dispatcher: this.dispatcher });
    const raw = Buffer.from(await res.body.arrayBuffer());
    const text = raw.toString('utf8');
    let doc: Doc | undefined;
    if (text.trim() !== '') {
      try {
        doc = JSON.parse(text) as Doc;
      } catch {
        doc = undefined;
      }
    }
    if (res.statusCode >= 200 && res.statusCode < 300) checkAccepted(this.baseUrl, method, path, options);
    return { status: res.statusCode, headers: res.headers, raw, text, doc };
  }

  /** `POST /session/create` with the Bearer key; keeps the cookie. Asserts nothing. */
  async createSession(apiKey: string): Promise<Reply> {
    const reply = await this.call('POST', '/session/create', { headers: { authorization: `Bearer ${apiKey}` } });
    const setCookie = jsessionSetCookie(reply.headers);
    if (setCookie !== undefined) {
      this.setCookie = setCookie;
      this.cookie = setCookie.split(';')[0]?.trim();
    }
    return reply;
  }

  /** Session create + `load-active`, failing loudly when either does not succeed. */
  async open(apiKey: string): Promise<this> {
    const created = await this.createSession(apiKey);
    if (created.status !== 200 || this.cookie === undefined) {
      throw new Error(`session create answered ${created.status}: ${created.text}`);
    }
    const loaded = await this.call('POST', '/configuration/configurations/load-active');
    if (loaded.status !== 204) throw new Error(`load-active answered ${loaded.status}: ${loaded.text}`);
    return this;
  }

  /** POST a new object; returns its id, failing loudly unless 201. */
  async create(type: Type, attributes: Record<string, unknown>): Promise<string> {
    const reply = await this.call('POST', `/configuration/${COLLECTION[type]}`, { json: { data: { type, attributes } } });
    if (reply.status !== 201) throw new Error(`create ${type} answered ${reply.status}: ${reply.text}`);
    return one(reply).id;
  }

  /** GET one object, failing loudly unless 200. */
  async read(type: Type, id: string): Promise<ResourceObject> {
    const reply = await this.call('GET', `/configuration/${COLLECTION[type]}/${id}`);
    if (reply.status !== 200) throw new Error(`read ${type} ${id} answered ${reply.status}: ${reply.text}`);
    return one(reply);
  }

  /** PATCH attributes of one object (with type and id). */
  patch(type: Type, id: string, attributes: Record<string, unknown>): Promise<Reply> {
    return this.call('PATCH', `/configuration/${COLLECTION[type]}/${id}`, { json: { data: { type, id, attributes } } });
  }

  /** PATCH (link) or DELETE (unlink) a relationship; `ids` as array = to-many body, string = to-one body. */
  relationship(
    method: 'PATCH' | 'DELETE',
    from: Type,
    fromId: string,
    name: string,
    targetType: Type,
    ids: string | readonly string[],
  ): Promise<Reply> {
    const data = typeof ids === 'string' ? { type: targetType, id: ids } : ids.map((id) => ({ type: targetType, id }));
    return this.call(method, `/configuration/${COLLECTION[from]}/${fromId}/relationships/${name}`, { json: { data } });
  }

  /** GET a list (optionally with raw query string, e.g. `filter=name==x`). */
  async list(type: Type, query?: string): Promise<ResourceObject[]> {
    const reply = await this.call('GET', `/configuration/${COLLECTION[type]}${query === undefined ? '' : `?${query}`}`);
    if (reply.status !== 200) throw new Error(`list ${type} answered ${reply.status}: ${reply.text}`);
    return many(reply);
  }

  /** `POST /configuration/configurations/activate` with a comment and options. */
  activate(comment: string, options?: Record<string, unknown>): Promise<Reply> {
    return this.call('POST', '/configuration/configurations/activate', {
      json: options === undefined ? { comment } : { comment, options },
    });
  }

  /** Validator messages, optionally with a raw query string. */
  async messages(query?: string): Promise<ResourceObject[]> {
    const reply = await this.call('GET', `/configuration/validator-messages${query === undefined ? '' : `?${query}`}`);
    if (reply.status !== 200) throw new Error(`validator messages answered ${reply.status}: ${reply.text}`);
    return many(reply);
  }

  async terminate(): Promise<Reply> {
    return this.call('POST', '/session/terminate');
  }
}

/** `data` of a single-resource reply. */
export function one(reply: Reply): ResourceObject {
  const data = reply.doc?.data;
  if (data === undefined || data === null || Array.isArray(data)) {
    throw new Error(`expected one resource in ${reply.status} reply: ${reply.text}`);
  }
  return data;
}

/** `data[]` of a collection reply. */
export function many(reply: Reply): ResourceObject[] {
  const data = reply.doc?.data;
  if (!Array.isArray(data)) throw new Error(`expected data[] in ${reply.status} reply: ${reply.text}`);
  return data;
}

/** `errors[0].code` of an error reply (undefined when absent). */
export function errorCode(reply: Reply): string | undefined {
  return reply.doc?.errors?.[0]?.code;
}

/** The value at a dotted path inside a JSON value. */
export function at(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Ids of a relationship of a resource, as strings (to-one gives 0 or 1 id). */
export function linkedIds(resource: ResourceObject, name: string): unknown[] {
  // An unset to-one member is left out (docs/gateway-api.md "Relationships").
  const data = resource.relationships?.[name]?.data;
  if (data === null || data === undefined) return [];
  return (Array.isArray(data) ? data : [data]).map((d) => d.id);
}

/**
 * Attributes of objects that raise no validator message on any variant: a virtual host
 * with HTTPS (and so HTTP/2) off, a back-end group with one host, a mapping (which must
 * still be linked to both).
 */
export const VALID = {
  virtualHost(name: string): Record<string, unknown> {
    return {
      name,
      hostName: `${name}.example.com`,
      networkInterface: { http: { enabled: true, port: 80 }, https: { enabled: false, http2Allowed: false } },
    };
  },
  backEndGroup(name: string): Record<string, unknown> {
    return { name, backendHosts: [{ protocol: 'HTTP', hostName: `${name}.internal`, port: 8080 }] };
  },
  mapping(name: string, entryPath = `/${name}/`): Record<string, unknown> {
    return { name, entryPath: { value: entryPath } };
  },
};

/** A unique name per call, so tests sharing one emulator never collide. */
let counter = 0;
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

/** Certificate-shaped strings (the emulator stores PEM text, it does not parse it). */
export const PEM = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUZW11bGF0b3I=\n-----END CERTIFICATE-----\n';
export const PEM2 = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUaW50ZXJtZWRpYXRl\n-----END CERTIFICATE-----\n';

/** A private-key-shaped string. */
const KEY = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n';

/** What the kind examples may ask for: certificate-shaped strings. */
const EXAMPLE_FIXTURES: ExampleFixtures = {
  certificate: () => Promise.resolve({ certificate: PEM, privateKey: KEY }),
};

/**
 * A new example object of `type` (test/support/kind-examples.ts, one per registered kind)
 * under a unique name: the attributes to create it with (its `name` included when the name
 * is its identity), and one change to PATCH.
 */
export async function exampleObject(type: Type): Promise<{ attributes: Record<string, unknown>; update: Record<string, unknown> }> {
  const name = uniqueName(type);
  const { attributes, update } = await KIND_EXAMPLES[type](name, EXAMPLE_FIXTURES);
  return { attributes: { ...attributes, ...(kindOf(type).identity.byName ? { name } : {}) }, update: { ...update } };
}
