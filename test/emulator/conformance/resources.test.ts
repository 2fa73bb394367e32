/**
 * Resources: docs/gateway-api.md "Resource types" (one test per cell of the collection table)
 * and "Filter syntax"; mapping templates are in templates.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KINDS, kindExistsIn } from '../../../src/kinds/index.js';
import { writeOnlyAttributes } from '../../../src/schema/index.js';
import { hasUpdatableAttributes } from '../../support/kind-examples.js';
import { at, COLLECTION, errorCode, exampleObject, many, one, PEM, startHarness, uniqueName, VALID, useAdminSession } from './client.js';
import type { Client, Harness, Type } from './client.js';

/** `attributes` without the write-only ones (top level), which GET never returns (docs/gateway-api.md "Attributes and server defaults"). */
function readable(type: Type, attributes: Record<string, unknown>): Record<string, unknown> {
  const writeOnly = new Set(writeOnlyAttributes(type).filter((p) => p.segments.length === 1).map((p) => p.path));
  return Object.fromEntries(Object.entries(attributes).filter(([key]) => !writeOnly.has(key)));
}

/** Every registered kind that exists in the latest variant (the harness's). */
const kinds = KINDS.filter((k) => kindExistsIn(k, 'latest') && !k.singleton).map((kind) => ({ type: kind.type }));

/** Every singleton kind that exists in the latest variant (src/emulator/routes-singletons.ts). */
const singletons = KINDS.filter((k) => kindExistsIn(k, 'latest') && k.singleton).map((kind) => ({
  type: kind.type,
  path: `/configuration/${kind.singleton?.path ?? ''}`,
  // False when no attribute name is known (nothing to PATCH with).
  known: Object.keys(kind.attributes.properties ?? {}).length > 0,
}));

describe('resource collections (latest variant)', () => {
  let c: Client;
  useAdminSession((_harness, client) => {
    c = client;
  });

  describe.each(kinds)('$type', ({ type }) => {
    const path = `/configuration/${COLLECTION[type]}`;

    it('POST creates: 201, generated string id holding an integer, full object', async () => {
      const { attributes: attrs } = await exampleObject(type);
      const reply = await c.call('POST', path, { json: { data: { type, attributes: attrs } } });
      expect(reply.status).toBe(201);
      const created = one(reply);
      expect(created.type).toBe(type);
      expect(typeof created.id).toBe('string');
      expect(created.id).toMatch(/^\d+$/);
      expect(created.attributes).toMatchObject(readable(type, attrs));
      expect(reply.doc?.meta?.type).toBe('jsonapi.metadata.document');
    });

    it('ids are not reused between objects', async () => {
      const a = await c.create(type, (await exampleObject(type)).attributes);
      const b = await c.create(type, (await exampleObject(type)).attributes);
      expect(a).not.toBe(b);
    });

    it('GET /{id} answers 200 with the object and its relationships', async () => {
      const { attributes: attrs } = await exampleObject(type);
      const id = await c.create(type, attrs);
      const reply = await c.call('GET', `${path}/${id}`);
      expect(reply.status).toBe(200);
      const read = one(reply);
      expect(read).toMatchObject({ type, id });
      expect(read.attributes).toMatchObject(readable(type, attrs));
      expect(typeof read.relationships).toBe('object');
    });

    it('GET /{id} of an unknown id answers 404 ENTITY_NOT_FOUND', async () => {
      const reply = await c.call('GET', `${path}/999999`);
      expect(reply.status).toBe(404);
      expect(errorCode(reply)).toBe('ENTITY_NOT_FOUND');
    });

    it('GET lists every object as data[] (no pagination)', async () => {
      const ids = [await c.create(type, (await exampleObject(type)).attributes), await c.create(type, (await exampleObject(type)).attributes)];
      const reply = await c.call('GET', path);
      expect(reply.status).toBe(200);
      const listed = many(reply);
      expect(listed.every((o) => o.type === type)).toBe(true);
      expect(listed.map((o) => o.id)).toEqual(expect.arrayContaining(ids));
    });

    it.runIf(hasUpdatableAttributes(type))('PATCH /{id} answers 200 with the full updated object, and GET shows the change', async () => {
      const { attributes: attrs, update } = await exampleObject(type);
      const id = await c.create(type, attrs);
      expect((await c.read(type, id)).attributes).not.toMatchObject(update);
      const reply = await c.patch(type, id, update);
      expect(reply.status).toBe(200);
      const updated = one(reply);
      expect(updated).toMatchObject({ type, id });
      expect(updated.attributes).toMatchObject(update);
      expect(typeof updated.relationships).toBe('object');
      const read = await c.read(type, id);
      expect(read.attributes).toMatchObject(update);
      // the other attributes kept their value (PATCH rule 4)
      const kept = readable(type, attrs);
      for (const key of Object.keys(update)) delete kept[key];
      expect(read.attributes).toMatchObject(kept);
    });

    it('PATCH /{id} of an unknown id answers 404 ENTITY_NOT_FOUND', async () => {
      const reply = await c.patch(type, '999999', { ...(await exampleObject(type)).update, name: uniqueName(type) });
      expect(reply.status).toBe(404);
      expect(errorCode(reply)).toBe('ENTITY_NOT_FOUND');
    });

    it('DELETE /{id} answers 204, then the object is gone', async () => {
      const id = await c.create(type, (await exampleObject(type)).attributes);
      const reply = await c.call('DELETE', `${path}/${id}`);
      expect(reply.status).toBe(204);
      expect(reply.text).toBe('');
      expect((await c.call('GET', `${path}/${id}`)).status).toBe(404);
      expect((await c.list(type)).map((o) => o.id)).not.toContain(id);
    });

    it('DELETE /{id} of an unknown id answers 404 ENTITY_NOT_FOUND', async () => {
      const reply = await c.call('DELETE', `${path}/999999`);
      expect(reply.status).toBe(404);
      expect(errorCode(reply)).toBe('ENTITY_NOT_FOUND');
    });
  });
});

describe('singletons (docs/gateway-api.md "Singletons", latest variant)', () => {
  let c: Client;
  useAdminSession((_harness, client) => {
    c = client;
  });

  describe.each(singletons)('$type', ({ type, path, known }) => {
    it('GET answers 200 with the one object: its type and attributes, no id', async () => {
      const reply = await c.call('GET', path);
      expect(reply.status).toBe(200);
      expect(reply.doc?.data).toMatchObject({ type, attributes: {} });
      expect(reply.doc?.data).not.toHaveProperty('id');
    });

    it.runIf(known)('PATCH answers 200 with the merged object, and GET shows the change', async () => {
      const { attributes: attrs } = await exampleObject(type);
      const reply = await c.call('PATCH', path, { json: { data: { type, attributes: attrs } } });
      expect(reply.status).toBe(200);
      expect(reply.doc?.data).toMatchObject({ type, attributes: attrs });
      expect((await c.call('GET', path)).doc?.data).toMatchObject({ attributes: attrs });
    });

    it('PATCH with an unknown attribute answers 400 and changes nothing', async () => {
      const before = (await c.call('GET', path)).doc?.data;
      const reply = await c.call('PATCH', path, { json: { data: { type, attributes: { notAnAttribute: 1 } } } });
      expect(reply.status).toBe(400);
      expect((await c.call('GET', path)).doc?.data).toEqual(before);
    });

    it('is never created nor deleted: POST and DELETE on the path, and any id below it, answer 405', async () => {
      const { attributes: attrs } = await exampleObject(type);
      expect((await c.call('POST', path, { json: { data: { type, attributes: attrs } } })).status).toBe(405);
      expect((await c.call('DELETE', path)).status).toBe(405);
      expect((await c.call('GET', `${path}/1`)).status).toBe(405);
      expect((await c.call('DELETE', `${path}/1`)).status).toBe(405);
      expect((await c.call('GET', path)).status).toBe(200);
    });
  });
});

describe('acme-services outside the latest variant', () => {
  it('the collection does not exist on earliest (404)', async () => {
    const h = await startHarness({ variant: 'earliest' });
    try {
      const c = await h.client().open(h.emulator.apiKey);
      expect((await c.call('GET', '/configuration/acme-services')).status).toBe(404);
      const created = await c.call('POST', '/configuration/acme-services', {
        json: { data: { type: 'acme-service', attributes: { name: 'x' } } },
      });
      expect(created.status).toBe(404);
    } finally {
      await h.close();
    }
  });
});

describe('list filters (docs/gateway-api.md "Filter syntax")', () => {
  let h: Harness;
  let c: Client;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    h = await startHarness();
    c = await h.client().open(h.emulator.apiKey);
    ids.shopA = await c.create('mapping', { name: 'shop-a', labels: ['team-shop', 'public'], entryPath: { value: '/shop/a/' }, backendPath: '/a/' });
    ids.shopB = await c.create('mapping', { name: 'shop-b', labels: ['team-shop'], entryPath: { value: '/shop/b/' }, backendPath: '/b/' });
    ids.blog = await c.create('mapping', { name: 'blog', labels: ['team-blog'], entryPath: { value: '/blog/' }, backendPath: '/a/' });
    ids.vh80 = await c.create('virtual-host', { name: 'vh80', networkInterface: { http: { port: 80 } } });
    ids.vh8080 = await c.create('virtual-host', { name: 'vh8080', networkInterface: { http: { port: 8080 } } });
  });
  afterAll(async () => {
    await h.close();
  });

  const names = async (type: Type, query: string) => (await c.list(type, query)).map((o) => o.attributes.name).sort();

  it('== is an exact match', async () => {
    expect(await names('mapping', 'filter=name==shop-a')).toEqual(['shop-a']);
    expect(await names('mapping', 'filter=name==shop')).toEqual([]);
  });

  it('=@ is a substring match', async () => {
    expect(await names('mapping', 'filter=name=@shop-')).toEqual(['shop-a', 'shop-b']);
  });

  it('values are case sensitive', async () => {
    expect(await names('mapping', 'filter=name==SHOP-A')).toEqual([]);
    expect(await names('mapping', 'filter=name=@SHOP')).toEqual([]);
  });

  it('several filter parameters combine with AND', async () => {
    expect(await names('mapping', 'filter=name=@shop-&filter=backendPath==/a/')).toEqual(['shop-a']);
  });

  it('commas inside one filter combine with OR', async () => {
    expect(await names('mapping', 'filter=name==shop-a,name==blog')).toEqual(['blog', 'shop-a']);
  });

  it('a comma piece without an operator is another value for the same property', async () => {
    expect(await names('mapping', 'filter=name==shop-b,blog')).toEqual(['blog', 'shop-b']);
  });

  it('dotted paths reach nested attributes (entryPath.value, networkInterface.http.port)', async () => {
    expect(await names('mapping', 'filter=entryPath.value==/blog/')).toEqual(['blog']);
    expect(await names('virtual-host', 'filter=networkInterface.http.port==8080')).toEqual(['vh8080']);
  });

  it('the mapping filter property label matches the labels list', async () => {
    expect(await names('mapping', 'filter=label==team-shop')).toEqual(['shop-a', 'shop-b']);
    expect(await names('mapping', 'filter=label==public')).toEqual(['shop-a']);
    expect(await names('mapping', 'filter=labels==team-blog')).toEqual(['blog']);
  });

  it('the mapping filter properties entryPath and backendPath work as the reference lists them', async () => {
    expect(await names('mapping', 'filter=backendPath==/a/')).toEqual(['blog', 'shop-a']);
    expect(await names('mapping', 'filter=entryPath.value=@/shop/')).toEqual(['shop-a', 'shop-b']);
  });

  it('URL-encoded filters give the same answer as raw ones', async () => {
    expect(await names('mapping', `filter=${encodeURIComponent('name=@shop-')}`)).toEqual(['shop-a', 'shop-b']);
    expect(await names('mapping', 'filter=label%3D%3Dteam-shop')).toEqual(['shop-a', 'shop-b']);
    expect(await names('mapping', `filter=${encodeURIComponent('name==shop-a,name==blog')}`)).toEqual(['blog', 'shop-a']);
  });

  it('the resource id is a filter property too', async () => {
    expect(await names('mapping', `filter=id==${ids.blog ?? ''}`)).toEqual(['blog']);
  });

  it('a dotted path through a list of objects matches when any item matches', async () => {
    const group = await c.create('back-end-group', {
      name: 'multi-host',
      backendHosts: [
        { protocol: 'HTTP', hostName: 'one.internal', port: 80 },
        { protocol: 'HTTP', hostName: 'two.internal', port: 80 },
      ],
    });
    expect((await c.list('back-end-group', 'filter=backendHosts.hostName==two.internal')).map((g) => g.id)).toEqual([group]);
    expect(await c.list('back-end-group', 'filter=backendHosts.hostName==three.internal')).toEqual([]);
  });

  it('a filter on an unknown property matches nothing', async () => {
    expect(await names('mapping', 'filter=noSuchProperty==x')).toEqual([]);
  });

  it('a filter without an operator answers 400', async () => {
    const reply = await c.call('GET', '/configuration/mappings?filter=nonsense');
    expect(reply.status).toBe(400);
    expect(reply.doc?.errors?.length).toBeGreaterThan(0);
  });
});

describe('more real-client expectations of resources', () => {
  let c: Client;
  useAdminSession((_harness, client) => {
    c = client;
  });

  it('lists are not paginated: 150 objects come back in one data[]', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 150; i += 1) ids.add(await c.create('back-end-group', VALID.backEndGroup(`many-${i}`)));
    const listed = await c.list('back-end-group', 'filter=name=@many-');
    expect(listed).toHaveLength(150);
    expect(new Set(listed.map((g) => g.id))).toEqual(ids);
  });

  it('a back-end group shows its client-certificate relationship (docs/gateway-api.md "Relationships")', async () => {
    const group = await c.create('back-end-group', VALID.backEndGroup(uniqueName('cc')));
    const read = await c.read('back-end-group', group);
    expect(read.relationships).toHaveProperty('mappings');
    expect(read.relationships).not.toHaveProperty('client-certificate');
    const cert = await c.create('ssl-certificate', { certType: 'CLIENT_CERT', certificate: PEM });
    const reply = await c.call('PATCH', `/configuration/back-end-groups/${group}/relationships/client-certificate`, {
      json: { data: { type: 'ssl-certificate', id: cert } },
    });
    expect(reply.status).toBe(204);
    expect((await c.read('back-end-group', group)).relationships?.['client-certificate']?.data).toEqual({ type: 'ssl-certificate', id: cert });
  });

  it('the mapping members real clients use beyond the reference are accepted (timeouts, pathWhitelists)', async () => {
    const id = await c.create('mapping', VALID.mapping(uniqueName('extra')));
    expect(at((await c.read('mapping', id)).attributes, 'timeouts.backend')).toBe(120);
    const reply = await c.patch('mapping', id, {
      timeouts: { sessionIdle: 600 },
      ipRules: { ipAddressWhitelists: { pathWhitelists: [{ pathPattern: { pattern: '^/health$', caseIgnored: false } }] } },
    });
    expect(reply.status).toBe(200);
    const read = await c.read('mapping', id);
    expect(at(read.attributes, 'timeouts')).toEqual({ backend: 120, sessionIdle: 600 });
    // The item comes back with its item default for the member it left out.
    expect(at(read.attributes, 'ipRules.ipAddressWhitelists.pathWhitelists')).toEqual([
      { enabled: true, pathPattern: { pattern: '^/health$', caseIgnored: false, inverted: false }, ipAddressListIds: [] },
    ]);
  });

  it('an ssl-certificate created with only its certificate returns a full attribute tree', async () => {
    const id = await c.create('ssl-certificate', { certificate: PEM });
    const read = await c.read('ssl-certificate', id);
    expect(read.attributes.certificate).toBe(PEM);
    expect(['SERVER_CERT', 'CLIENT_CERT']).toContain(read.attributes.certType);
    expect(read.attributes.certificateChain).toEqual([]);
    expect(typeof read.attributes.rootCaCertificate).toBe('string');
  });

  it('mapping names are unique (reference: name "Unique name"): a duplicate is refused on create or reported as an ERROR', async () => {
    const name = uniqueName('unique');
    const vhost = await c.create('virtual-host', VALID.virtualHost(uniqueName('unique')));
    const group = await c.create('back-end-group', VALID.backEndGroup(uniqueName('unique')));
    const link = async (id: string) => {
      expect((await c.relationship('PATCH', 'virtual-host', vhost, 'mappings', 'mapping', [id])).status).toBe(204);
      expect((await c.relationship('PATCH', 'mapping', id, 'back-end-groups', 'back-end-group', [group])).status).toBe(204);
    };
    const errorsAbout = async (ids: string[]) =>
      (await c.messages('filter=meta.severity==ERROR')).filter((m) => {
        const id = (m.attributes.meta as { model?: { id?: unknown } } | undefined)?.model?.id;
        return typeof id === 'string' && ids.includes(id);
      });
    const first = await c.create('mapping', VALID.mapping(name));
    await link(first);
    expect(await errorsAbout([first])).toEqual([]);
    const reply = await c.call('POST', '/configuration/mappings', { json: { data: { type: 'mapping', attributes: VALID.mapping(name, '/other/') } } });
    if (reply.status === 201) {
      // accepted: then the validator must name the duplicate (both are otherwise complete)
      const second = one(reply).id;
      await link(second);
      expect((await errorsAbout([first, second])).length).toBeGreaterThan(0);
    } else {
      expect(reply.status).toBe(400);
      expect(errorCode(reply)).toBe('INVALID_VALUE');
      expect(await c.list('mapping', `filter=name==${name}`)).toHaveLength(1);
    }
  });

  it('PUT /mappings/import replaces the mapping of the same name', async () => {
    const name = uniqueName('replace');
    const id = await c.create('mapping', { ...VALID.mapping(name), backendPath: '/exported/' });
    const exported = await c.call('GET', `/configuration/mappings/${id}/export`);
    expect(exported.status).toBe(200);
    await c.patch('mapping', id, { backendPath: '/changed/' });
    const reply = await c.call('PUT', '/configuration/mappings/import', { raw: exported.raw, headers: { 'content-type': 'application/zip' } });
    expect(reply.status).toBeGreaterThanOrEqual(200);
    expect(reply.status).toBeLessThan(300);
    const found = await c.list('mapping', `filter=name==${name}`);
    expect(found).toHaveLength(1);
    expect(found[0]?.attributes.backendPath).toBe('/exported/');
  });
});

describe('create with relationships in the body (docs/gateway-api.md "Relationships", POST virtual-hosts)', () => {
  it('POST /virtual-hosts with relationships links the named objects on both sides', async () => {
    const h = await startHarness();
    try {
      const c = await h.client().open(h.emulator.apiKey);
      const mapping = await c.create('mapping', VALID.mapping(uniqueName('m')));
      const cert = await c.create('ssl-certificate', { certType: 'SERVER_CERT', certificate: PEM });
      const reply = await c.call('POST', '/configuration/virtual-hosts', {
        json: {
          data: {
            type: 'virtual-host',
            attributes: VALID.virtualHost(uniqueName('vh')),
            relationships: {
              mappings: { data: [{ type: 'mapping', id: mapping }] },
              'ssl-certificate': { data: { type: 'ssl-certificate', id: cert } },
            },
          },
        },
      });
      expect(reply.status).toBe(201);
      const vhost = one(reply);
      expect(vhost.relationships?.mappings?.data).toEqual([{ type: 'mapping', id: mapping }]);
      expect(vhost.relationships?.['ssl-certificate']?.data).toEqual({ type: 'ssl-certificate', id: cert });
      expect((await c.read('mapping', mapping)).relationships?.['virtual-hosts']?.data).toEqual([{ type: 'virtual-host', id: vhost.id }]);
      expect((await c.read('ssl-certificate', cert)).relationships?.['virtual-hosts']?.data).toEqual([{ type: 'virtual-host', id: vhost.id }]);
    } finally {
      await h.close();
    }
  });
});
