/**
 * The emulators of the apply-at-latency bench (tools/bench/apply.ts), and the measurement of
 * the network round trip that its floor is made of.
 *
 * Each emulator counts the requests it handled and its own processing time: the time it
 * spent on them beyond the added latency (building a 20,000-item list, validating,
 * persisting its state at an activation). That time stands in for a gateway's work; it is
 * neither the network nor gwops, so the bench reports it in a column of its own and
 * compares the rest of the wall time with the floor.
 */
import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { startEmulator } from '#src/emulator/index.js';
import { peakResidentKib } from './peak-memory.js';

/** What an emulator has handled so far. */
export interface EmulatorCounters {
  readonly requests: number;
  /** Sum over the requests of the handling time beyond the added latency, in ms. */
  readonly processingMs: number;
  /** CPU time (user and system) of the process serving the emulator so far, in ms: unlike `processingMs`, not inflated by other processes taking the cores. */
  readonly cpuMs: number;
}

/** An emulator the bench talks to, with its counters. */
export interface BenchEmulator {
  readonly url: string;
  readonly apiKey: string;
  /** Requests handled and processing time so far. */
  counters(): Promise<EmulatorCounters>;
  /** The peak resident set size of the process serving the emulator so far, in bytes. */
  peakRssBytes(): Promise<number>;
  close(): Promise<void>;
}

/** Starts an emulator with `latencyMs` added to every call, optionally on a state file. */
export type EmulatorFactory = (options: { readonly latencyMs: number; readonly stateFile?: string | undefined }) => Promise<BenchEmulator>;

/** CPU time (user and system) of this process so far, in ms. */
export function cpuMsOfProcess(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** The processing time of one logged request: its duration beyond the added latency (ms, never negative). */
export function processingMs(durationMs: number, latencyMs: number): number {
  return Math.max(0, durationMs - latencyMs);
}

/** The emulator in a child process (tools/bench/emulator-child.ts), as `npm run bench` runs it. */
export const childEmulator: EmulatorFactory = async ({ latencyMs, stateFile }) => {
  const child = fork(fileURLToPath(new URL('./emulator-child.js', import.meta.url)), [], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    execArgv: ['--max-old-space-size=4096'],
    env: { ...process.env, GWOPS_BENCH_LATENCY_MS: String(latencyMs), GWOPS_BENCH_STATE_FILE: stateFile ?? '' },
  });
  const info = await new Promise<{ url: string; apiKey: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { url: string; apiKey: string }));
    child.once('exit', (code) => reject(new Error(`emulator child exited with ${String(code)}`)));
  });
  return {
    ...info,
    counters: () =>
      new Promise<EmulatorCounters>((resolve) => {
        const onMessage = (m: unknown): void => {
          if (typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'counters') {
            child.off('message', onMessage);
            const { requests, processingMs: processing, cpuMs } = m as { requests?: unknown; processingMs?: unknown; cpuMs?: unknown };
            resolve({ requests: Number(requests), processingMs: Number(processing), cpuMs: Number(cpuMs) });
          }
        };
        child.on('message', onMessage);
        child.send({ type: 'counters' });
      }),
    peakRssBytes: () =>
      new Promise<number>((resolve) => {
        const onMessage = (m: unknown): void => {
          if (typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'memory') {
            child.off('message', onMessage);
            resolve(Number((m as { peakRssBytes?: unknown }).peakRssBytes));
          }
        };
        child.on('message', onMessage);
        child.send({ type: 'memory' });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send('close');
      }),
  };
};

/** The emulator in this process (for tests: no build needed). */
export const inProcessEmulator: EmulatorFactory = async ({ latencyMs, stateFile }) => {
  const emulator = await startEmulator({ port: 0, tls: false, variant: 'latest', latencyMs, ...(stateFile ? { stateFile } : {}) });
  return {
    url: emulator.url,
    apiKey: emulator.apiKey,
    counters: () =>
      Promise.resolve({
        requests: emulator.requestLog.length,
        processingMs: emulator.requestLog.reduce((sum, entry) => sum + processingMs(entry.durationMs, latencyMs), 0),
        // The emulator shares this process: its CPU time includes the client's.
        cpuMs: cpuMsOfProcess(),
      }),
    // The emulator shares this process: its peak includes the client's.
    peakRssBytes: () => Promise.resolve(peakResidentKib() * 1024),
    close: () => emulator.close(),
  };
};

/** A REST session of a bare HTTP client (an undici pool, no gwops code), for the bench's own calls. */
export interface BareSession {
  /**
   * One call in the session, its body sent as JSON.
   * @returns the answer's `data.id` ('' when it has none)
   * @throws Error naming the call when the status is 300 or more
   */
  readonly call: (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown) => Promise<string>;
  /** One GET whose answer is read and discarded, never decoded (a large list's bytes only); resolves to its byte count. */
  readonly drain: (path: string) => Promise<number>;
  /**
   * One call whose answer is returned as text.
   * @throws Error naming the call when the status is 300 or more
   */
  readonly text: (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<string>;
  /**
   * One call with a binary body (or none), whose answer is returned as bytes (an export
   * archive, an import).
   * @throws Error naming the call when the status is 300 or more
   */
  readonly bytes: (method: 'GET' | 'PUT' | 'DELETE', path: string, body?: Buffer, contentType?: string) => Promise<Buffer>;
  /** Terminates the session and closes the pool. */
  readonly close: () => Promise<void>;
}

/**
 * Opens a session on `emulator` with a bare client of `connections` connections and loads
 * the active configuration into it.
 * @throws Error when the session cannot be opened or loaded
 */
export async function openBareSession(emulator: Pick<BenchEmulator, 'url' | 'apiKey'>, connections = 1): Promise<BareSession> {
  const origin = new URL(emulator.url);
  const base = origin.pathname.replace(/\/$/, '');
  const pool = new Pool(origin.origin, { connections });
  let cookie = '';
  /** The answer's text, or '' when discarded; `bytes`: the body's length. */
  const send = async (
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    body: unknown,
    read: 'text' | 'discard',
    extra: Record<string, string> = {},
  ): Promise<{ text: string; bytes: number }> => {
    const res = await pool.request({
      method,
      path: `${base}${path}`,
      headers: { cookie, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...extra },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    let text = '';
    let bytes = 0;
    if (read === 'text' || res.statusCode >= 300) {
      text = await res.body.text();
      bytes = Buffer.byteLength(text);
    } else {
      for await (const chunk of res.body) bytes += (chunk as Buffer).length;
    }
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 200)}`);
    const setCookie = res.headers['set-cookie'];
    if (setCookie !== undefined) cookie = (Array.isArray(setCookie) ? setCookie[0] : setCookie)?.split(';')[0] ?? '';
    return { text, bytes };
  };
  const call = async (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<string> => {
    const { text } = await send(method, path, body, 'text');
    return text ? ((JSON.parse(text) as { data?: { id?: string } }).data?.id ?? '') : '';
  };
  try {
    await send('POST', '/session/create', undefined, 'text', { authorization: `Bearer ${emulator.apiKey}` });
    await call('POST', '/configuration/configurations/load-active');
  } catch (error) {
    await pool.close();
    throw error;
  }
  return {
    call,
    drain: async (path) => (await send('GET', path, undefined, 'discard')).bytes,
    bytes: async (method, path, body, contentType = 'application/zip') => {
      const res = await pool.request({
        method,
        path: `${base}${path}`,
        headers: { cookie, ...(body === undefined ? {} : { 'content-type': contentType }) },
        ...(body === undefined ? {} : { body }),
      });
      const bytes = Buffer.from(await res.body.arrayBuffer());
      if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${bytes.subarray(0, 200).toString('utf8')}`);
      return bytes;
    },
    text: async (method, path, body) => (await send(method, path, body, 'text')).text,
    close: async () => {
      try {
        await send('POST', '/session/terminate', undefined, 'text');
      } finally {
        await pool.close();
      }
    },
  };
}

/** What the network costs a bare client against one emulator ({@link measureNetwork}). */
export interface NetworkFigures {
  /** One round trip of a small call, in ms. */
  readonly roundTripMs: number;
  /** Receiving the whole lists of the collections asked for, one GET each, in ms in total. */
  readonly listsMs: number;
}

/**
 * The network's part of the calls against `emulator`, as a bare HTTP client sees it (an
 * undici pool, no gwops code), in a session of its own with the active configuration
 * loaded:
 * - the round trip: `calls` sequential small GETs (a filtered list that matches nothing),
 *   after a few for warm-up, their mean wall time less the emulator's mean processing time.
 *   At an added latency of L ms it is L plus what this machine's loopback and process
 *   wake-ups cost any client;
 * - the lists: one GET of each of `collections` (e.g. `mappings`), its body read but not
 *   parsed, less the emulator's processing: what moving a large list costs on top of
 *   the round trip.
 * The requests it sends are counted by the emulator: measure before reading the counters
 * of a run.
 * @throws Error when a call does not succeed
 */
export async function measureNetwork(emulator: BenchEmulator, collections: readonly string[], calls = 50): Promise<NetworkFigures> {
  const timed = async (work: () => Promise<void>): Promise<number> => {
    const before = await emulator.counters();
    const t0 = performance.now();
    await work();
    const wallMs = performance.now() - t0;
    const after = await emulator.counters();
    return wallMs - (after.processingMs - before.processingMs);
  };
  const session = await openBareSession(emulator);
  try {
    const probe = (): Promise<string> => session.call('GET', '/configuration/virtual-hosts?filter=name==gwops-bench-round-trip');
    for (let i = 0; i < 5; i++) await probe();
    const roundTrips = await timed(async () => {
      for (let i = 0; i < calls; i++) await probe();
    });
    let listsMs = 0;
    for (const collection of collections) listsMs += await timed(async () => void (await session.drain(`/configuration/${collection}`)));
    return { roundTripMs: roundTrips / calls, listsMs };
  } finally {
    await session.close();
  }
}
