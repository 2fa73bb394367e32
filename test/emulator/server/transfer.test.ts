import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { childNamed, childrenNamed, element, parseXml, writeXml } from '../../../src/emulator/xml.js';
import type { XmlElement } from '../../../src/emulator/xml.js';
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

  it('writes the configuration archive piece by piece: both entries streamed (data descriptors), ConfigHash the digest of the JSON entry as written', async () => {
    const c = await started();
    for (const name of ['m1', 'm2', 'm3']) await c.call('POST', '/configuration/mappings', { body: { data: { type: 'mapping', attributes: { name } } } });
    const exported = await c.call('GET', '/configuration/configurations/export');
    const entries = readZip(exported.bytes);
    expect(entries.map((e) => e.name)).toEqual(['alec_full.xml', 'gwops-emulator.json']);
    // Each local file header (PK\x03\x04) of a streamed entry has general purpose flag bit 3:
    // sizes and checksum follow the data, as only a writer that never held the entry whole needs.
    const flags: number[] = [];
    for (let at = exported.bytes.indexOf('PK\x03\x04'); at >= 0; at = exported.bytes.indexOf('PK\x03\x04', at + 4)) flags.push(exported.bytes.readUInt16LE(at + 6) & 0x08);
    expect(flags).toEqual([8, 8]);
    const json = entries[1]?.data ?? Buffer.alloc(0);
    const content = JSON.parse(json.toString('utf8')) as { nextId: number; objects: { type: string; attributes: { name?: string } }[] };
    expect(json.toString('utf8')).toBe(JSON.stringify(content));
    expect(content.objects.filter((o) => o.type === 'mapping').map((o) => o.attributes.name)).toEqual(['m1', 'm2', 'm3']);
    const root = parseXml(entries[0]?.data.toString('utf8') ?? '');
    expect(root.attributes.ConfigHash).toBe(createHash('sha256').update(json).digest('hex'));
    expect(childrenNamed(childNamed(root, 'Mappings') ?? root, 'Mapping').map((m) => childNamed(m, 'Name')?.text)).toEqual(['m1', 'm2', 'm3']);
  });

  it('reads a large alec_full.xml only up to its Nodes: the node check still applies, what follows is not parsed', async () => {
    const c = await started();
    await c.call('POST', '/configuration/mappings', { body: { data: { type: 'mapping', attributes: { name: 'kept' } } } });
    const entries = readZip((await c.call('GET', '/configuration/configurations/export')).bytes);
    const xml = entries[0]?.data.toString('utf8') ?? '';
    // Another node's name, and 2 MB after the Nodes that no XML parser would accept.
    const large = xml.replace(/<HostName>[^<]*<\/HostName>/, '<HostName>elsewhere</HostName>').replace('</Nodes>', `</Nodes>${'<Broken attr=>'.repeat(150_000)}`);
    const archive = writeZip([{ name: 'alec_full.xml', data: Buffer.from(large, 'utf8') }, entries[1] ?? { name: 'missing', data: Buffer.alloc(0) }]);
    const headers = { 'content-type': 'application/zip' };
    const refused = await c.call('PUT', '/configuration/configurations/import', { raw: archive, headers });
    expect([refused.status, errorCode(refused)]).toEqual([422, 'RESOLUTION_REQUIRED']);
    expect((await c.call('PUT', '/configuration/configurations/import?resolution=takeOver', { raw: archive, headers })).status).toBe(200);
    expect(list(await c.call('GET', '/configuration/mappings')).map((m) => (m.attributes as { name: string }).name)).toEqual(['kept']);
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

  /** The XML file `name` of a zip, parsed. */
  function xmlIn(zip: Buffer, name: string): XmlElement {
    const entry = readZip(zip).find((e) => e.name === name);
    if (!entry) throw new Error(`no ${name} in the zip`);
    return parseXml(entry.data.toString('utf8'));
  }

  /** The text at a path of child element names (`*` = any child), as ElementTree's `find`. */
  function texts(root: XmlElement, path: readonly string[]): string[] {
    let level = [root];
    for (const step of path) level = level.flatMap((el) => (step === '*' ? [...el.children] : childrenNamed(el, step)));
    return level.map((el) => el.text);
  }

  it('a mapping export holds alec_table.xml with ./Mappings/Mapping/Name, as real clients read it', async () => {
    const c = await started();
    const id = data(await c.call('POST', '/configuration/mappings', { body: { data: { type: 'mapping', attributes: { name: 'xml-one', backendPath: '/one/' } } } })).id as string;
    const exported = await c.call('GET', `/configuration/mappings/${id}/export`);
    expect(readZip(exported.bytes).map((e) => e.name)).toEqual(['alec_table.xml']);
    expect(xmlIn(exported.bytes, 'alec_table.xml').name).toBe('ConfigRoot');
    expect(texts(xmlIn(exported.bytes, 'alec_table.xml'), ['Mappings', 'Mapping', 'Name'])).toEqual(['xml-one']);
  });

  it('a client that edits the Name in alec_table.xml and uploads it with PUT creates the renamed mapping', async () => {
    const c = await started();
    const id = data(await c.call('POST', '/configuration/mappings', { body: { data: { type: 'mapping', attributes: { name: 'xml-source', backendPath: '/src/' } } } })).id as string;
    const exported = await c.call('GET', `/configuration/mappings/${id}/export`);
    const text = readZip(exported.bytes).find((e) => e.name === 'alec_table.xml')?.data.toString('utf8') ?? '';
    // What ElementTree.tostring gives back: no declaration, the edited name, entities escaped.
    const edited = text.replace(/^<\?xml[^>]*\?>\n/, '').replace('<Name>xml-source</Name>', '<Name>xml-&amp;-renamed</Name>');
    const upload = writeZip([{ name: 'alec_table.xml', data: Buffer.from(edited, 'utf8') }]);
    const imported = await c.call('PUT', '/configuration/mappings/import', { raw: upload, headers: { 'content-type': 'application/zip' } });
    expect(imported.status).toBe(200);
    const names = list(await c.call('GET', '/configuration/mappings')).map((m) => (m.attributes as { name: string; backendPath: string }).name);
    expect(names).toContain('xml-&-renamed');
    expect(names).toContain('xml-source');

    const broken = writeZip([{ name: 'alec_table.xml', data: Buffer.from('<Configuration><Mappings>', 'utf8') }]);
    const refused = await c.call('PUT', '/configuration/mappings/import', { raw: broken, headers: { 'content-type': 'application/zip' } });
    expect([refused.status, errorCode(refused)]).toEqual([400, 'INVALID_REQUEST_FORMAT']);
  });

  /** Every element below `root` named `name` (ElementTree's `.//name`). */
  function descendants(root: XmlElement, name: string): XmlElement[] {
    return root.children.flatMap((c) => [...(c.name === name ? [c] : []), ...descendants(c, name)]);
  }

  /** The elements at an ElementTree path of child names (`*` = any child; `.//X` = descendants named X). */
  function findAll(root: XmlElement, path: string): XmlElement[] {
    let level = [root];
    for (const step of path.replace(/^\.\//, '').split('/')) {
      if (step === '') continue;
      level = level.flatMap((el) => (step === '*' ? [...el.children] : childrenNamed(el, step)));
    }
    return level;
  }
  const deep = (root: XmlElement, name: string, rest = ''): XmlElement[] => descendants(root, name).flatMap((el) => (rest === '' ? [el] : findAll(el, rest)));

  /** The element right after `el` among its parent's children. */
  function following(parent: XmlElement, el: XmlElement): XmlElement | undefined {
    return parent.children[parent.children.indexOf(el) + 1];
  }

  it('a configuration export holds alec_full.xml with ./Nodes/*/HostName, and export, load-empty-config, import round-trips', async () => {
    const a = await started();
    await a.call('POST', '/configuration/back-end-groups', { body: { data: { type: 'back-end-group', attributes: { name: 'xml-carried' } } } });
    const exported = await a.call('GET', '/configuration/configurations/export');
    expect(readZip(exported.bytes).map((e) => e.name)).toContain('alec_full.xml');
    const root = xmlIn(exported.bytes, 'alec_full.xml');
    const [hostName] = texts(root, ['Nodes', '*', 'HostName']);
    expect(hostName).toMatch(/.+/);

    // The vendor library's sequence: read the host name, load an empty configuration for it, import.
    const b = suite.client();
    await b.login();
    expect((await b.call('POST', '/configuration/configurations/load-empty-config', { body: { hostname: hostName } })).status).toBe(204);
    const imported = await b.call('PUT', '/configuration/configurations/import', { raw: exported.bytes, headers: { 'content-type': 'application/zip' } });
    expect(imported.status).toBe(200);
    for (const collection of ['back-end-groups', 'virtual-hosts', 'ssl-certificates', 'mappings']) {
      const before = list(await a.call('GET', `/configuration/${collection}`));
      expect(list(await b.call('GET', `/configuration/${collection}`))).toEqual(before);
    }
    const again = await b.call('GET', '/configuration/configurations/export');
    expect(readZip(again.bytes).map((e) => e.data.toString('utf8'))).toEqual(readZip(exported.bytes).map((e) => e.data.toString('utf8')));
  });

  it('alec_full.xml has the shape scripts read: ConfigRoot, Mappings/Mapping[@Id]/Name, DenyRules/DenyRule[@Id]/Name "(default X) …", usage inside a mapping', async () => {
    const c = await started();
    const id = data(await c.call('POST', '/configuration/mappings', { body: { data: { type: 'mapping', attributes: { name: 'full-one' } } } })).id as string;
    const root = xmlIn((await c.call('GET', '/configuration/configurations/export')).bytes, 'alec_full.xml');
    expect(root.name).toBe('ConfigRoot');
    expect(root.attributes.Version).toMatch(/^\d+$/);
    expect(root.attributes.ConfigHash).toMatch(/^[0-9a-f]{64}$/);
    expect(findAll(root, 'Nodes/Node/HostName')).toHaveLength(1);

    const mapping = findAll(root, 'Mappings/Mapping').find((m) => m.attributes.Id === id);
    expect(mapping && childNamed(mapping, 'Name')?.text).toBe('full-one');

    const rules = findAll(root, 'DenyRules/DenyRule');
    const groupIds = new Set(findAll(root, 'DenyRuleGroups/DenyRuleGroup').map((g) => g.attributes.Id));
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) {
      expect(rule.attributes.Id).toMatch(/^-?\d+$/);
      expect(childNamed(rule, 'Name')?.text).toMatch(/^\(default [A-Za-z0-9_]+\) \S/);
      const inGroups = findAll(rule, 'DenyRuleGroupIds/DenyRuleGroupId').map((g) => g.text);
      expect(inGroups.length).toBeGreaterThan(0);
      for (const g of inGroups) expect(groupIds.has(g)).toBe(true);
    }
    const sql = rules.find((r) => childNamed(r, 'Name')?.text.startsWith('(default SQL_001a) '));
    expect(sql).toBeDefined();

    // show_deny_rule_status.sh: inside a mapping, a DenyRuleGroupId followed by Enabled (with Locked), a DenyRuleId followed by Enabled.
    const inMapping = mapping ?? element('Mapping', []);
    const groupUses = descendants(inMapping, 'DenyRuleGroupId');
    expect(groupUses.map((g) => g.text).sort()).toEqual([...groupIds].sort());
    const every = (el: XmlElement): XmlElement[] => [el, ...el.children.flatMap(every)];
    const groupParents = every(inMapping).filter((p) => childNamed(p, 'DenyRuleGroupId'));
    expect(groupParents).toHaveLength(groupUses.length);
    for (const parent of groupParents) {
      const enabled = following(parent, childNamed(parent, 'DenyRuleGroupId') ?? element('x', ''));
      expect([enabled?.name, enabled?.text, enabled?.attributes.Locked]).toEqual(['Enabled', 'true', 'false']);
    }
    const ruleParents = deep(inMapping, 'DenyRuleUsage');
    expect(ruleParents.map((u) => childNamed(u, 'DenyRuleId')?.text).sort()).toEqual(rules.map((r) => r.attributes.Id).sort());
    for (const use of ruleParents) expect(following(use, childNamed(use, 'DenyRuleId') ?? element('x', ''))?.name).toBe('Enabled');
  });

  it('alec_table.xml lists the allow rules with Name and the "no restriction" IpPattern (DefaultId -100), and a DenyRuleUsage per rule', async () => {
    const c = await started();
    const allowRules = [{ name: 'static files', pathPattern: { pattern: '^/static/' } }, { name: 'api' }];
    const id = data(await c.call('POST', '/configuration/mappings', { body: { data: { type: 'mapping', attributes: { name: 'allow-one', allowRules } } } })).id as string;
    const root = xmlIn((await c.call('GET', `/configuration/mappings/${id}/export`)).bytes, 'alec_table.xml');
    const rules = deep(root, 'AllowRules', '*');
    expect(rules.map((r) => childNamed(r, 'Name')?.text)).toEqual(['static files', 'api']);
    for (const rule of rules) {
      const ip = childNamed(rule, 'IpPattern') ?? element('IpPattern', []);
      expect(['Name', 'Comment', 'Active', 'DefaultId'].map((n) => childNamed(ip, n) !== undefined)).toEqual([true, true, true, true]);
      expect(findAll(ip, 'Pattern/*').map((p) => p.name)).toEqual(['PatternString', 'IgnoreCase', 'InvertPattern', 'AirlockRegexFormat']);
      expect(childNamed(ip, 'DefaultId')?.text).toBe('-100');
      expect(childNamed(ip, 'Active')?.text).toBe('true');
    }
    const usages = deep(root, 'DenyRuleUsage');
    expect(usages.length).toBeGreaterThan(0);
    for (const u of usages) {
      expect(childNamed(u, 'DenyRuleId')?.text).toMatch(/^-?\d+$/);
      expect([childNamed(u, 'Enabled')?.text, childNamed(u, 'LogOnly')?.text]).toEqual(['true', 'false']);
    }

    // The same paths through fast-xml-parser, as a client library would read them.
    const raw = readZip((await c.call('GET', `/configuration/mappings/${id}/export`)).bytes)[0]?.data.toString('utf8') ?? '';
    const parsed = new XMLParser({ isArray: (name) => ['Mapping', 'AllowRule', 'DenyRuleGroupUsage', 'DenyRuleUsage'].includes(name) }).parse(raw) as {
      ConfigRoot: { Mappings: { Mapping: { Name: string; AllowRules: { AllowRule: { IpPattern: { DefaultId: number } }[] } }[] } };
    };
    const m = parsed.ConfigRoot.Mappings.Mapping[0];
    expect(m?.Name).toBe('allow-one');
    expect(m?.AllowRules.AllowRule.map((r) => r.IpPattern.DefaultId)).toEqual([-100, -100]);
  });

  /** What set_log_only.py does: set LogOnly (and Enabled) of every `.//DenyRuleUsage` whose DenyRuleId is in `ids`, as ElementTree writes it back. */
  function editUsage(zip: Buffer, ids: ReadonlySet<string>, enabled: string, logOnly: string): Buffer {
    const rewrite = (el: XmlElement): XmlElement => {
      const children = el.children.map(rewrite);
      if (el.name !== 'DenyRuleUsage' || !ids.has(childNamed(el, 'DenyRuleId')?.text ?? '')) return { ...el, children };
      return { ...el, children: children.map((c) => (c.name === 'Enabled' ? { ...c, text: enabled } : c.name === 'LogOnly' ? { ...c, text: logOnly } : c)) };
    };
    const text = writeXml(rewrite(xmlIn(zip, 'alec_table.xml'))).replace(/^<\?xml[^>]*\?>\n/, '');
    return writeZip([{ name: 'alec_table.xml', data: Buffer.from(text, 'utf8') }]);
  }

  it('an edit of Enabled / LogOnly of a DenyRuleUsage in alec_table.xml, re-imported with PUT, changes the mapping (seen in a re-export)', async () => {
    const c = await started();
    const id = data(await c.call('POST', '/configuration/mappings', { body: { data: { type: 'mapping', attributes: { name: 'log-only', backendPath: '/lo/' } } } })).id as string;
    const exported = (await c.call('GET', `/configuration/mappings/${id}/export`)).bytes;
    const all = deep(xmlIn(exported, 'alec_table.xml'), 'DenyRuleUsage', 'DenyRuleId').map((e) => e.text);
    const [first, second] = all;
    const upload = editUsage(editUsage(exported, new Set([first ?? '']), 'True', 'True'), new Set([second ?? '']), 'false', 'false');
    const imported = await c.call('PUT', '/configuration/mappings/import', { raw: upload, headers: { 'content-type': 'application/zip' } });
    expect(imported.status).toBe(200);
    expect(list(imported).map((m) => m.id)).toEqual([id]);

    const flags = (zip: Buffer, file: string): Record<string, [string, string]> =>
      Object.fromEntries(
        deep(xmlIn(zip, file), 'DenyRuleUsage').map((u) => [childNamed(u, 'DenyRuleId')?.text ?? '', [childNamed(u, 'Enabled')?.text ?? '', childNamed(u, 'LogOnly')?.text ?? '']]),
      );
    const after = flags((await c.call('GET', `/configuration/mappings/${id}/export`)).bytes, 'alec_table.xml');
    const expected = Object.fromEntries(all.map((r) => [r, r === first ? ['true', 'true'] : r === second ? ['false', 'false'] : ['true', 'false']]));
    expect(after).toEqual(expected);
    // The configuration archive shows the same use in the mapping, and the attributes are untouched.
    const full = xmlIn((await c.call('GET', '/configuration/configurations/export')).bytes, 'alec_full.xml');
    const inFull = findAll(full, 'Mappings/Mapping').find((m) => m.attributes.Id === id) ?? element('Mapping', []);
    expect(flags(writeZip([{ name: 'x.xml', data: Buffer.from(writeXml(inFull)) }]), 'x.xml')).toEqual(expected);
    expect((data(await c.call('GET', `/configuration/mappings/${id}`)).attributes as { backendPath: string }).backendPath).toBe('/lo/');
    // A PATCH of the mapping's attributes keeps its deny rule use.
    expect((await c.call('PATCH', `/configuration/mappings/${id}`, { body: { data: { type: 'mapping', id, attributes: { backendPath: '/patched/' } } } })).status).toBe(200);
    expect(flags((await c.call('GET', `/configuration/mappings/${id}/export`)).bytes, 'alec_table.xml')).toEqual(expected);

    // A copy (POST) takes the archive's use; an export of the original re-imported restores it.
    const copied = list(await c.call('POST', '/configuration/mappings/import', { raw: upload, headers: { 'content-type': 'application/zip' } }))[0]?.id as string;
    expect(flags((await c.call('GET', `/configuration/mappings/${copied}/export`)).bytes, 'alec_table.xml')).toEqual(expected);
    expect((await c.call('PUT', '/configuration/mappings/import', { raw: exported, headers: { 'content-type': 'application/zip' } })).status).toBe(200);
    expect(Object.values(flags((await c.call('GET', `/configuration/mappings/${id}/export`)).bytes, 'alec_table.xml'))).toEqual(all.map(() => ['true', 'false']));

    const bad = editUsage(exported, new Set([first ?? '']), 'maybe', 'false');
    const refused = await c.call('PUT', '/configuration/mappings/import', { raw: bad, headers: { 'content-type': 'application/zip' } });
    expect([refused.status, errorCode(refused)]).toEqual([400, 'INVALID_VALUE']);
  });

  it('a group Enabled edited to false in alec_table.xml is kept through export and import of the configuration', async () => {
    const a = await started();
    const id = data(await a.call('POST', '/configuration/mappings', { body: { data: { type: 'mapping', attributes: { name: 'group-off' } } } })).id as string;
    const exported = (await a.call('GET', `/configuration/mappings/${id}/export`)).bytes;
    const root = xmlIn(exported, 'alec_table.xml');
    const off = (el: XmlElement): XmlElement => ({
      ...el,
      children: el.children.map((c) => (el.name === 'DenyRuleGroupUsage' && c.name === 'Enabled' ? { ...c, text: 'false' } : off(c))),
    });
    const upload = writeZip([{ name: 'alec_table.xml', data: Buffer.from(writeXml(off(root)), 'utf8') }]);
    expect((await a.call('PUT', '/configuration/mappings/import', { raw: upload, headers: { 'content-type': 'application/zip' } })).status).toBe(200);
    const archive = (await a.call('GET', '/configuration/configurations/export')).bytes;
    const b = suite.client();
    await b.login();
    expect((await b.call('PUT', '/configuration/configurations/import', { raw: archive, headers: { 'content-type': 'application/zip' } })).status).toBe(200);
    const table = xmlIn((await b.call('GET', `/configuration/mappings/${id}/export`)).bytes, 'alec_table.xml');
    const groups = deep(table, 'DenyRuleGroupUsage');
    expect(groups.length).toBeGreaterThan(0);
    for (const g of groups) expect(childNamed(g, 'Enabled')?.text).toBe('false');
  });

  it('a configuration archive without the emulator content entry is refused with 400 INVALID_REQUEST_FORMAT', async () => {
    const c = await started();
    const exported = (await c.call('GET', '/configuration/configurations/export')).bytes;
    const onlyXml = writeZip(readZip(exported).filter((e) => e.name === 'alec_full.xml'));
    const refused = await c.call('PUT', '/configuration/configurations/import', { raw: onlyXml, headers: { 'content-type': 'application/zip' } });
    expect([refused.status, errorCode(refused)]).toEqual([400, 'INVALID_REQUEST_FORMAT']);
  });
});
