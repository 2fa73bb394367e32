/** A tiny HTTP client for the emulator smoke tests (undici, one cookie jar per client). */
import { Agent, request } from 'undici';
import { afterAll, beforeAll } from 'vitest';
import { startEmulator } from '../../../src/emulator/index.js';
import type { RunningEmulator } from '../../../src/emulator/index.js';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, or undefined when empty. */
  json: unknown;
  text: string;
  /** The raw body bytes. */
  bytes: Buffer;
}

/** Options of one call. */
export interface CallOptions {
  body?: unknown;
  /** A raw body sent as is. */
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

/** A session-holding client of one emulator. */
export class Client {
  cookie: string | undefined;
  private readonly dispatcher: Agent;

  constructor(
    private readonly emulator: RunningEmulator,
    private readonly key: string = emulator.apiKey,
  ) {
    this.dispatcher = new Agent(emulator.caCertificate ? { connect: { ca: emulator.caCertificate } } : {});
  }

  async call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookie !== undefined && headers.cookie === undefined) headers.cookie = this.cookie;
    let body: string | Buffer | undefined = options.raw;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await request(`${this.emulator.url}${path}`, {
      method: method as 'GET',
      headers,
      body,
      dispatcher: this.dispatcher,
    });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    const text = bytes.toString('utf8');
    const isJson = String(res.headers['content-type']).includes('json');
    return { status: res.statusCode, headers: res.headers, text, bytes, json: text === '' || !isJson ? undefined : (JSON.parse(text) as unknown) };
  }

  /** `POST /session/create` with the key; keeps the cookie. */
  async login(): Promise<Answer> {
    const answer = await this.call('POST', '/session/create', { headers: { authorization: `Bearer ${this.key}` } });
    const setCookie = answer.headers['set-cookie'];
    const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
    if (first) this.cookie = first.split(';')[0];
    return answer;
  }

  /** Session create plus load-active. */
  async start(): Promise<void> {
    await this.login();
    await this.call('POST', '/configuration/configurations/load-active');
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

/** `data` of a JSON:API answer. */
export function data(answer: Answer): Record<string, unknown> {
  return (answer.json as { data: Record<string, unknown> }).data;
}

/** `data[]` of a JSON:API answer. */
export function list(answer: Answer): Record<string, unknown>[] {
  return (answer.json as { data: Record<string, unknown>[] }).data;
}

/** The first error code of an error document. */
export function errorCode(answer: Answer): string | undefined {
  return (answer.json as { errors?: { code: string }[] } | undefined)?.errors?.[0]?.code;
}

/**
 * Registers a suite's hooks: a plain-HTTP emulator started before the tests (handed to
 * `ready`), and after them every client made through the returned `client` closed, then
 * the emulator.
 */
export function useEmulator(ready: (emulator: RunningEmulator) => void): { client(key?: string): Client } {
  let emulator: RunningEmulator | undefined;
  const clients: Client[] = [];
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, tls: false });
    ready(emulator);
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await emulator?.close();
  });
  return {
    client(key?: string): Client {
      if (!emulator) throw new Error('the emulator starts in beforeAll');
      const c = new Client(emulator, key);
      clients.push(c);
      return c;
    },
  };
}
