/**
 * Relationship calls carrying many identifiers at once (docs/gateway-api.md
 * "Relationships": the body is a whole `data[]` array), as gwops sends them when it
 * batches: from either side of a pair, with links that already exist among them, and
 * with an identifier that names nothing (the whole call fails and changes nothing).
 */
import { describe, expect, it } from 'vitest';
import { VALID, errorCode, linkedIds, uniqueName, useAdminSession } from './client.js';
import type { Client } from './client.js';

describe('batched relationship calls', () => {
  let c: Client;
  useAdminSession((_harness, client) => {
    c = client;
  });

  async function mappings(n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push(await c.create('mapping', VALID.mapping(uniqueName('batch'))));
    return ids;
  }

  it('one PATCH on the back-end group side links every mapping, and each mapping shows the link', async () => {
    const group = await c.create('back-end-group', VALID.backEndGroup(uniqueName('beg')));
    const ids = await mappings(5);
    const r = await c.relationship('PATCH', 'back-end-group', group, 'mappings', 'mapping', ids);
    expect(r.status).toBe(204);
    expect(linkedIds(await c.read('back-end-group', group), 'mappings')).toEqual(ids);
    for (const id of ids) expect(linkedIds(await c.read('mapping', id), 'back-end-groups')).toEqual([group]);
  });

  it('one DELETE on the other side (the mapping) removes links that a batch on the group side made', async () => {
    const group = await c.create('back-end-group', VALID.backEndGroup(uniqueName('beg')));
    const other = await c.create('back-end-group', VALID.backEndGroup(uniqueName('beg')));
    const [mapping = ''] = await mappings(1);
    await c.relationship('PATCH', 'back-end-group', group, 'mappings', 'mapping', [mapping]);
    await c.relationship('PATCH', 'back-end-group', other, 'mappings', 'mapping', [mapping]);
    const r = await c.relationship('DELETE', 'mapping', mapping, 'back-end-groups', 'back-end-group', [group, other]);
    expect(r.status).toBe(204);
    expect(linkedIds(await c.read('mapping', mapping), 'back-end-groups')).toEqual([]);
    expect(linkedIds(await c.read('back-end-group', group), 'mappings')).toEqual([]);
  });

  it('links that already exist in a batch are no error and are not doubled', async () => {
    const group = await c.create('back-end-group', VALID.backEndGroup(uniqueName('beg')));
    const [a = '', b = ''] = await mappings(2);
    await c.relationship('PATCH', 'back-end-group', group, 'mappings', 'mapping', [a]);
    const r = await c.relationship('PATCH', 'back-end-group', group, 'mappings', 'mapping', [a, b, a]);
    expect(r.status).toBe(204);
    expect(linkedIds(await c.read('back-end-group', group), 'mappings')).toEqual([a, b]);
    expect(linkedIds(await c.read('mapping', a), 'back-end-groups')).toEqual([group]);
  });

  it('a batch with one unknown identifier fails as a whole, naming it, and links nothing', async () => {
    const group = await c.create('back-end-group', VALID.backEndGroup(uniqueName('beg')));
    const ids = await mappings(3);
    const r = await c.relationship('PATCH', 'back-end-group', group, 'mappings', 'mapping', [...ids.slice(0, 2), '987654', ...ids.slice(2)]);
    expect(r.status).toBe(404);
    expect(errorCode(r)).toBe('ENTITY_NOT_FOUND');
    expect(r.text).toContain('987654');
    expect(linkedIds(await c.read('back-end-group', group), 'mappings')).toEqual([]);
    for (const id of ids) expect(linkedIds(await c.read('mapping', id), 'back-end-groups')).toEqual([]);
  });

  it('an unlink batch with one unknown identifier fails as a whole and removes nothing', async () => {
    const group = await c.create('back-end-group', VALID.backEndGroup(uniqueName('beg')));
    const ids = await mappings(2);
    await c.relationship('PATCH', 'back-end-group', group, 'mappings', 'mapping', ids);
    const r = await c.relationship('DELETE', 'back-end-group', group, 'mappings', 'mapping', [...ids, '987655']);
    expect(r.status).toBe(404);
    expect(r.text).toContain('987655');
    expect(linkedIds(await c.read('back-end-group', group), 'mappings')).toEqual(ids);
  });
});
