/**
 * Fault injection and the request log (`FaultRule` and `RequestLogEntry` in
 * src/emulator/api.ts).
 */
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { errorCode, startHarness, VALID } from './client.js';
import type { Harness } from './client.js';

describe('fault injection', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('answers the configured status for the Nth matching call only', async () => {
    h = await startHarness({ faults: [{ method: 'GET', path: '/configuration/mappings', status: 503, nth: 2 }] });
    const c = await h.client().open(h.emulator.apiKey);
    expect((await c.call('GET', '/configuration/mappings')).status).toBe(200);
    const second = await c.call('GET', '/configuration/mappings');
    expect(second.status).toBe(503);
    expect(errorCode(second)).toBe('INJECTED_FAULT');
    expect(second.doc?.meta?.type).toBe('jsonapi.metadata.document');
    expect((await c.call('GET', '/configuration/mappings')).status).toBe(200);
    // other paths and methods never match
    expect((await c.call('GET', '/configuration/virtual-hosts')).status).toBe(200);
  });

  it('a glob path matches every path it covers; the method restricts the rule', async () => {
    h = await startHarness({ faults: [{ method: 'POST', path: '/configuration/*', status: 500 }] });
    const c = h.client();
    await c.createSession(h.emulator.apiKey);
    expect((await c.call('POST', '/configuration/configurations/load-active')).status).toBe(500);
    h.emulator.faults.clear();
    expect((await c.call('POST', '/configuration/configurations/load-active')).status).toBe(204);
    h.emulator.faults.add({ method: 'POST', path: '/configuration/*', status: 500 });
    expect((await c.call('GET', '/configuration/back-end-groups')).status).toBe(200);
    expect(
      (await c.call('POST', '/configuration/back-end-groups', { json: { data: { type: 'back-end-group', attributes: { name: 'x' } } } })).status,
    ).toBe(500);
  });

  it('an injected status does not handle the call: nothing is created', async () => {
    h = await startHarness();
    const c = await h.client().open(h.emulator.apiKey);
    h.emulator.faults.add({ method: 'POST', path: '/configuration/back-end-groups', status: 502, nth: 1 });
    const reply = await c.call('POST', '/configuration/back-end-groups', {
      json: { data: { type: 'back-end-group', attributes: VALID.backEndGroup('never') } },
    });
    expect(reply.status).toBe(502);
    expect(await c.list('back-end-group')).toEqual([]);
    // nth: 1 is spent; the retry lands
    await c.create('back-end-group', VALID.backEndGroup('retried'));
    expect((await c.list('back-end-group')).map((g) => g.attributes.name)).toEqual(['retried']);
  });

  it("'*' in a glob spans path segments, and paths are matched after double slashes collapse", async () => {
    h = await startHarness({ faults: [{ method: 'GET', path: '/configuration/mappings*', status: 503 }] });
    const c = await h.client().open(h.emulator.apiKey);
    expect((await c.call('GET', '/configuration/mappings')).status).toBe(503);
    expect((await c.call('GET', '/configuration/mappings/1')).status).toBe(503);
    expect((await c.call('GET', '/configuration/mappings/1/relationships/virtual-hosts')).status).toBe(503);
    expect((await c.call('GET', '//configuration//mappings')).status).toBe(503);
    expect((await c.call('GET', '/configuration/virtual-hosts')).status).toBe(200);
  });

  it('a RegExp path matches', async () => {
    h = await startHarness({ faults: [{ path: /\/virtual-hosts\/\d+$/, status: 429 }] });
    const c = await h.client().open(h.emulator.apiKey);
    const id = await c.create('virtual-host', VALID.virtualHost('rx'));
    expect((await c.call('GET', `/configuration/virtual-hosts/${id}`)).status).toBe(429);
    expect((await c.call('GET', '/configuration/virtual-hosts')).status).toBe(200);
  });

  it('fraction 1 triggers on every matching call, fraction 0 on none', async () => {
    h = await startHarness({
      faults: [
        { path: '/configuration/mappings', status: 500, fraction: 1 },
        { path: '/configuration/virtual-hosts', status: 500, fraction: 0 },
      ],
    });
    const c = await h.client().open(h.emulator.apiKey);
    for (let i = 0; i < 5; i += 1) {
      expect((await c.call('GET', '/configuration/mappings')).status).toBe(500);
      expect((await c.call('GET', '/configuration/virtual-hosts')).status).toBe(200);
    }
  });

  it('a fraction is deterministic for a given faultSeed', async () => {
    const run = async (): Promise<number[]> => {
      const local = await startHarness({ faults: [{ path: '/configuration/mappings', status: 500, fraction: 0.5 }], faultSeed: 42 });
      try {
        const c = await local.client().open(local.emulator.apiKey);
        const statuses: number[] = [];
        for (let i = 0; i < 20; i += 1) statuses.push((await c.call('GET', '/configuration/mappings')).status);
        return statuses;
      } finally {
        await local.close();
      }
    };
    const first = await run();
    expect(await run()).toEqual(first);
    expect(first).toContain(500);
    expect(first).toContain(200);
  });

  it('drop destroys the connection without any response', async () => {
    h = await startHarness({ faults: [{ method: 'GET', path: '/configuration/mappings', drop: true, nth: 1 }] });
    const c = await h.client().open(h.emulator.apiKey);
    await expect(c.call('GET', '/configuration/mappings')).rejects.toThrow();
    // the server keeps serving
    expect((await c.call('GET', '/configuration/mappings')).status).toBe(200);
  });

  it('a dropped POST was not handled: nothing was created', async () => {
    h = await startHarness();
    const c = await h.client().open(h.emulator.apiKey);
    h.emulator.faults.add({ method: 'POST', path: '/configuration/back-end-groups', drop: true, nth: 1 });
    await expect(
      c.call('POST', '/configuration/back-end-groups', { json: { data: { type: 'back-end-group', attributes: VALID.backEndGroup('dropped') } } }),
    ).rejects.toThrow();
    expect(await c.list('back-end-group')).toEqual([]);
    await c.create('back-end-group', VALID.backEndGroup('dropped'));
    expect((await c.list('back-end-group')).map((g) => g.attributes.name)).toEqual(['dropped']);
  });

  it('a fault on session create: the first attempt fails without a cookie, the retry gets one', async () => {
    h = await startHarness({ faults: [{ path: '/session/create', status: 503, nth: 1 }] });
    const c = h.client();
    const first = await c.createSession(h.emulator.apiKey);
    expect(first.status).toBe(503);
    expect(c.cookie).toBeUndefined();
    const second = await c.createSession(h.emulator.apiKey);
    expect(second.status).toBe(200);
    expect(c.cookie).toMatch(/^JSESSIONID=/);
  });

  it('added latency delays the answer, which still succeeds', async () => {
    h = await startHarness({ faults: [{ path: '/configuration/mappings', latencyMs: 300 }] });
    const c = await h.client().open(h.emulator.apiKey);
    const start = performance.now();
    const reply = await c.call('GET', '/configuration/mappings');
    const elapsed = performance.now() - start;
    expect(reply.status).toBe(200);
    // a lower bound only: the answer cannot come before the injected delay
    expect(elapsed).toBeGreaterThanOrEqual(250);
  });

  it('the global latency option delays every call', async () => {
    h = await startHarness({ latencyMs: 200 });
    const c = h.client();
    const start = performance.now();
    expect((await c.createSession(h.emulator.apiKey)).status).toBe(200);
    expect(performance.now() - start).toBeGreaterThanOrEqual(150);
  });

  it('the latency is never cut short: every call is held at least the full latency', async () => {
    h = await startHarness({ latencyMs: 20 });
    const c = await h.client().open(h.emulator.apiKey);
    for (let i = 0; i < 5; i++) expect((await c.call('GET', '/configuration/mappings')).status).toBe(200);
    // The emulator's own measurement of each call, from arrival to answer (a lower bound only).
    expect(h.emulator.requestLog.length).toBeGreaterThanOrEqual(6);
    for (const entry of h.emulator.requestLog) expect(entry.durationMs).toBeGreaterThanOrEqual(20);
  });

  it('an expireSessions rule expires every session, so that call and later ones get 401', async () => {
    h = await startHarness({ faults: [{ method: 'GET', path: '/configuration/virtual-hosts', expireSessions: true, nth: 1 }] });
    const a = await h.client().open(h.emulator.apiKey);
    const b = await h.client().open(h.emulator.apiKey);
    const reply = await a.call('GET', '/configuration/virtual-hosts');
    expect(reply.status).toBe(401);
    expect((await a.call('GET', '/configuration/mappings')).status).toBe(401);
    expect((await b.call('GET', '/configuration/mappings')).status).toBe(401);
    expect(h.emulator.openSessionCount()).toBe(0);
    const c = await h.client().open(h.emulator.apiKey);
    expect((await c.call('GET', '/configuration/virtual-hosts')).status).toBe(200);
  });

  it('expireSessions() on the running emulator makes open sessions answer 401', async () => {
    h = await startHarness();
    const a = await h.client().open(h.emulator.apiKey);
    expect(h.emulator.openSessionCount()).toBe(1);
    h.emulator.expireSessions();
    expect((await a.call('GET', '/configuration/mappings')).status).toBe(401);
    expect(h.emulator.openSessionCount()).toBe(0);
  });
});

describe('the request log', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('records method, path, query and status of every call, in order', async () => {
    h = await startHarness();
    const c = await h.client().open(h.emulator.apiKey);
    h.emulator.requestLog.length = 0;
    await c.call('GET', '/configuration/mappings?filter=name==x');
    await c.call('GET', '/configuration/mappings/999');
    await c.call('DELETE', '/configuration/back-end-groups/999');
    const log = h.emulator.requestLog;
    expect(log.map((e) => e.method)).toEqual(['GET', 'GET', 'DELETE']);
    expect(log.map((e) => e.status)).toEqual([200, 404, 404]);
    expect(log[0]?.path).toMatch(/\/configuration\/mappings$/);
    expect(log[0]?.query).toContain('filter=name==x');
    expect(log[1]?.path).toMatch(/\/configuration\/mappings\/999$/);
    for (const e of log) {
      expect(typeof e.durationMs).toBe('number');
      expect(e.durationMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('records session calls, 401s and injected faults', async () => {
    h = await startHarness({ faults: [{ method: 'GET', path: '/configuration/virtual-hosts', status: 503 }] });
    const c = h.client();
    await c.call('POST', '/session/create');
    await c.createSession(h.emulator.apiKey);
    await c.call('POST', '/configuration/configurations/load-active');
    await c.call('GET', '/configuration/virtual-hosts');
    expect(h.emulator.requestLog.map((e) => [e.method, e.path.replace(/^.*?(\/session|\/configuration)/, '$1'), e.status])).toEqual([
      ['POST', '/session/create', 401],
      ['POST', '/session/create', 200],
      ['POST', '/configuration/configurations/load-active', 204],
      ['GET', '/configuration/virtual-hosts', 503],
    ]);
  });

  it('never contains a key, a cookie or a body', async () => {
    h = await startHarness();
    const c = await h.client().open(h.emulator.apiKey);
    const ro = h.client();
    await ro.createSession(h.emulator.readOnlyApiKey);
    await c.call('GET', '/configuration/mappings', { headers: { authorization: `Bearer ${h.emulator.apiKey}` } });
    await c.call('POST', '/configuration/ssl-certificates', {
      json: { data: { type: 'ssl-certificate', attributes: { certType: 'SERVER_CERT', certificate: 'x', passphrase: 'pass-phrase-in-body' } } },
    });
    await c.call('POST', '/session/create', { headers: { authorization: 'Bearer wrong-key-value-xyz' } });
    const text = JSON.stringify(h.emulator.requestLog);
    expect(h.emulator.requestLog.length).toBeGreaterThanOrEqual(5);
    expect(text).not.toContain(h.emulator.apiKey);
    expect(text).not.toContain(h.emulator.readOnlyApiKey);
    expect(text).not.toContain('wrong-key-value-xyz');
    const cookieValue = c.cookie?.split('=')[1];
    expect(cookieValue).toBeTruthy();
    expect(text).not.toContain(String(cookieValue));
    expect(text).not.toContain(String(ro.cookie?.split('=')[1]));
    expect(text).not.toContain('pass-phrase-in-body');
    for (const e of h.emulator.requestLog) {
      expect(Object.keys(e).sort()).toEqual(['durationMs', 'method', 'path', 'query', 'status']);
    }
  });

  it('can be cleared by a test', async () => {
    h = await startHarness();
    await h.client().createSession(h.emulator.apiKey);
    expect(h.emulator.requestLog.length).toBe(1);
    h.emulator.requestLog.length = 0;
    expect(h.emulator.requestLog).toEqual([]);
    await h.client().createSession(h.emulator.apiKey);
    expect(h.emulator.requestLog.length).toBe(1);
  });
});
