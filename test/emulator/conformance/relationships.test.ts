/**
 * Relationship endpoints: docs/gateway-api.md "Relationships" (one test per row of its table)
 * and the maintenance endpoints ("Resource types").
 */
import { describe, expect, it } from 'vitest';
import { COLLECTION, exampleObject, linkedIds, startHarness, uniqueName, VALID, useAdminSession } from './client.js';
import type { Client, Type } from './client.js';

interface Row {
  from: Type;
  name: string;
  to: Type;
  inverse: string;
  cardinality: 'one' | 'many';
  /** The key under which `from` shows the link, when it is not the endpoint's `name` (an IP address list's roles). */
  key?: string;
}

/** The relationship table of docs/gateway-api.md "Relationships", with the inverse name each target shows. */
const rows: Row[] = [
  { from: 'virtual-host', name: 'mappings', to: 'mapping', inverse: 'virtual-hosts', cardinality: 'many' },
  { from: 'virtual-host', name: 'ssl-certificate', to: 'ssl-certificate', inverse: 'virtual-hosts', cardinality: 'one' },
  { from: 'virtual-host', name: 'acme-service', to: 'acme-service', inverse: 'virtual-hosts', cardinality: 'one' },
  { from: 'mapping', name: 'back-end-groups', to: 'back-end-group', inverse: 'mappings', cardinality: 'many' },
  { from: 'mapping', name: 'virtual-hosts', to: 'virtual-host', inverse: 'mappings', cardinality: 'many' },
  { from: 'back-end-group', name: 'mappings', to: 'mapping', inverse: 'back-end-groups', cardinality: 'many' },
  { from: 'ssl-certificate', name: 'virtual-hosts', to: 'virtual-host', inverse: 'ssl-certificate', cardinality: 'many' },
  { from: 'mapping', name: 'ip-address-whitelists', to: 'ip-address-list', inverse: 'ip-address-whitelists', cardinality: 'many' },
  { from: 'mapping', name: 'ip-address-blacklists', to: 'ip-address-list', inverse: 'ip-address-blacklists', cardinality: 'many' },
  { from: 'ip-address-list', name: 'mappings-whitelist', key: 'ip-address-whitelists', to: 'mapping', inverse: 'ip-address-whitelists', cardinality: 'many' },
  { from: 'ip-address-list', name: 'mappings-blacklist', key: 'ip-address-blacklists', to: 'mapping', inverse: 'ip-address-blacklists', cardinality: 'many' },
  {
    from: 'ip-address-list',
    name: 'mappings-blacklist-exception',
    key: 'ip-address-blacklist-exceptions',
    to: 'mapping',
    inverse: 'ip-address-blacklist-exceptions',
    cardinality: 'many',
  },
  {
    from: 'ip-address-list',
    name: 'mappings-request-frequency-filter-whitelist',
    to: 'mapping',
    inverse: 'bot-management-source-ip-address-whitelist',
    cardinality: 'many',
  },
  { from: 'mapping', name: 'api-policy-service', to: 'api-policy-service', inverse: 'mappings', cardinality: 'one' },
  { from: 'mapping', name: 'local-json-web-key-sets', to: 'local-json-web-key-set', inverse: 'mappings', cardinality: 'many' },
  { from: 'mapping', name: 'remote-json-web-key-sets', to: 'remote-json-web-key-set', inverse: 'mappings', cardinality: 'many' },
  { from: 'remote-json-web-key-set', name: 'client-certificate', to: 'ssl-certificate', inverse: 'remote-json-web-key-sets', cardinality: 'one' },
  { from: 'back-end-group', name: 'kerberos-environment', to: 'kerberos-environment', inverse: 'back-end-groups', cardinality: 'one' },
  { from: 'kerberos-environment', name: 'back-end-groups', to: 'back-end-group', inverse: 'kerberos-environment', cardinality: 'many' },
];

/** The attributes of a new example object of `type`. */
async function attributesFor(type: Type): Promise<Record<string, unknown>> {
  return (await exampleObject(type)).attributes;
}

describe('relationship endpoints (latest variant)', () => {
  let c: Client;
  useAdminSession((_harness, client) => {
    c = client;
  });

  describe.each(rows)('$from /relationships/$name', ({ from, name, to, inverse, cardinality, key }) => {
    const shown = key ?? name;
    const body = (id: string) => (cardinality === 'one' ? id : [id]);

    it(`PATCH links (204) and both sides show the link; DELETE with a body unlinks (204) on both sides`, async () => {
      const fromId = await c.create(from, await attributesFor(from));
      const toId = await c.create(to, await attributesFor(to));

      const linked = await c.relationship('PATCH', from, fromId, name, to, body(toId));
      expect(linked.status).toBe(204);
      expect(linked.text).toBe('');
      const fromObj = await c.read(from, fromId);
      const toObj = await c.read(to, toId);
      expect(linkedIds(fromObj, shown)).toEqual([toId]);
      expect(linkedIds(toObj, inverse)).toEqual([fromId]);
      const data = fromObj.relationships?.[shown]?.data;
      if (cardinality === 'one') expect(data).toEqual({ type: to, id: toId });
      else expect(data).toEqual([{ type: to, id: toId }]);

      const unlinked = await c.relationship('DELETE', from, fromId, name, to, body(toId));
      expect(unlinked.status).toBe(204);
      expect(linkedIds(await c.read(from, fromId), shown)).toEqual([]);
      expect(linkedIds(await c.read(to, toId), inverse)).toEqual([]);
      // An unset to-one member is left out (docs/gateway-api.md "Relationships").
      if (cardinality === 'one') expect(Object.keys((await c.read(from, fromId)).relationships ?? {})).not.toContain(shown);
    });

    it('a new object shows a to-many relationship as [] and leaves an unset to-one member out', async () => {
      const fromId = await c.create(from, await attributesFor(from));
      const relationships = (await c.read(from, fromId)).relationships ?? {};
      if (cardinality === 'one') expect(Object.keys(relationships)).not.toContain(shown);
      else expect(relationships[shown]?.data).toEqual([]);
    });

    it('deleting the target removes the link from the other side', async () => {
      const fromId = await c.create(from, await attributesFor(from));
      const toId = await c.create(to, await attributesFor(to));
      expect((await c.relationship('PATCH', from, fromId, name, to, body(toId))).status).toBe(204);
      expect((await c.call('DELETE', `/configuration/${COLLECTION[to]}/${toId}`)).status).toBe(204);
      expect(linkedIds(await c.read(from, fromId), shown)).toEqual([]);
    });
  });

  it('PATCH on a to-many relationship adds links, keeping the existing ones', async () => {
    const vhost = await c.create('virtual-host', await attributesFor('virtual-host'));
    const m1 = await c.create('mapping', await attributesFor('mapping'));
    const m2 = await c.create('mapping', await attributesFor('mapping'));
    const m3 = await c.create('mapping', await attributesFor('mapping'));
    expect((await c.relationship('PATCH', 'virtual-host', vhost, 'mappings', 'mapping', [m1])).status).toBe(204);
    expect((await c.relationship('PATCH', 'virtual-host', vhost, 'mappings', 'mapping', [m2, m3])).status).toBe(204);
    expect(linkedIds(await c.read('virtual-host', vhost), 'mappings').sort()).toEqual([m1, m2, m3].sort());
    // DELETE removes only the named ones
    expect((await c.relationship('DELETE', 'virtual-host', vhost, 'mappings', 'mapping', [m2])).status).toBe(204);
    expect(linkedIds(await c.read('virtual-host', vhost), 'mappings').sort()).toEqual([m1, m3].sort());
    expect(linkedIds(await c.read('mapping', m2), 'virtual-hosts')).toEqual([]);
    expect(linkedIds(await c.read('mapping', m1), 'virtual-hosts')).toEqual([vhost]);
  });

  it('linking the same object twice does not duplicate the link', async () => {
    const mapping = await c.create('mapping', await attributesFor('mapping'));
    const group = await c.create('back-end-group', await attributesFor('back-end-group'));
    await c.relationship('PATCH', 'mapping', mapping, 'back-end-groups', 'back-end-group', [group]);
    expect((await c.relationship('PATCH', 'mapping', mapping, 'back-end-groups', 'back-end-group', [group])).status).toBe(204);
    expect(linkedIds(await c.read('mapping', mapping), 'back-end-groups')).toEqual([group]);
    expect(linkedIds(await c.read('back-end-group', group), 'mappings')).toEqual([mapping]);
  });

  it('a link made from one side is the same link as from the other side', async () => {
    const mapping = await c.create('mapping', await attributesFor('mapping'));
    const vhost = await c.create('virtual-host', await attributesFor('virtual-host'));
    expect((await c.relationship('PATCH', 'mapping', mapping, 'virtual-hosts', 'virtual-host', [vhost])).status).toBe(204);
    // removing it from the virtual host's side removes it everywhere
    expect((await c.relationship('DELETE', 'virtual-host', vhost, 'mappings', 'mapping', [mapping])).status).toBe(204);
    expect(linkedIds(await c.read('mapping', mapping), 'virtual-hosts')).toEqual([]);
    expect(linkedIds(await c.read('virtual-host', vhost), 'mappings')).toEqual([]);
  });

  it('linking a to-one relationship replaces the previous link on both sides', async () => {
    const vhost = await c.create('virtual-host', await attributesFor('virtual-host'));
    const cert1 = await c.create('ssl-certificate', await attributesFor('ssl-certificate'));
    const cert2 = await c.create('ssl-certificate', await attributesFor('ssl-certificate'));
    await c.relationship('PATCH', 'virtual-host', vhost, 'ssl-certificate', 'ssl-certificate', cert1);
    expect((await c.relationship('PATCH', 'virtual-host', vhost, 'ssl-certificate', 'ssl-certificate', cert2)).status).toBe(204);
    expect((await c.read('virtual-host', vhost)).relationships?.['ssl-certificate']?.data).toEqual({ type: 'ssl-certificate', id: cert2 });
    expect(linkedIds(await c.read('ssl-certificate', cert1), 'virtual-hosts')).toEqual([]);
    expect(linkedIds(await c.read('ssl-certificate', cert2), 'virtual-hosts')).toEqual([vhost]);
  });

  it('one certificate may serve several virtual hosts', async () => {
    const cert = await c.create('ssl-certificate', await attributesFor('ssl-certificate'));
    const v1 = await c.create('virtual-host', await attributesFor('virtual-host'));
    const v2 = await c.create('virtual-host', await attributesFor('virtual-host'));
    expect((await c.relationship('PATCH', 'ssl-certificate', cert, 'virtual-hosts', 'virtual-host', [v1, v2])).status).toBe(204);
    expect(linkedIds(await c.read('ssl-certificate', cert), 'virtual-hosts').sort()).toEqual([v1, v2].sort());
    expect(linkedIds(await c.read('virtual-host', v1), 'ssl-certificate')).toEqual([cert]);
    expect(linkedIds(await c.read('virtual-host', v2), 'ssl-certificate')).toEqual([cert]);
  });

  it('deleting the source object removes its links from every target', async () => {
    const vhost = await c.create('virtual-host', await attributesFor('virtual-host'));
    const mapping = await c.create('mapping', await attributesFor('mapping'));
    const cert = await c.create('ssl-certificate', await attributesFor('ssl-certificate'));
    await c.relationship('PATCH', 'virtual-host', vhost, 'mappings', 'mapping', [mapping]);
    await c.relationship('PATCH', 'virtual-host', vhost, 'ssl-certificate', 'ssl-certificate', cert);
    expect((await c.call('DELETE', `/configuration/virtual-hosts/${vhost}`)).status).toBe(204);
    expect(linkedIds(await c.read('mapping', mapping), 'virtual-hosts')).toEqual([]);
    expect(linkedIds(await c.read('ssl-certificate', cert), 'virtual-hosts')).toEqual([]);
  });

  it('links are listed in list responses too', async () => {
    const vhost = await c.create('virtual-host', await attributesFor('virtual-host'));
    const mapping = await c.create('mapping', await attributesFor('mapping'));
    await c.relationship('PATCH', 'virtual-host', vhost, 'mappings', 'mapping', [mapping]);
    const listed = (await c.list('mapping')).find((m) => m.id === mapping);
    expect(listed?.relationships?.['virtual-hosts']?.data).toEqual([{ type: 'virtual-host', id: vhost }]);
  });

  it('a body naming the wrong target type answers 400 and links nothing', async () => {
    const vhost = await c.create('virtual-host', await attributesFor('virtual-host'));
    const group = await c.create('back-end-group', await attributesFor('back-end-group'));
    const reply = await c.call('PATCH', `/configuration/virtual-hosts/${vhost}/relationships/mappings`, {
      json: { data: [{ type: 'back-end-group', id: group }] },
    });
    expect(reply.status).toBe(400);
    expect(linkedIds(await c.read('virtual-host', vhost), 'mappings')).toEqual([]);
  });

  it('an unknown relationship name answers 404', async () => {
    const vhost = await c.create('virtual-host', await attributesFor('virtual-host'));
    const reply = await c.call('PATCH', `/configuration/virtual-hosts/${vhost}/relationships/no-such-link`, {
      json: { data: [] },
    });
    expect(reply.status).toBe(404);
  });

  it('the relationships of an object PATCH response are the current links', async () => {
    const vhost = await c.create('virtual-host', await attributesFor('virtual-host'));
    const mapping = await c.create('mapping', await attributesFor('mapping'));
    await c.relationship('PATCH', 'virtual-host', vhost, 'mappings', 'mapping', [mapping]);
    const reply = await c.patch('virtual-host', vhost, { keepAliveTimeout: 5 });
    expect(reply.status).toBe(200);
    expect(reply.doc?.data && !Array.isArray(reply.doc.data) ? linkedIds(reply.doc.data, 'mappings') : undefined).toEqual([mapping]);
  });
});

describe('maintenance endpoints of virtual hosts', () => {
  let c: Client;
  useAdminSession((_harness, client) => {
    c = client;
  });

  it('POST .../maintenance answers 204 and sets showMaintenancePage to true', async () => {
    const vhost = await c.create('virtual-host', VALID.virtualHost(uniqueName('mnt')));
    expect((await c.read('virtual-host', vhost)).attributes.showMaintenancePage).toBe(false);
    const reply = await c.call('POST', `/configuration/virtual-hosts/${vhost}/maintenance`);
    expect(reply.status).toBe(204);
    expect((await c.read('virtual-host', vhost)).attributes.showMaintenancePage).toBe(true);
  });

  it('DELETE .../maintenance answers 204 and sets showMaintenancePage to false', async () => {
    const vhost = await c.create('virtual-host', { ...VALID.virtualHost(uniqueName('mnt')), showMaintenancePage: true });
    expect((await c.read('virtual-host', vhost)).attributes.showMaintenancePage).toBe(true);
    const reply = await c.call('DELETE', `/configuration/virtual-hosts/${vhost}/maintenance`);
    expect(reply.status).toBe(204);
    expect((await c.read('virtual-host', vhost)).attributes.showMaintenancePage).toBe(false);
  });
});

describe('relationships that depend on the variant', () => {
  it('older gateways: a mapping links its back-end group through the to-one back-end-group relationship', async () => {
    const h = await startHarness({ variant: 'earliest' });
    try {
      const c = await h.client().open(h.emulator.apiKey);
      const mapping = await c.create('mapping', VALID.mapping(uniqueName('old')));
      const group = await c.create('back-end-group', VALID.backEndGroup(uniqueName('old')));
      const reply = await c.call('PATCH', `/configuration/mappings/${mapping}/relationships/back-end-group`, {
        json: { data: { type: 'back-end-group', id: group } },
      });
      expect(reply.status).toBe(204);
      expect(linkedIds(await c.read('back-end-group', group), 'mappings')).toEqual([mapping]);
    } finally {
      await h.close();
    }
  });

  it('the acme-service relationship does not exist on earliest', async () => {
    const h = await startHarness({ variant: 'earliest' });
    try {
      const c = await h.client().open(h.emulator.apiKey);
      const vhost = await c.create('virtual-host', VALID.virtualHost(uniqueName('early')));
      const read = await c.read('virtual-host', vhost);
      expect(read.relationships).toHaveProperty('mappings');
      expect(read.relationships).not.toHaveProperty('acme-service');
      const reply = await c.call('PATCH', `/configuration/virtual-hosts/${vhost}/relationships/acme-service`, {
        json: { data: { type: 'acme-service', id: '1' } },
      });
      expect(reply.status).toBe(404);
    } finally {
      await h.close();
    }
  });
});
