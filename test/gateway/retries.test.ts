import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { ApiError, ConnectionError } from '../../src/gateway/errors.js';
import { GatewaySession } from '../../src/gateway/session.js';
import type { FaultProxy } from './fault-proxy.js';
import { TEST_POLICY, mappingAttributes, recordingClock, useEmulatorAndProxy } from './helpers.js';

let emulator: RunningEmulator;
let proxy: FaultProxy;

useEmulatorAndProxy((e, p) => {
  emulator = e;
  proxy = p;
});

/** An open session with the active configuration loaded; the request log starts empty. */
async function loaded(url = emulator.url): Promise<{ s: GatewaySession; clock: ReturnType<typeof recordingClock> }> {
  const clock = recordingClock();
  const s = new GatewaySession({ url, apiKey: emulator.apiKey, retry: TEST_POLICY, clock });
  await s.open();
  await s.loadActive();
  emulator.requestLog.length = 0;
  return { s, clock };
}

const calls = (): string[] => emulator.requestLog.map((e) => `${e.method} ${e.path} ${e.status}`);

describe('idempotent calls', () => {
  it('retry a PATCH answered 503, honouring Retry-After', async () => {
    const { s, clock } = await loaded(proxy.url);
    const m = await s.create('mappings', { type: 'mapping', attributes: mappingAttributes('retry-patch') });
    emulator.requestLog.length = 0;
    emulator.faults.add({ method: 'PATCH', path: '/configuration/mappings/*', status: 503, nth: 1 });
    proxy.addRule({ method: 'PATCH', path: /^\/configuration\/mappings\/\d+$/, nth: 1, addHeaders: { 'retry-after': '2' } });
    const updated = await s.update('mappings', m.id, { type: 'mapping', attributes: { backendPath: '/after-retry/' } });
    expect(updated?.attributes.backendPath).toBe('/after-retry/');
    expect(calls()).toEqual([`PATCH /configuration/mappings/${m.id} 503`, `PATCH /configuration/mappings/${m.id} 200`]);
    expect(clock.waits).toEqual([2000]);
    expect(s.requestCounts().PATCH).toBe(2);
    await s.terminate();
  });

  it('give up after the bounded attempts with the status, code and attempt count', async () => {
    const { s } = await loaded();
    emulator.faults.add({ method: 'GET', path: '/configuration/back-end-groups', status: 502 });
    const error = await s.list('back-end-groups').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, code: 'INJECTED_FAULT', attempts: TEST_POLICY.maxAttempts });
    expect(calls()).toEqual(Array<string>(TEST_POLICY.maxAttempts).fill('GET /configuration/back-end-groups 502'));
    await s.terminate();
  });

  it('retry a GET whose connection was dropped', async () => {
    const { s } = await loaded();
    emulator.faults.add({ method: 'GET', path: '/configuration/mappings', drop: true, nth: 1 });
    await expect(s.list('mappings')).resolves.toBeInstanceOf(Array);
    expect(calls()).toEqual(['GET /configuration/mappings 0', 'GET /configuration/mappings 200']);
    await s.terminate();
  });

  it('do not retry a 500', async () => {
    const { s } = await loaded();
    emulator.faults.add({ method: 'GET', path: '/configuration/mappings', status: 500 });
    await expect(s.list('mappings')).rejects.toMatchObject({ status: 500, attempts: 1 });
    expect(calls()).toHaveLength(1);
    await s.terminate();
  });
});

describe('creates', () => {
  it('are not duplicated when the response is lost after the create landed', async () => {
    const { s } = await loaded(proxy.url);
    proxy.addRule({ method: 'POST', path: /^\/configuration\/mappings$/, nth: 1, dropResponse: true });
    const created = await s.createChecked('mappings', { type: 'mapping', attributes: mappingAttributes('landed') }, { name: 'landed' });
    expect(calls()).toEqual(['POST /configuration/mappings 201', 'GET /configuration/mappings 200']);
    expect((await s.get('mappings', created.id)).attributes.name).toBe('landed');
    expect(emulator.requestLog[1]?.query).toBe('filter=name%3D%3Dlanded');
    expect(await s.list('mappings', ['name==landed'])).toHaveLength(1);
    await s.terminate();
  });

  it('are sent again after a 503 when the check by name shows they did not land', async () => {
    const { s } = await loaded();
    emulator.faults.add({ method: 'POST', path: '/configuration/mappings', status: 503, nth: 1 });
    const created = await s.createChecked('mappings', { type: 'mapping', attributes: mappingAttributes('not-landed') }, { name: 'not-landed' });
    expect(calls()).toEqual(['POST /configuration/mappings 503', 'GET /configuration/mappings 200', 'POST /configuration/mappings 201']);
    expect((await s.get('mappings', created.id)).attributes.name).toBe('not-landed');
    expect(await s.list('mappings', ['name==not-landed'])).toHaveLength(1);
    await s.terminate();
  });

  it('are found by the check even when the name holds a comma (OR in filter syntax)', async () => {
    const { s } = await loaded(proxy.url);
    await s.create('mappings', { type: 'mapping', attributes: { ...mappingAttributes('comma-a'), name: 'comma-a' } });
    proxy.addRule({ method: 'POST', path: /^\/configuration\/mappings$/, nth: 1, dropResponse: true });
    const created = await s.createChecked('mappings', { type: 'mapping', attributes: { ...mappingAttributes('comma-ab'), name: 'comma-a,b' } }, { name: 'comma-a,b' });
    expect(calls().filter((c) => c.startsWith('POST'))).toEqual(['POST /configuration/mappings 201', 'POST /configuration/mappings 201']);
    expect((await s.get('mappings', created.id)).attributes.name).toBe('comma-a,b');
    await s.terminate();
  });

  it('are sent again after a dropped connection only after the caller-provided check', async () => {
    const { s } = await loaded();
    emulator.faults.add({ method: 'POST', path: '/configuration/back-end-groups', drop: true, nth: 1 });
    let checks = 0;
    const created = await s.createChecked(
      'back-end-groups',
      { type: 'back-end-group', attributes: { name: 'checked-beg' } },
      {
        object: { kind: 'back-end-group', name: 'checked-beg' },
        find: async () => {
          checks++;
          return (await s.list('back-end-groups')).find((b) => b.attributes.name === 'checked-beg');
        },
      },
    );
    expect(checks).toBe(1);
    expect(calls()).toEqual(['POST /configuration/back-end-groups 0', 'GET /configuration/back-end-groups 200', 'POST /configuration/back-end-groups 201']);
    expect((await s.get('back-end-groups', created.id)).attributes.name).toBe('checked-beg');
    await s.terminate();
  });

  it('a plain create is never repeated after a lost response', async () => {
    const { s } = await loaded(proxy.url);
    proxy.addRule({ method: 'POST', path: /^\/configuration\/mappings$/, nth: 2, dropResponse: true });
    await s.create('mappings', { type: 'mapping', attributes: mappingAttributes('first-ok') });
    emulator.requestLog.length = 0;
    const error = await s.create('mappings', { type: 'mapping', attributes: mappingAttributes('lost') }, { kind: 'mapping', name: 'lost' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ phase: 'response', object: { name: 'lost' } });
    expect(calls()).toEqual(['POST /configuration/mappings 201']);
    await s.terminate();
  });

  it('activation is not repeated after a 503', async () => {
    const { s } = await loaded();
    emulator.faults.add({ method: 'POST', path: '/configuration/configurations/activate', status: 503 });
    await expect(s.activate('x')).rejects.toMatchObject({ status: 503, attempts: 1 });
    expect(calls()).toEqual(['POST /configuration/configurations/activate 503']);
    await s.terminate();
  });
});

describe('connection faults', () => {
  it('a refused connection is a ConnectionError of the connect phase, retried within bounds', async () => {
    const closed = await startEmulator({ port: 0, tls: false });
    const url = closed.url;
    await closed.close();
    const clock = recordingClock();
    const s = new GatewaySession({ url, apiKey: 'k-unused', retry: TEST_POLICY, clock });
    const error = await s.open().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ phase: 'connect', causeCode: 'ECONNREFUSED', attempts: TEST_POLICY.maxAttempts });
    expect(clock.waits).toHaveLength(TEST_POLICY.maxAttempts - 1);
    expect((await s.terminate()).terminated).toBe(true);
  });
});
