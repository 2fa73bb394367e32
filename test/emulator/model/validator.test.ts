import { describe, expect, it } from 'vitest';
import { newObjectAttributes } from '../../../src/emulator/defaults.js';
import type { ConfigContent, JsonObject, ModelContext, StoredObject } from '../../../src/emulator/model.js';
import { emptyContent } from '../../../src/emulator/model.js';
import { unknownReferenceCode, validatorMessageId, validatorMessages } from '../../../src/emulator/validator.js';
import { KINDS } from '../../../src/kinds/index.js';
import type { ResourceType, Variant } from '../../../src/kinds/index.js';
import { referenceAttributes } from '../../../src/schema/index.js';

/** A small builder of configuration contents with links stored on both sides. */
class Config {
  readonly content: ConfigContent = emptyContent();
  constructor(readonly variant: Variant = 'latest') {}

  add(type: ResourceType, given: JsonObject): string {
    const id = String(this.content.nextId++);
    this.content.objects[type].set(id, { type, id, attributes: newObjectAttributes(type, this.variant, given), relationships: {} });
    return id;
  }

  link(type: ResourceType, id: string, name: string, targetType: ResourceType, targetId: string, inverse: string): void {
    const addLink = (t: ResourceType, i: string, rel: string, other: string): void => {
      const obj = this.content.objects[t].get(i) as StoredObject;
      const ids = obj.relationships[rel] ?? [];
      this.content.objects[t].set(i, { ...obj, relationships: { ...obj.relationships, [rel]: [...ids, other] } });
    };
    addLink(type, id, name, targetId);
    addLink(targetType, targetId, inverse, id);
  }

  /** A mapping linked to a fresh back-end group with a host and to a virtual host (no messages of its own). */
  healthyMapping(given: JsonObject, hostId: string, groupId: string): string {
    const id = this.add('mapping', given);
    this.link('mapping', id, 'back-end-groups', 'back-end-group', groupId, 'mappings');
    this.link('virtual-host', hostId, 'mappings', 'mapping', id, 'virtual-hosts');
    return id;
  }

  /** A virtual host with HTTPS and a certificate, and a back-end group with a host. */
  base(): { hostId: string; groupId: string } {
    const hostId = this.add('virtual-host', { name: 'www' });
    const certId = this.add('ssl-certificate', { certificate: 'PEM' });
    this.link('virtual-host', hostId, 'ssl-certificate', 'ssl-certificate', certId, 'virtual-hosts');
    const groupId = this.add('back-end-group', { name: 'app', backendHosts: [{ hostName: 'app.local' }] });
    return { hostId, groupId };
  }

  messages(): ReturnType<typeof validatorMessages> {
    const context: ModelContext = { variant: this.variant };
    return validatorMessages(this.content, context);
  }

  codes(): string[] {
    return this.messages().map((m) => `${m.severity} ${m.code} ${m.model.type}/${m.model.id}`);
  }
}

describe('validatorMessages', () => {
  it('finds nothing in a healthy configuration', () => {
    for (const variant of ['earliest', 'middle', 'latest'] as const) {
      const c = new Config(variant);
      const { hostId, groupId } = c.base();
      c.healthyMapping({ name: 'shop' }, hostId, groupId);
      expect(c.messages()).toEqual([]);
    }
  });

  it('reports two regex mappings with the same priority, once per mapping, naming both', () => {
    const c = new Config();
    const { hostId, groupId } = c.base();
    const a = c.healthyMapping({ name: 'a', entryPath: { regexFormatEnforced: true, priority: 7 } }, hostId, groupId);
    const b = c.healthyMapping({ name: 'b', entryPath: { regexFormatEnforced: true, priority: 7 } }, hostId, groupId);
    c.healthyMapping({ name: 'c', entryPath: { regexFormatEnforced: false, priority: 7 } }, hostId, groupId);
    c.healthyMapping({ name: 'd', entryPath: { regexFormatEnforced: true, priority: 8 } }, hostId, groupId);
    const messages = c.messages();
    expect(messages.map((m) => [m.code, m.model.id])).toEqual([
      ['DUPLICATE_REGEX_PRIORITY', a],
      ['DUPLICATE_REGEX_PRIORITY', b],
    ]);
    expect(messages[0]).toMatchObject({ severity: 'ERROR', model: { type: 'mapping', id: a } });
    expect(messages[0]?.detail).toContain("'a'");
    expect(messages[0]?.detail).toContain("'b'");
    expect(messages[0]?.detail).toContain('7');
  });

  it('names at most three other mappings in a large duplicate group', () => {
    const c = new Config();
    const { hostId, groupId } = c.base();
    for (let i = 0; i < 6; i++) c.healthyMapping({ name: `m${i}`, entryPath: { regexFormatEnforced: true, priority: 1 } }, hostId, groupId);
    const messages = c.messages();
    expect(messages).toHaveLength(6);
    expect(messages[0]?.detail).toContain('and 2 more');
  });

  it('lets non-regex mappings share a priority', () => {
    const c = new Config();
    const { hostId, groupId } = c.base();
    c.healthyMapping({ name: 'a', entryPath: { priority: 3 } }, hostId, groupId);
    c.healthyMapping({ name: 'b', entryPath: { priority: 3 } }, hostId, groupId);
    expect(c.messages()).toEqual([]);
  });

  it('reports HTTP/2 allowed while HTTPS is disabled', () => {
    const c = new Config('middle');
    const id = c.add('virtual-host', { name: 'plain', networkInterface: { https: { enabled: false, http2Allowed: true } } });
    c.add('virtual-host', { name: 'plain-ok', networkInterface: { https: { enabled: false, http2Allowed: false } } });
    const messages = c.messages();
    expect(messages).toEqual([
      {
        severity: 'ERROR',
        code: 'HTTP2_WITHOUT_HTTPS',
        title: 'HTTP/2 allowed without HTTPS',
        detail: "The virtual host 'plain' allows HTTP/2 while HTTPS is disabled; HTTP/2 requires HTTPS.",
        model: { type: 'virtual-host', id },
      },
    ]);
  });

  it('latest: certificate mode CERTIFICATE without an ssl-certificate link, one message only', () => {
    const c = new Config('latest');
    const id = c.add('virtual-host', { name: 'www' });
    const acme = c.add('acme-service', { name: 'le' });
    const withAcmeOnly = c.add('virtual-host', { name: 'www2' });
    c.link('virtual-host', withAcmeOnly, 'acme-service', 'acme-service', acme, 'virtual-hosts');
    expect(c.codes()).toEqual([`ERROR CERTIFICATE_MISSING virtual-host/${id}`, `ERROR CERTIFICATE_MISSING virtual-host/${withAcmeOnly}`]);
    expect(c.messages()[0]?.detail).toContain("'www'");
  });

  it('latest: certificate mode ACME_SERVICE needs an acme-service link, a certificate does not do', () => {
    const c = new Config('latest');
    const id = c.add('virtual-host', { name: 'auto', tls: { certificateMode: 'ACME_SERVICE' } });
    const cert = c.add('ssl-certificate', { certificate: 'PEM' });
    c.link('virtual-host', id, 'ssl-certificate', 'ssl-certificate', cert, 'virtual-hosts');
    expect(c.codes()).toEqual([`ERROR ACME_SERVICE_MISSING virtual-host/${id}`]);
    const acme = c.add('acme-service', { name: 'le' });
    c.link('virtual-host', id, 'acme-service', 'acme-service', acme, 'virtual-hosts');
    expect(c.codes()).toEqual([]);
  });

  it('earliest and middle: an HTTPS host without a certificate', () => {
    for (const variant of ['earliest', 'middle'] as const) {
      const c = new Config(variant);
      const id = c.add('virtual-host', { name: 'www' });
      expect(c.codes()).toEqual([`ERROR HTTPS_WITHOUT_CERTIFICATE virtual-host/${id}`]);
      expect(c.messages()[0]?.detail).toBe("The virtual host 'www' has HTTPS enabled but no SSL certificate.");
    }
  });

  it('earliest and middle: automated certificates (letsEncryptEnabled) satisfy HTTPS', () => {
    const c = new Config('middle');
    c.add('virtual-host', { name: 'www', tls: { letsEncryptEnabled: true } });
    expect(c.codes()).toEqual([]);
  });

  it('latest: an HTTPS host without certificate mode and without links gets the generic message', () => {
    const c = new Config('latest');
    const id = c.add('virtual-host', { name: 'www' });
    const host = c.content.objects['virtual-host'].get(id) as StoredObject;
    const { certificateMode: _dropped, ...tls } = host.attributes.tls as JsonObject;
    c.content.objects['virtual-host'].set(id, { ...host, attributes: { ...host.attributes, tls } });
    expect(c.codes()).toEqual([`ERROR HTTPS_WITHOUT_CERTIFICATE virtual-host/${id}`]);
  });

  it('does not require a certificate when HTTPS is disabled', () => {
    for (const variant of ['earliest', 'latest'] as const) {
      const c = new Config(variant);
      c.add('virtual-host', { name: 'plain', networkInterface: { https: { enabled: false, http2Allowed: false } } });
      expect(c.codes()).toEqual([]);
    }
  });

  it('reports a mapping without back-end group (ERROR) and without virtual host (WARNING)', () => {
    const c = new Config();
    const id = c.add('mapping', { name: 'lonely' });
    const messages = c.messages();
    expect(messages.map((m) => [m.severity, m.code])).toEqual([
      ['ERROR', 'MAPPING_WITHOUT_BACKEND_GROUP'],
      ['WARNING', 'MAPPING_WITHOUT_VIRTUAL_HOST'],
    ]);
    expect(messages.every((m) => m.model.id === id && m.detail.includes("'lonely'"))).toBe(true);
  });

  it('ignores links to objects that no longer exist', () => {
    const c = new Config();
    const id = c.add('mapping', { name: 'm' });
    const m = c.content.objects.mapping.get(id) as StoredObject;
    c.content.objects.mapping.set(id, { ...m, relationships: { 'back-end-groups': ['999'], 'virtual-hosts': ['998'] } });
    expect(c.messages().map((x) => x.code)).toEqual(['MAPPING_WITHOUT_BACKEND_GROUP', 'MAPPING_WITHOUT_VIRTUAL_HOST']);
  });

  it.each([
    [-1000, true],
    [-999, false],
    [999, false],
    [1000, true],
  ])('entry path priority %d out of range: %s', (priority, reported) => {
    const c = new Config();
    const { hostId, groupId } = c.base();
    c.healthyMapping({ name: 'p', entryPath: { priority } }, hostId, groupId);
    expect(c.messages().map((m) => m.code)).toEqual(reported ? ['PRIORITY_OUT_OF_RANGE'] : []);
  });

  it.each([
    [-1, true],
    [0, false],
    [2147483647, false],
    [2147483648, true],
  ])('maximum request body size %d out of range: %s', (size, reported) => {
    const c = new Config();
    const { hostId, groupId } = c.base();
    c.healthyMapping({ name: 'p', limits: { general: { maxRequestBodySize: size } } }, hostId, groupId);
    const messages = c.messages();
    expect(messages.map((m) => m.code)).toEqual(reported ? ['MAX_REQUEST_BODY_SIZE_OUT_OF_RANGE'] : []);
    if (reported) expect(messages[0]?.detail).toContain(String(size));
  });

  it('reports a back-end group without hosts: the default one, an empty list, blank host names', () => {
    const c = new Config();
    const fresh = c.add('back-end-group', { name: 'fresh' });
    const empty = c.add('back-end-group', { name: 'empty', backendHosts: [] });
    const blank = c.add('back-end-group', { name: 'blank', backendHosts: [{ hostName: '' }, { hostName: '  ' }] });
    c.add('back-end-group', { name: 'ok', backendHosts: [{ hostName: '' }, { hostName: 'a' }] });
    expect(c.codes()).toEqual([
      `ERROR BACKEND_GROUP_WITHOUT_HOSTS back-end-group/${fresh}`,
      `ERROR BACKEND_GROUP_WITHOUT_HOSTS back-end-group/${empty}`,
      `ERROR BACKEND_GROUP_WITHOUT_HOSTS back-end-group/${blank}`,
    ]);
  });

  it('names an object without a name by its id', () => {
    const c = new Config();
    const id = c.add('mapping', {});
    expect(c.messages()[0]?.detail).toBe(`The mapping with id ${id} has no back-end group.`);
  });

  it('sorts by severity, type, numeric id and code, and gives unique deterministic ids', () => {
    const c = new Config('middle');
    for (let i = 0; i < 11; i++) c.add('mapping', { name: `m${i}` });
    c.add('back-end-group', { name: 'g' });
    c.add('virtual-host', { name: 'v', networkInterface: { https: { enabled: false, http2Allowed: true } } });
    const messages = c.messages();
    const keys = messages.map((m) => `${m.severity}/${m.model.type}/${m.model.id}/${m.code}`);
    expect(keys.slice(0, 2)).toEqual(['ERROR/back-end-group/12/BACKEND_GROUP_WITHOUT_HOSTS', 'ERROR/mapping/1/MAPPING_WITHOUT_BACKEND_GROUP']);
    expect(keys[10]).toBe('ERROR/mapping/10/MAPPING_WITHOUT_BACKEND_GROUP');
    expect(keys[12]).toBe('ERROR/virtual-host/13/HTTP2_WITHOUT_HTTPS');
    expect(keys.slice(13).every((k) => k.startsWith('WARNING/mapping/'))).toBe(true);
    const ids = messages.map(validatorMessageId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[1]).toBe('MAPPING_WITHOUT_BACKEND_GROUP-mapping-1');
    expect(c.messages()).toEqual(messages);
  });

  it('orders negative ids numerically and non-numeric ids as text', () => {
    const c = new Config();
    const put = (id: string): void => {
      c.content.objects.mapping.set(id, { type: 'mapping', id, attributes: newObjectAttributes('mapping', 'latest', {}), relationships: {} });
    };
    for (const id of ['10', 'b', '-5', '2', 'a']) put(id);
    const ids = c.messages().filter((m) => m.severity === 'ERROR').map((m) => m.model.id);
    expect(ids).toEqual(['-5', '2', '10', 'a', 'b']);
  });

  it('handles 20,000 mappings (linear rules)', () => {
    const c = new Config();
    const { hostId, groupId } = c.base();
    const mappings = c.content.objects.mapping;
    for (let i = 0; i < 20_000; i++) {
      const id = String(c.content.nextId++);
      const given = { name: `m${i}`, entryPath: { regexFormatEnforced: true, priority: i % 2 === 0 ? 0 : 1 } };
      mappings.set(id, {
        type: 'mapping',
        id,
        attributes: newObjectAttributes('mapping', 'latest', given),
        relationships: { 'back-end-groups': [groupId], 'virtual-hosts': [hostId] },
      });
    }
    const messages = c.messages();
    expect(messages).toHaveLength(20_000);
    expect(messages.every((m) => m.code === 'DUPLICATE_REGEX_PRIORITY' && m.detail.includes('and 9996 more'))).toBe(true);
  });
});

describe('an attribute that names a missing object (every reference attribute of every kind)', () => {
  const references = KINDS.flatMap((kind) => referenceAttributes(kind.type).map((path) => ({ type: kind.type, path })));

  /** Attributes holding `id` at the reference's path (one item for each `*`). */
  function holding(segments: readonly string[], schema: Readonly<Record<string, unknown>>, id: number): JsonObject {
    const leaf: unknown = schema.type === 'array' ? [id] : id;
    let node: unknown = leaf;
    for (const segment of [...segments].reverse()) node = segment === '*' ? [node] : { [segment]: node };
    return node as JsonObject;
  }

  it('finds the reference attributes', () => {
    expect(references.map((r) => `${r.type}:${r.path.segments.join('.')}`)).toEqual(
      expect.arrayContaining(['mapping:ipRules.ipAddressWhitelists.pathWhitelists.*.ipAddressListIds', 'mapping:apiSecurity.openApi.policies.*.openApiDocumentId']),
    );
  });

  it.each(references.map((r) => [`${r.type} ${r.path.segments.join('.')}`, r] as const))('%s: an unknown id is one ERROR naming it; a known id is none', (_, { type, path }) => {
    const target = path.schema['x-gwops-reference'] as ResourceType;
    const c = new Config();
    const known = Number(c.add(target, { name: 'the-target' }));
    const unknown = known + 1000;
    const bad = c.add(type, { name: 'bad', ...holding(path.segments, path.schema, unknown) });
    const good = c.add(type, { name: 'good', ...holding(path.segments, path.schema, known) });
    const about = (id: string): string[] => c.messages().filter((m) => m.model.id === id && m.code === unknownReferenceCode(target)).map((m) => `${m.severity} ${m.detail}`);
    expect(about(bad)).toEqual([expect.stringMatching(new RegExp(`^ERROR .*'bad' names .* ${unknown} \\(`))]);
    expect(about(good)).toEqual([]);
  });
});
