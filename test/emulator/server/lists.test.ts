/**
 * Lists are written piece by piece (chunked), never as one string, and answer exactly what
 * a whole-document answer did: every object in id order, filters by name through the name
 * index, validator messages likewise.
 */
import { describe, expect, it } from 'vitest';
import { jsonText } from '../../../src/emulator/json-text.js';
import type { Client} from './helpers.js';
import { data, list, useEmulator } from './helpers.js';

const suite = useEmulator(() => undefined);
const COUNT = 150;

async function withMappings(): Promise<{ c: Client; ids: string[] }> {
  const c = suite.client();
  await c.start();
  const ids: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const created = await c.call('POST', '/configuration/mappings', {
      body: { data: { type: 'mapping', attributes: { name: `m-${i}`, labels: [i % 10 === 0 ? 'ten' : 'other'], entryPath: { value: `/m${i}/` } } } },
    });
    expect(created.status).toBe(201);
    ids.push(String(data(created).id));
  }
  return { c, ids };
}

describe('lists', () => {
  it('write a list of mappings in chunks (no Content-Length), each object as a single GET answers it, in id order', async () => {
    const { c, ids } = await withMappings();
    const all = await c.call('GET', '/configuration/mappings');
    expect(all.status).toBe(200);
    expect(all.headers['transfer-encoding']).toBe('chunked');
    expect(all.headers['content-length']).toBeUndefined();
    expect(all.headers['content-type']).toBe('application/json');
    const objects = list(all);
    expect(objects.map((o) => o.id)).toEqual(ids);
    // byte for byte what the single GET answers for the same object
    const one = await c.call('GET', `/configuration/mappings/${ids[7]}`);
    const single = (JSON.parse(one.text) as { data: unknown }).data;
    expect(jsonText(objects[7])).toBe(JSON.stringify(single));
    expect(Object.keys((objects[7]?.attributes ?? {}))).toEqual(Object.keys((single as { attributes: object }).attributes));
  });

  it('filter by name through the name index, also after a rename and a delete, and combined with other filters', async () => {
    const { c, ids } = await withMappings();
    const named = async (query: string): Promise<string[]> => list(await c.call('GET', `/configuration/mappings?${query}`)).map((o) => String((o.attributes as { name: string }).name));
    expect(await named('filter=name==m-5')).toEqual(['m-5']);
    expect(await named('filter=name==m-5,m-70,nothing')).toEqual(['m-5', 'm-70']);
    expect(await named('filter=name==m-5,m-70,m-30&filter=label==ten')).toEqual(['m-30', 'm-70']);
    expect(await named('filter=name=@m-14')).toEqual(['m-14', 'm-140', 'm-141', 'm-142', 'm-143', 'm-144', 'm-145', 'm-146', 'm-147', 'm-148', 'm-149']);
    expect((await c.call('PATCH', `/configuration/mappings/${ids[5]}`, { body: { data: { type: 'mapping', attributes: { name: 'renamed' } } } })).status).toBe(200);
    expect(await named('filter=name==m-5')).toEqual([]);
    expect(await named('filter=name==renamed')).toEqual(['renamed']);
    expect((await c.call('DELETE', `/configuration/mappings/${ids[5]}`)).status).toBe(204);
    expect(await named('filter=name==renamed')).toEqual([]);
    // the name is free again
    const again = await c.call('POST', '/configuration/mappings', { body: { data: { type: 'mapping', attributes: { name: 'renamed' } } } });
    expect(again.status).toBe(201);
    const taken = await c.call('POST', '/configuration/mappings', { body: { data: { type: 'mapping', attributes: { name: 'm-6' } } } });
    expect(taken.status).toBe(400);
    expect(taken.text).toContain(`(id ${ids[6]})`);
  });

  it('write validator messages in chunks too', async () => {
    const { c } = await withMappings();
    const messages = await c.call('GET', '/configuration/validator-messages');
    expect(messages.headers['transfer-encoding']).toBe('chunked');
    // unlinked mappings: no back-end group and no virtual host, each
    expect(list(messages).filter((m) => (m.meta as { type: string }).type === 'mapping')).toHaveLength(2 * COUNT);
  });
});
