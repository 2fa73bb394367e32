import { describe, expect, it } from 'vitest';
import { readZip, writeZip } from '../../../src/emulator/zip.js';
import { data, errorCode, list, useEmulator } from './helpers.js';
import type { Client } from './helpers.js';

const suite = useEmulator(() => undefined);
async function started(): Promise<Client> {
  const c = suite.client();
  await c.start();
  return c;
}

describe('zip', () => {
  it('round-trips entries', () => {
    const entries = [
      { name: 'a.json', data: Buffer.from('{"x":1}') },
      { name: 'dir/b.txt', data: Buffer.alloc(5000, 'z') },
    ];
    const back = readZip(writeZip(entries));
    expect(back.map((e) => [e.name, e.data.toString()])).toEqual(entries.map((e) => [e.name, e.data.toString()]));
  });
});

describe('export and import', () => {
  it('exports the loaded configuration as a zip that another session can import', async () => {
    const a = await started();
    await a.call('POST', '/configuration/back-end-groups', { body: { data: { type: 'back-end-group', attributes: { name: 'carried' } } } });
    const exported = await a.call('GET', '/configuration/configurations/export');
    expect(exported.status).toBe(200);
    expect(String(exported.headers['content-type'])).toBe('application/zip');
    expect(exported.bytes.subarray(0, 2).toString('latin1')).toBe('PK');

    const b = suite.client();
    await b.login();
    const imported = await b.call('PUT', '/configuration/configurations/import', { raw: exported.bytes, headers: { 'content-type': 'application/zip' } });
    expect(imported.status).toBe(200);
    const groups = list(await b.call('GET', '/configuration/back-end-groups'));
    expect(groups.map((g) => (g.attributes as { name: string }).name)).toEqual(['carried']);

    const garbage = await b.call('PUT', '/configuration/configurations/import', { raw: Buffer.from('not a zip'), headers: { 'content-type': 'application/zip' } });
    expect([garbage.status, errorCode(garbage)]).toEqual([400, 'INVALID_REQUEST_FORMAT']);
  });

  it('imports mappings by name (PUT replaces) or as copies (POST)', async () => {
    const c = await started();
    const id = data(await c.call('POST', '/configuration/mappings', { body: { data: { type: 'mapping', attributes: { name: 'm1', backendPath: '/one/' } } } })).id as string;
    const exported = await c.call('GET', `/configuration/mappings/${id}/export`);
    expect(exported.status).toBe(200);
    await c.call('PATCH', `/configuration/mappings/${id}`, { body: { data: { type: 'mapping', id, attributes: { backendPath: '/changed/' } } } });

    const replaced = await c.call('PUT', '/configuration/mappings/import', { raw: exported.bytes, headers: { 'content-type': 'application/zip' } });
    expect(replaced.status).toBe(200);
    expect(list(replaced).map((m) => m.id)).toEqual([id]);
    expect((data(await c.call('GET', `/configuration/mappings/${id}`)).attributes as { backendPath: string }).backendPath).toBe('/one/');

    const copied = await c.call('POST', '/configuration/mappings/import', { raw: exported.bytes, headers: { 'content-type': 'application/zip' } });
    expect((list(copied)[0]?.attributes as { name: string }).name).toBe('m1_2');
    expect(list(await c.call('GET', '/configuration/mappings'))).toHaveLength(2);
  });
});
