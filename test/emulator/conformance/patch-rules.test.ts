/**
 * PATCH rules: docs/gateway-api.md "Rules for PATCH" (one test per rule: deep merge of nested
 * objects, lists replaced whole, a missing data.id tolerated).
 */
import {describe, expect, it } from 'vitest';
import {at, errorCode, one, uniqueName, VALID, useAdminSession } from './client.js';
import type { Client } from './client.js';

describe('rules for PATCH', () => {
  let c: Client;
  useAdminSession((_harness, client) => {
    c = client;
  });

  const newMapping = (attributes: Record<string, unknown> = {}) =>
    c.create('mapping', { ...VALID.mapping(uniqueName('patch')), ...attributes });

  const patchRaw = (id: string, body: unknown) => c.call('PATCH', `/configuration/mappings/${id}`, { json: body });

  describe('rule 1: data.type, data.id and at least one attribute are required', () => {
    it('a missing data.type answers 400 INVALID_REQUEST_FORMAT and changes nothing', async () => {
      const id = await newMapping({ backendPath: '/before/' });
      const reply = await patchRaw(id, { data: { id, attributes: { backendPath: '/after/' } } });
      expect(reply.status).toBe(400);
      expect(errorCode(reply)).toBe('INVALID_REQUEST_FORMAT');
      expect((await c.read('mapping', id)).attributes.backendPath).toBe('/before/');
    });

    it('a wrong data.type answers 400 INVALID_REQUEST_FORMAT and changes nothing', async () => {
      const id = await newMapping({ backendPath: '/before/' });
      const reply = await patchRaw(id, { data: { type: 'virtual-host', id, attributes: { backendPath: '/after/' } } });
      expect(reply.status).toBe(400);
      expect(errorCode(reply)).toBe('INVALID_REQUEST_FORMAT');
      expect((await c.read('mapping', id)).attributes.backendPath).toBe('/before/');
    });

    it('empty attributes answer 400 INVALID_VALUE', async () => {
      const id = await newMapping();
      const reply = await patchRaw(id, { data: { type: 'mapping', id, attributes: {} } });
      expect(reply.status).toBe(400);
      expect(errorCode(reply)).toBe('INVALID_VALUE');
    });

    it('missing attributes answer 400', async () => {
      const id = await newMapping();
      const reply = await patchRaw(id, { data: { type: 'mapping', id } });
      expect(reply.status).toBe(400);
      expect(['INVALID_VALUE', 'INVALID_REQUEST_FORMAT']).toContain(errorCode(reply));
    });

    it('a body without data answers 400', async () => {
      const id = await newMapping();
      const reply = await patchRaw(id, { type: 'mapping', id, attributes: { backendPath: '/x/' } });
      expect(reply.status).toBe(400);
    });

    it('a missing data.id is tolerated (some clients omit it): 200 and the change applies', async () => {
      const id = await newMapping();
      const reply = await patchRaw(id, { data: { type: 'mapping', attributes: { backendPath: '/no-id/' } } });
      expect(reply.status).toBe(200);
      expect(one(reply).id).toBe(id);
      expect((await c.read('mapping', id)).attributes.backendPath).toBe('/no-id/');
    });
  });

  describe('rule 2: data.id must equal the id in the path', () => {
    it('a disagreeing id answers 400 INVALID_VALUE and changes neither object', async () => {
      const id = await newMapping({ backendPath: '/one/' });
      const other = await newMapping({ backendPath: '/two/' });
      const reply = await patchRaw(id, { data: { type: 'mapping', id: other, attributes: { backendPath: '/changed/' } } });
      expect(reply.status).toBe(400);
      expect(errorCode(reply)).toBe('INVALID_VALUE');
      expect((await c.read('mapping', id)).attributes.backendPath).toBe('/one/');
      expect((await c.read('mapping', other)).attributes.backendPath).toBe('/two/');
    });

    it('a numeric data.id equal to the path id is the same id', async () => {
      const id = await newMapping();
      const reply = await patchRaw(id, { data: { type: 'mapping', id: Number(id), attributes: { backendPath: '/num/' } } });
      expect(reply.status).toBe(200);
      expect(one(reply).id).toBe(id);
    });
  });

  describe('rule 3: a list attribute is replaced by the complete new list', () => {
    it('labels: the new list replaces the stored one (no append, no merge by index)', async () => {
      const id = await newMapping({ labels: ['a', 'b', 'c'] });
      const reply = await c.patch('mapping', id, { labels: ['z'] });
      expect(reply.status).toBe(200);
      expect(one(reply).attributes.labels).toEqual(['z']);
      expect((await c.read('mapping', id)).attributes.labels).toEqual(['z']);
    });

    it('an empty list clears the stored one', async () => {
      const id = await newMapping({ labels: ['a', 'b'] });
      await c.patch('mapping', id, { labels: [] });
      expect((await c.read('mapping', id)).attributes.labels).toEqual([]);
    });

    it('a list of objects is replaced whole, items are not merged with the old items', async () => {
      const id = await newMapping({
        allowRules: [
          { name: 'first', enabled: true, logOnly: true },
          { name: 'second', enabled: false },
        ],
      });
      await c.patch('mapping', id, { allowRules: [{ name: 'only', enabled: true }] });
      const rules = (await c.read('mapping', id)).attributes.allowRules;
      expect(Array.isArray(rules)).toBe(true);
      expect(rules).toHaveLength(1);
      expect(at((rules as unknown[])[0], 'name')).toBe('only');
      // the old first item's logOnly: true did not leak into the new item
      expect(at((rules as unknown[])[0], 'logOnly')).not.toBe(true);
    });

    it('back-end hosts are replaced whole and the new items get their defaults', async () => {
      const id = await c.create('back-end-group', {
        name: uniqueName('hosts'),
        backendHosts: [
          { protocol: 'HTTP', hostName: 'a', port: 80, weight: 5 },
          { protocol: 'HTTP', hostName: 'b', port: 80 },
        ],
      });
      const reply = await c.patch('back-end-group', id, { backendHosts: [{ protocol: 'HTTPS', hostName: 'c', port: 443 }] });
      expect(reply.status).toBe(200);
      const hosts = (await c.read('back-end-group', id)).attributes.backendHosts;
      expect(hosts).toEqual([{ protocol: 'HTTPS', hostName: 'c', port: 443, mode: 'ENABLED', spare: false, weight: 100 }]);
    });
  });

  describe('rule 4: unspecified attributes keep their value', () => {
    it('top-level attributes not in the PATCH are unchanged', async () => {
      const id = await newMapping({ backendPath: '/keep/', labels: ['keep'], threatHandling: 'NOTIFY' });
      const before = await c.read('mapping', id);
      await c.patch('mapping', id, { operationalMode: 'INTEGRATION' });
      const after = await c.read('mapping', id);
      expect(after.attributes.operationalMode).toBe('INTEGRATION');
      expect({ ...after.attributes, operationalMode: before.attributes.operationalMode }).toEqual(before.attributes);
    });

    it('relationships are unchanged by an attribute PATCH', async () => {
      const id = await newMapping();
      const group = await c.create('back-end-group', VALID.backEndGroup(uniqueName('rel')));
      expect((await c.relationship('PATCH', 'mapping', id, 'back-end-groups', 'back-end-group', [group])).status).toBe(204);
      const reply = await c.patch('mapping', id, { backendPath: '/x/' });
      expect(one(reply).relationships?.['back-end-groups']?.data).toEqual([{ type: 'back-end-group', id: group }]);
    });
  });

  describe('nested objects merge deeply (docs/gateway-api.md "Rules for PATCH")', () => {
    it('a PATCH of ipRules.ipAddressBlacklists.logOnly keeps every sibling', async () => {
      const id = await newMapping();
      const before = await c.read('mapping', id);
      const reply = await c.patch('mapping', id, { ipRules: { ipAddressBlacklists: { logOnly: true } } });
      expect(reply.status).toBe(200);
      const after = await c.read('mapping', id);
      expect(at(after.attributes, 'ipRules.ipAddressBlacklists.logOnly')).toBe(true);
      const expected = structuredClone(before.attributes) as { ipRules: { ipAddressBlacklists: { logOnly: boolean } } };
      expected.ipRules.ipAddressBlacklists.logOnly = true;
      expect(after.attributes).toEqual(expected);
    });

    it('a PATCH deep inside the virtual host keeps the other network settings', async () => {
      const id = await c.create('virtual-host', VALID.virtualHost(uniqueName('deep')));
      const before = await c.read('virtual-host', id);
      await c.patch('virtual-host', id, { networkInterface: { http: { port: 8081 } } });
      const after = await c.read('virtual-host', id);
      expect(at(after.attributes, 'networkInterface.http.port')).toBe(8081);
      expect(at(after.attributes, 'networkInterface.http.enabled')).toBe(at(before.attributes, 'networkInterface.http.enabled'));
      expect(at(after.attributes, 'networkInterface.https')).toEqual(at(before.attributes, 'networkInterface.https'));
      expect(at(after.attributes, 'tls')).toEqual(at(before.attributes, 'tls'));
    });

    it('an object returned by GET can be sent back as a PATCH template unchanged', async () => {
      const id = await newMapping({ labels: ['t'] });
      const read = await c.read('mapping', id);
      const reply = await c.patch('mapping', id, read.attributes);
      expect(reply.status).toBe(200);
      expect((await c.read('mapping', id)).attributes).toEqual(read.attributes);
    });
  });

  describe('attribute checks on PATCH', () => {
    it('an unknown attribute answers 400 INVALID_VALUE and changes nothing', async () => {
      const id = await newMapping({ backendPath: '/b/' });
      const reply = await c.patch('mapping', id, { backendPath: '/c/', noSuchAttribute: true });
      expect(reply.status).toBe(400);
      expect(errorCode(reply)).toBe('INVALID_VALUE');
      expect((await c.read('mapping', id)).attributes.backendPath).toBe('/b/');
    });

    it('an unknown nested attribute answers 400 INVALID_VALUE', async () => {
      const id = await newMapping();
      const reply = await c.patch('mapping', id, { entryPath: { valu: '/typo/' } });
      expect(reply.status).toBe(400);
      expect(errorCode(reply)).toBe('INVALID_VALUE');
    });

    it('a wrong type answers 400 INVALID_VALUE', async () => {
      const id = await c.create('virtual-host', VALID.virtualHost(uniqueName('type')));
      const reply = await c.patch('virtual-host', id, { keepAliveTimeout: 'ten' });
      expect(reply.status).toBe(400);
      expect(errorCode(reply)).toBe('INVALID_VALUE');
    });

    it('a fraction where an integer is expected answers 400 INVALID_VALUE', async () => {
      const id = await newMapping();
      const reply = await c.patch('mapping', id, { entryPath: { priority: 1.5 } });
      expect(reply.status).toBe(400);
      expect(errorCode(reply)).toBe('INVALID_VALUE');
      expect(at((await c.read('mapping', id)).attributes, 'entryPath.priority')).toBe(0);
    });

    it('a value outside an enum answers 400 INVALID_VALUE', async () => {
      const id = await newMapping();
      const reply = await c.patch('mapping', id, { threatHandling: 'IGNORE' });
      expect(reply.status).toBe(400);
      expect(errorCode(reply)).toBe('INVALID_VALUE');
    });

    it('a list where an object is expected (and the reverse) answers 400 INVALID_VALUE', async () => {
      const id = await newMapping();
      expect(errorCode(await c.patch('mapping', id, { labels: 'one' }))).toBe('INVALID_VALUE');
      expect(errorCode(await c.patch('mapping', id, { entryPath: ['/x/'] }))).toBe('INVALID_VALUE');
    });
  });
});
