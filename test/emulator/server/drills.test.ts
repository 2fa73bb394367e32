import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/emulator/index.js';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { SessionStore, sessionIdsFromCookies } from '../../../src/emulator/sessions.js';
import { ConfigError } from '../../../src/core/errors.js';
import { Client, data, errorCode, list } from './helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function emulatorWith(options: Parameters<typeof startEmulator>[0]): Promise<RunningEmulator> {
  const e = await startEmulator({ port: 0, tls: false, ...options });
  cleanups.push(() => e.close());
  return e;
}

function clientOf(e: RunningEmulator, key?: string): Client {
  const c = new Client(e, key);
  cleanups.push(() => c.close());
  return c;
}

describe('TLS', () => {
  it('serves HTTPS with a self-signed certificate a client can pin, and marks the cookie Secure', async () => {
    const e = await emulatorWith({ tls: true });
    expect(e.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/airlock\/rest$/);
    expect(e.caCertificate).toContain('BEGIN CERTIFICATE');
    const c = clientOf(e);
    const answer = await c.login();
    expect(answer.status).toBe(200);
    expect(String(answer.headers['set-cookie'])).toContain('Secure');
  });
});

describe('persistence', () => {
  it('keeps activated configurations across a restart with the same state file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gwops-emu-state-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const stateFile = join(dir, 'state.json');
    const first = await startEmulator({ port: 0, tls: false, stateFile, apiKey: 'k1' });
    const a = new Client(first);
    await a.start();
    await a.call('POST', '/configuration/back-end-groups', {
      body: { data: { type: 'back-end-group', attributes: { name: 'kept', backendHosts: [{ protocol: 'HTTP', hostName: 'h', port: 80 }] } } },
    });
    expect((await a.call('POST', '/configuration/configurations/activate', { body: { comment: 'persist me' } })).status).toBe(200);
    await a.close();
    await first.close();
    expect(JSON.parse(await readFile(stateFile, 'utf8'))).toMatchObject({ formatVersion: 2 });
    // Written atomically: no temp file left behind, and private to the user (it may hold private keys).
    expect(await readdir(dir)).toEqual(['state.json']);
    expect((await stat(stateFile)).mode & 0o777).toBe(0o600);

    const second = await emulatorWith({ stateFile, apiKey: 'k1' });
    const b = clientOf(second);
    await b.start();
    const groups = list(await b.call('GET', '/configuration/back-end-groups'));
    expect(groups.map((g) => (g.attributes as { name: string }).name)).toEqual(['kept']);
    const configs = list(await b.call('GET', '/configuration/configurations'));
    expect(configs[0]?.attributes).toMatchObject({ configType: 'CURRENTLY_ACTIVE', comment: 'persist me' });
    // A state file of another variant is refused rather than served with foreign attributes.
    await expect(startEmulator({ port: 0, tls: false, stateFile, variant: 'earliest' })).rejects.toBeInstanceOf(ConfigError);
    // Ids keep counting after a restart.
    const created = await b.call('POST', '/configuration/mappings', { body: { data: { type: 'mapping', attributes: { name: 'new' } } } });
    expect(Number(data(created).id)).toBeGreaterThan(Number(groups[0]?.id));
  });
});

describe('faults', () => {
  it('answers an injected status for the Nth matching call only', async () => {
    const e = await emulatorWith({ faults: [{ method: 'GET', path: '/configuration/mappings*', status: 503, nth: 2 }] });
    const c = clientOf(e);
    await c.start();
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await c.call('GET', '/configuration/mappings')).status);
    expect(statuses).toEqual([200, 503, 200]);
  });

  it('drops connections, and expires every session on demand', async () => {
    const e = await emulatorWith({});
    const c = clientOf(e);
    await c.start();
    e.faults.add({ path: '/configuration/virtual-hosts', drop: true, nth: 1 });
    await expect(c.call('GET', '/configuration/virtual-hosts')).rejects.toThrow();
    expect(e.requestLog.at(-1)).toMatchObject({ path: '/configuration/virtual-hosts', status: 0 });
    expect((await c.call('GET', '/configuration/virtual-hosts')).status).toBe(200);

    e.faults.add({ path: '/configuration/back-end-groups', expireSessions: true });
    const expired = await c.call('GET', '/configuration/back-end-groups');
    expect(expired.status).toBe(401);
    expect(e.openSessionCount()).toBe(0);
  });

  it('applies a fraction deterministically for a given seed', async () => {
    const run = async (): Promise<number[]> => {
      const e = await emulatorWith({ faults: [{ path: '/system/status/node', status: 500, fraction: 0.5 }], faultSeed: 7 });
      const c = clientOf(e);
      await c.login();
      const out = [];
      for (let i = 0; i < 12; i++) out.push((await c.call('GET', '/system/status/node')).status);
      return out;
    };
    const first = await run();
    expect(first).toContain(500);
    expect(first).toContain(200);
    expect(await run()).toEqual(first);
  });
});

describe('sessions', () => {
  it('idles out after the timeout (injected clock)', () => {
    let now = 0;
    const store = new SessionStore(1000, () => now);
    const s = store.create({ user: 'admin', role: 'administrator' });
    now = 900;
    expect(store.touch(s.id)).toBe(s);
    now = 1800;
    expect(store.touch(s.id)).toBe(s);
    now = 2801;
    expect(store.touch(s.id)).toBeUndefined();
  });

  it('parses cookies tolerantly', () => {
    expect(sessionIdsFromCookies('a=1; JSESSIONID=ABC; b=2')).toEqual(['ABC']);
    expect(sessionIdsFromCookies('JSESSIONID="Q1"; Path=/; Secure; HttpOnly')).toEqual(['Q1']);
    expect(sessionIdsFromCookies(['x=y', 'jsessionid=Z'])).toEqual(['Z']);
    expect(sessionIdsFromCookies(undefined)).toEqual([]);
  });
});

describe('templates', () => {
  it('lists New_Mapping, creates from it, links a source mapping and pulls from it', async () => {
    const e = await emulatorWith({});
    const c = clientOf(e);
    await c.start();
    const templates = list(await c.call('GET', '/configuration/templates/mappings'));
    const newMapping = templates.find((t) => (t.attributes as { name: string }).name === 'New_Mapping');
    expect(Number(newMapping?.id)).toBeLessThan(0);
    const created = await c.call('POST', '/configuration/mappings/create-from-template', {
      body: { data: { type: 'create-mapping-from-template', attributes: { id: Number(newMapping?.id) } } },
    });
    expect(created.status).toBe(201);
    const derived = data(created).id as string;

    const source = data(await c.call('POST', '/configuration/mappings', { body: { data: { type: 'mapping', attributes: { name: 'src', backendPath: '/src/' } } } })).id as string;
    expect((await c.call('PATCH', `/configuration/mappings/${derived}/relationships/template`, { body: { data: { type: 'mapping', id: source } } })).status).toBe(204);
    const pulled = await c.call('POST', `/configuration/mappings/${derived}/pull-from-source-mapping`);
    expect(pulled.status).toBe(200);
    expect(data(pulled).id).toBe(derived);
    const after = data(await c.call('GET', `/configuration/mappings/${derived}`)).attributes as Record<string, unknown>;
    expect(after).toMatchObject({ name: 'New_Mapping', mappingTemplateName: 'src', backendPath: '/src/' });

    const modify = await c.call('DELETE', `/configuration/templates/mappings/${String(newMapping?.id)}`);
    expect([modify.status, errorCode(modify)]).toEqual([409, 'DEFAULT_ENTITY_MODIFICATION']);
  });
});
