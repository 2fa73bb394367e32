/**
 * Export and import archives (docs/gateway-api.md "Export and import"): a configuration
 * archive brings back every object, attribute and link of every kind, and each mapping's
 * deny rule use; any deny rule use a client writes into `alec_table.xml` (the `Enabled` and
 * `LogOnly` flags of groups and rules) is what the mapping then shows, through a
 * configuration export and import as well.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KINDS, contentResourceOf } from '../../../src/kinds/index.js';
import { childNamed, parseXml, writeXml } from '../../../src/emulator/xml.js';
import type { XmlElement } from '../../../src/emulator/xml.js';
import { readZip, writeZip } from '../../../src/emulator/zip.js';
import { many, one, PEM, uniqueName, useAdminSession, VALID } from './client.js';
import type { Client, Harness } from './client.js';

/** Every element of the tree below and including `el`. */
function every(el: XmlElement): XmlElement[] {
  return [el, ...el.children.flatMap(every)];
}

function tableOf(zip: Buffer): XmlElement {
  const entry = readZip(zip).find((e) => e.name === 'alec_table.xml');
  if (!entry) throw new Error('no alec_table.xml');
  return parseXml(entry.data.toString('utf8'));
}

/** The flags of every element holding a `DenyRuleGroupId` or `DenyRuleId`, keyed `G:id` / `R:id`. */
function flagsIn(root: XmlElement): Record<string, string> {
  const out: Record<string, string> = {};
  for (const el of every(root)) {
    const group = childNamed(el, 'DenyRuleGroupId');
    const rule = childNamed(el, 'DenyRuleId');
    const key = group ? `G:${group.text}` : rule ? `R:${rule.text}` : undefined;
    if (key !== undefined && childNamed(el, 'Enabled')) out[key] = `${childNamed(el, 'Enabled')?.text}/${childNamed(el, 'LogOnly')?.text}`;
  }
  return out;
}

/** `root` with the flags of the elements `flags` names set (keys as {@link flagsIn}). */
function withFlags(root: XmlElement, flags: Readonly<Record<string, string>>): XmlElement {
  const group = childNamed(root, 'DenyRuleGroupId');
  const rule = childNamed(root, 'DenyRuleId');
  const key = group ? `G:${group.text}` : rule ? `R:${rule.text}` : undefined;
  const set = key === undefined ? undefined : flags[key]?.split('/');
  return {
    ...root,
    children: root.children.map((c) =>
      set !== undefined && c.name === 'Enabled' ? { ...c, text: set[0] ?? '' } : set !== undefined && c.name === 'LogOnly' ? { ...c, text: set[1] ?? '' } : withFlags(c, flags),
    ),
  };
}

describe('export and import archives', () => {
  let c: Client;
  let h: Harness;
  useAdminSession((harness, client) => {
    h = harness;
    c = client;
  });

  async function put(client: Client, path: string, zip: Buffer): Promise<number> {
    return (await client.call('PUT', path, { raw: zip, headers: { 'content-type': 'application/zip' } })).status;
  }

  it('a configuration export imported in another session gives back every object, attribute, link and deny rule use', async () => {
    const vhost = await c.create('virtual-host', VALID.virtualHost(uniqueName('rt')));
    const group = await c.create('back-end-group', VALID.backEndGroup(uniqueName('rt')));
    const mapping = await c.create('mapping', { ...VALID.mapping(uniqueName('rt')), allowRules: [{ name: 'kept' }] });
    const cert = await c.create('ssl-certificate', { certType: 'SERVER_CERT', certificate: PEM });
    expect((await c.relationship('PATCH', 'virtual-host', vhost, 'mappings', 'mapping', [mapping])).status).toBe(204);
    expect((await c.relationship('PATCH', 'mapping', mapping, 'back-end-group', 'back-end-group', group)).status).toBe(204);
    expect((await c.relationship('PATCH', 'virtual-host', vhost, 'ssl-certificate', 'ssl-certificate', cert)).status).toBe(204);
    const table = tableOf((await c.call('GET', `/configuration/mappings/${mapping}/export`)).raw);
    const [firstRule] = Object.keys(flagsIn(table)).filter((k) => k.startsWith('R:'));
    const edited = withFlags(table, { [firstRule ?? '']: 'false/true' });
    expect(await put(c, '/configuration/mappings/import', writeZip([{ name: 'alec_table.xml', data: Buffer.from(writeXml(edited)) }]))).toBe(200);

    const archive = (await c.call('GET', '/configuration/configurations/export')).raw;
    const other = h.client();
    await other.open(h.emulator.apiKey);
    expect(await put(other, '/configuration/configurations/import', archive)).toBe(200);
    for (const kind of KINDS) {
      const path = `/configuration/${kind.collection}`;
      const before = await c.call('GET', path);
      const after = await other.call('GET', path);
      expect([after.status, after.doc?.data]).toEqual([before.status, before.doc?.data]);
    }
    expect(flagsIn(tableOf((await other.call('GET', `/configuration/mappings/${mapping}/export`)).raw))).toEqual(flagsIn(edited));
    expect(many(await other.call('GET', '/configuration/mappings')).find((m) => m.id === mapping)?.relationships).toEqual(
      one(await c.call('GET', `/configuration/mappings/${mapping}`)).relationships,
    );
  });

  it('a configuration export imported in another session gives back the content of every kind that has one, byte for byte', async () => {
    const stored = new Map<string, { bytes: Buffer; mediaType: string }>();
    for (const kind of KINDS.filter((k) => k.content === true)) {
      const { segment, mediaType } = contentResourceOf(kind);
      const octets = { 'content-type': mediaType, accept: mediaType };
      const id = await c.create(kind.type, { name: uniqueName('content') });
      const bytes = Buffer.from(`${kind.type}\r\n\u00ff\u0000 spec`, 'latin1');
      expect((await c.call('PUT', `/configuration/${kind.collection}/${id}/${segment}`, { raw: bytes, headers: octets })).status).toBe(204);
      stored.set(`/configuration/${kind.collection}/${id}/${segment}`, { bytes, mediaType });
    }
    expect(stored.size).toBeGreaterThan(0);
    const other = h.client();
    await other.open(h.emulator.apiKey);
    expect(await put(other, '/configuration/configurations/import', (await c.call('GET', '/configuration/configurations/export')).raw)).toBe(200);
    for (const [path, { bytes, mediaType }] of stored) {
      const read = await other.call('GET', path, { headers: { accept: mediaType } });
      expect([read.status, read.raw.toString('latin1')]).toEqual([200, bytes.toString('latin1')]);
    }
  });

  it("the vendor's log-only script finds its rule id (-2170, TI_001a) among the DenyRuleUsage of a mapping that uses the defaults, and its edit lands", async () => {
    const mapping = await c.create('mapping', VALID.mapping(uniqueName('logonly')));
    const table = tableOf((await c.call('GET', `/configuration/mappings/${mapping}/export`)).raw);
    const usages = every(table).filter((el) => el.name === 'DenyRuleUsage');
    // A real mapping carries the use of every built-in rule, default or not.
    expect(usages.length).toBe(many(await c.call('GET', '/configuration/deny-rules')).length);
    const found = usages.find((u) => childNamed(u, 'DenyRuleId')?.text === '-2170');
    expect([childNamed(found ?? table, 'Enabled')?.text, childNamed(found ?? table, 'LogOnly')?.text]).toEqual(['true', 'false']);
    const edited = withFlags(table, { 'R:-2170': 'true/true' });
    expect(await put(c, '/configuration/mappings/import', writeZip([{ name: 'alec_table.xml', data: Buffer.from(writeXml(edited)) }]))).toBe(200);
    expect(one(await c.call('GET', `/configuration/mappings/${mapping}/deny-rules/TI_001a`)).attributes).toEqual({ logOnly: true });
  });

  it('any deny rule use written into alec_table.xml is the mapping\'s after PUT import, and survives a configuration export and import', async () => {
    const mapping = await c.create('mapping', VALID.mapping(uniqueName('flags')));
    const table = tableOf((await c.call('GET', `/configuration/mappings/${mapping}/export`)).raw);
    const keys = Object.keys(flagsIn(table));
    const flag = fc.constantFrom('true', 'false', 'True', 'False');
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...keys), fc.tuple(flag, flag).map(([e, l]) => `${e}/${l}`)), async (changes) => {
        const edited = withFlags(table, changes);
        expect(await put(c, '/configuration/mappings/import', writeZip([{ name: 'alec_table.xml', data: Buffer.from(writeXml(edited)) }]))).toBe(200);
        const expected = Object.fromEntries(Object.entries(flagsIn(edited)).map(([k, v]) => [k, v.toLowerCase()]));
        expect(flagsIn(tableOf((await c.call('GET', `/configuration/mappings/${mapping}/export`)).raw))).toEqual(expected);
        const other = h.client();
        await other.open(h.emulator.apiKey);
        expect(await put(other, '/configuration/configurations/import', (await c.call('GET', '/configuration/configurations/export')).raw)).toBe(200);
        expect(flagsIn(tableOf((await other.call('GET', `/configuration/mappings/${mapping}/export`)).raw))).toEqual(expected);
        await other.terminate();
      }),
      { numRuns: 8, seed: 20261125 },
    );
  });
});
