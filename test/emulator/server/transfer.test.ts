import { describe, expect, it } from 'vitest';
import { parseXml, childNamed, childrenNamed } from '../../../src/emulator/xml.js';
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

  it('a configuration export holds alec_full.xml with ./Nodes/*/HostName, and export, load-empty-config, import round-trips', async () => {
    const a = await started();
    await a.call('POST', '/configuration/back-end-groups', { body: { data: { type: 'back-end-group', attributes: { name: 'xml-carried' } } } });
    const exported = await a.call('GET', '/configuration/configurations/export');
    expect(readZip(exported.bytes).map((e) => e.name)).toEqual(['alec_full.xml']);
    const root = xmlIn(exported.bytes, 'alec_full.xml');
    const [hostName] = texts(root, ['Nodes', '*', 'HostName']);
    expect(hostName).toMatch(/.+/);
    expect(childNamed(root, 'Objects')?.children.length).toBeGreaterThan(0);

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
    expect(readZip(again.bytes)[0]?.data.toString('utf8')).toBe(readZip(exported.bytes)[0]?.data.toString('utf8'));
  });
});
