import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { ApiError, OutdatedConfigurationError, SessionError } from '../../src/gateway/errors.js';
import { GatewaySession } from '../../src/gateway/session.js';
import type { ApiResource } from '../../src/api/documents.js';
import { withSession } from '../../src/gateway/lifecycle.js';
import type { FaultProxy } from './fault-proxy.js';
import { TEST_POLICY, mappingAttributes, recordingClock, useEmulatorAndProxy } from './helpers.js';

let emulator: RunningEmulator;
let proxy: FaultProxy;

useEmulatorAndProxy((e, p) => {
  emulator = e;
  proxy = p;
});

function session(url = emulator.url, apiKey = emulator.apiKey): GatewaySession {
  return new GatewaySession({ url, apiKey, retry: TEST_POLICY, clock: recordingClock() });
}

describe('session lifecycle', () => {
  it('creates with the Bearer key once, then uses only the cookie, and terminates', async () => {
    const s = session(proxy.url);
    proxy.seen.length = 0;
    await s.open();
    await s.loadActive();
    const created = await s.create('mappings', { type: 'mapping', attributes: mappingAttributes('life-a') }, { kind: 'mapping', name: 'life-a' });
    expect(created.type).toBe('mapping');
    expect(created.attributes.name).toBe('life-a');
    expect((await s.get('mappings', created.id)).attributes.name).toBe('life-a');
    const result = await s.terminate();
    expect(result.terminated).toBe(true);
    expect(s.isOpen).toBe(false);
    expect(emulator.openSessionCount()).toBe(0);
    expect(proxy.seen.map((r) => [r.method, r.path, r.authorization, r.cookie])).toEqual([
      ['POST', '/session/create', true, false],
      ['POST', '/configuration/configurations/load-active', false, true],
      ['POST', '/configuration/mappings', false, true],
      ['GET', `/configuration/mappings/${created.id}`, false, true],
      ['POST', '/session/terminate', false, true],
    ]);
    expect(proxy.seen.every((r) => r.accept === 'application/json')).toBe(true);
    expect(s.requestCounts()).toEqual({ POST: 4, GET: 1 });
    await expect(s.list('mappings')).rejects.toMatchObject({ reason: 'not-open' });
    expect((await s.terminate()).terminated).toBe(true);
  });

  it('lists with several URL-encoded filters combined with AND, in one GET', async () => {
    await withSession({ url: emulator.url, apiKey: emulator.apiKey, retry: TEST_POLICY }, async (s) => {
      await s.loadActive();
      for (const name of ['shop-a&b', 'shop-c', 'other-d']) {
        await s.create('mappings', { type: 'mapping', attributes: { ...mappingAttributes(name.replace('&', '')), name, labels: name === 'shop-c' ? ['team-x'] : [] } });
      }
      emulator.requestLog.length = 0;
      expect((await s.list('mappings', ['name==shop-a&b'])).map((m) => m.attributes.name)).toEqual(['shop-a&b']);
      expect((await s.list('mappings', ['name=@shop-', 'label==team-x'])).map((m) => m.attributes.name)).toEqual(['shop-c']);
      expect(emulator.requestLog.map((e) => e.method)).toEqual(['GET', 'GET']);
      expect(emulator.requestLog[0]?.query).toBe('filter=name%3D%3Dshop-a%26b');
    });
    expect(emulator.openSessionCount()).toBe(0);
  });

  it('updates with id, links and unlinks both ways, removes, and reads validator messages', async () => {
    await withSession({ url: emulator.url, apiKey: emulator.apiKey, retry: TEST_POLICY }, async (s) => {
      await s.loadActive();
      const m = await s.create('mappings', { type: 'mapping', attributes: mappingAttributes('link-m') });
      const vh = await s.create('virtual-hosts', { type: 'virtual-host', attributes: { name: 'link-vh', hostName: 'shop.example.com' } });
      const updated = await s.update('mappings', m.id, { type: 'mapping', attributes: { backendPath: '/shop/' } });
      expect(updated?.attributes.backendPath).toBe('/shop/');
      expect(updated?.attributes.name).toBe('link-m');
      await s.link('virtual-hosts', vh.id, 'mappings', [{ type: 'mapping', id: m.id }]);
      const linked = await s.get('mappings', m.id);
      expect(linked.relationships['virtual-hosts']?.data).toEqual([{ type: 'virtual-host', id: vh.id }]);
      await s.unlink('virtual-hosts', vh.id, 'mappings', [{ type: 'mapping', id: m.id }]);
      expect((await s.get('mappings', m.id)).relationships['virtual-hosts']?.data).toEqual([]);
      const errors = await s.validatorMessages(['meta.severity==ERROR']);
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.every((msg) => msg.severity === 'ERROR' && msg.detail !== '')).toBe(true);
      expect(errors.find((msg) => msg.model?.type === 'mapping' && msg.model.id === m.id)?.code).toBe('MAPPING_WITHOUT_BACKEND_GROUP');
      await s.remove('mappings', m.id);
      await expect(s.get('mappings', m.id, { kind: 'mapping', name: 'link-m' })).rejects.toMatchObject({ status: 404, code: 'ENTITY_NOT_FOUND' });
    });
  });
});

describe('errors', () => {
  it('carry the call, status, code, detail and object name', async () => {
    const error = await withSession({ url: emulator.url, apiKey: emulator.apiKey, retry: TEST_POLICY }, async (s) => {
      await s.loadActive();
      const m = await s.create('mappings', { type: 'mapping', attributes: mappingAttributes('err-m') });
      return s.update('mappings', m.id, { type: 'mapping', attributes: {} }, { kind: 'mapping', name: 'err-m' }).then(
        () => undefined,
        (e: unknown) => ({ e, id: m.id }),
      );
    });
    expect(error?.e).toBeInstanceOf(ApiError);
    const e = error?.e as ApiError;
    expect(e).toMatchObject({ method: 'PATCH', path: `/configuration/mappings/${error?.id}`, status: 400, code: 'INVALID_VALUE', object: { kind: 'mapping', name: 'err-m' } });
    expect(e.message).toMatch(new RegExp(`^PATCH /configuration/mappings/${error?.id} \\(mapping 'err-m'\\) failed: 400 INVALID_VALUE: .+`));
    expect(e.exitCode).toBe(1);
  });

  it('terminate the session after an error and let the error through', async () => {
    const run = withSession({ url: emulator.url, apiKey: emulator.apiKey, retry: TEST_POLICY }, async (s) => {
      await s.list('mappings');
    });
    await expect(run).rejects.toMatchObject({ status: 400, code: 'CONFIGURATION_LOAD_REQUIRED' });
    expect(emulator.openSessionCount()).toBe(0);
    expect(emulator.requestLog.at(-1)).toMatchObject({ method: 'POST', path: '/session/terminate', status: 200 });
  });

  it('a rejected API key is a SessionError, and the key is in no message', async () => {
    const bad = 'eyJhbGciOi.bad-key-value.zzz';
    const error = await session(emulator.url, bad).open().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionError);
    expect((error as SessionError).reason).toBe('key-rejected');
    expect((error as Error).message).not.toContain(bad);
  });

  it('an expired session is a SessionError, not retried', async () => {
    const s = session();
    await s.open();
    emulator.expireSessions();
    emulator.requestLog.length = 0;
    await expect(s.loadActive()).rejects.toMatchObject({ reason: 'expired', status: 401 });
    expect(emulator.requestLog).toHaveLength(1);
    expect((await s.terminate()).terminated).toBe(true);
  });
});

describe('activation', () => {
  it('OUTDATED_CONFIGURATION becomes the typed error, without ignoreOutdatedConfiguration', async () => {
    const first = session();
    const second = session();
    await first.open();
    await second.open();
    await first.loadActive();
    await second.loadActive();
    const hosts = [{ protocol: 'HTTP', hostName: 'app.internal', port: 8080 }];
    await first.create('back-end-groups', { type: 'back-end-group', attributes: { name: 'race-1', backendHosts: hosts } });
    await second.create('back-end-groups', { type: 'back-end-group', attributes: { name: 'race-2', backendHosts: hosts } });
    await first.activate('first wins');
    const before = JSON.stringify(emulator.activeSnapshot());
    const error = await second.activate('second loses').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutdatedConfigurationError);
    expect(error).toMatchObject({ status: 409, code: 'OUTDATED_CONFIGURATION' });
    expect((error as Error).message).toContain('Re-run plan');
    expect(JSON.stringify(emulator.activeSnapshot())).toBe(before);
    await first.terminate();
    await second.terminate();
    expect(emulator.openSessionCount()).toBe(0);
  });
});

describe('projected lists', () => {
  it('give the same resources whether the body is parsed whole or framed element by element', async () => {
    const s = session();
    await s.open();
    try {
      await s.loadActive();
      for (let i = 0; i < 12; i++) await s.create('mappings', { type: 'mapping', attributes: { name: `proj-${i}`, labels: ['p', `n${i}`] } });
      const project = (r: ApiResource): ApiResource => ({
        ...r,
        attributes: { name: r.attributes.name, labels: r.attributes.labels },
      });
      const whole = await s.list('mappings', ['label==p'], { project });
      const framed = await s.list('mappings', ['label==p'], { project, streamAboveBytes: 0 });
      const unprojected = await s.list('mappings', ['label==p']);
      expect(whole).toHaveLength(12);
      expect(framed).toEqual(whole);
      expect(whole).toEqual(unprojected.map(project));
      expect(Object.keys(framed[0]?.attributes ?? {})).toEqual(['name', 'labels']);
    } finally {
      await s.terminate();
    }
  });
});
