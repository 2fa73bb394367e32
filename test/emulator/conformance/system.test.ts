/**
 * License and nodes (docs/gateway-api.md "License and nodes"), as real clients use them:
 * a listing client reads the license's owner, environment and back-end hosts and sends the
 * raw license back; a gateway-sync client renames the current node to the archive's node
 * name around a configuration import.
 */
import { describe, expect, it } from 'vitest';
import { childNamed, parseXml, writeXml } from '../../../src/emulator/xml.js';
import type { XmlElement } from '../../../src/emulator/xml.js';
import { readZip, writeZip } from '../../../src/emulator/zip.js';
import { errorCode, many, one, startHarness, useAdminSession } from './client.js';
import type { Client } from './client.js';

describe('license', () => {
  let c: Client;
  useAdminSession((_h, client) => {
    c = client;
  });

  it('GET answers type license-response with owner, environment, backendHosts and rawLicense', async () => {
    const reply = await c.call('GET', '/configuration/license');
    expect(reply.status).toBe(200);
    const license = one(reply);
    expect(license.type).toBe('license-response');
    expect(Object.keys(license.attributes).sort()).toEqual(['backendHosts', 'environment', 'owner', 'rawLicense']);
    for (const value of Object.values(license.attributes)) expect(typeof value).toBe('string');
  });

  it('PATCH takes type license with attribute license and answers 200 with the document; DELETE 204 then 404', async () => {
    const patched = await c.call('PATCH', '/configuration/license', { json: { data: { type: 'license', attributes: { license: 'LICENSE-TEXT-1' } } } });
    expect(patched.status).toBe(200);
    expect(one(patched).attributes.rawLicense).toBe('LICENSE-TEXT-1');
    expect(one(await c.call('GET', '/configuration/license')).attributes.rawLicense).toBe('LICENSE-TEXT-1');
    const wrong = await c.call('PATCH', '/configuration/license', { json: { data: { type: 'license', attributes: { rawLicense: 'x' } } } });
    expect([wrong.status, errorCode(wrong)]).toEqual([400, 'INVALID_VALUE']);
    expect((await c.call('DELETE', '/configuration/license')).status).toBe(204);
    expect((await c.call('GET', '/configuration/license')).status).toBe(404);
    expect((await c.call('DELETE', '/configuration/license')).status).toBe(404);
    expect((await c.call('PATCH', '/configuration/license', { json: { data: { type: 'license', attributes: { license: 'AGAIN' } } } })).status).toBe(200);
  });
});

/** The archive's `alec_full.xml` with its first node's `HostName` replaced. */
function withNodeName(archive: Buffer, hostName: string): Buffer {
  const entries = readZip(archive);
  const rename = (e: XmlElement): XmlElement =>
    e.name === 'HostName' ? { ...e, text: hostName } : { ...e, children: e.children.map(rename) };
  return writeZip(
    entries.map((e) => (e.name === 'alec_full.xml' ? { name: e.name, data: Buffer.from(writeXml(rename(parseXml(e.data.toString('utf8')))), 'utf8') } : e)),
  );
}

function hostNameIn(archive: Buffer): string | undefined {
  const entry = readZip(archive).find((e) => e.name === 'alec_full.xml');
  const root = entry === undefined ? undefined : parseXml(entry.data.toString('utf8'));
  const node = root === undefined ? undefined : childNamed(root, 'Nodes')?.children[0];
  return node === undefined ? undefined : childNamed(node, 'HostName')?.text;
}

describe('nodes', () => {
  let c: Client;
  useAdminSession((_h, client) => {
    c = client;
  });

  it('GET /nodes/current answers its id and hostName, and is no id of the nodes collection, which lists the configuration\'s nodes', async () => {
    const current = await c.call('GET', '/configuration/nodes/current');
    expect(current.status).toBe(200);
    expect(one(current).type).toBe('node');
    expect(typeof one(current).attributes.hostName).toBe('string');
    const created = await c.call('POST', '/configuration/nodes', { json: { data: { type: 'node', attributes: { hostName: 'gw-peer.cluster.internal' } } } });
    expect(created.status).toBe(201);
    const nodes = many(await c.call('GET', '/configuration/nodes'));
    expect(nodes.map((n) => n.attributes.hostName)).toContain('gw-peer.cluster.internal');
    expect((await c.call('DELETE', `/configuration/nodes/${one(created).id}`)).status).toBe(204);
  });

  it('PATCH /nodes/current with the whole GET document renames the node (200), and status/node follows', async () => {
    const before = one(await c.call('GET', '/configuration/nodes/current'));
    const renamed = await c.call('PATCH', '/configuration/nodes/current', { json: { data: { ...before, attributes: { ...before.attributes, hostName: 'gw-source' } } } });
    expect(renamed.status).toBe(200);
    expect(one(renamed).attributes.hostName).toBe('gw-source');
    expect(one(await c.call('GET', '/system/status/node')).attributes.hostName).toBe('gw-source');
    const back = await c.call('PATCH', '/configuration/nodes/current', { json: { data: { type: 'node', attributes: { hostName: before.attributes.hostName } } } });
    expect(one(back).attributes.hostName).toBe(before.attributes.hostName);
    const empty = await c.call('PATCH', '/configuration/nodes/current', { json: { data: { type: 'node', attributes: { hostName: '' } } } });
    expect([empty.status, errorCode(empty)]).toEqual([400, 'INVALID_VALUE']);
  });

  it('an import of another node is refused with 422 RESOLUTION_REQUIRED until the node is renamed to match', async () => {
    const exported = await c.call('GET', '/configuration/configurations/export');
    expect(exported.status).toBe(200);
    const own = hostNameIn(exported.raw);
    expect(own).toBe(one(await c.call('GET', '/configuration/nodes/current')).attributes.hostName);
    const foreign = withNodeName(exported.raw, 'gw-elsewhere');
    const zip = { 'content-type': 'application/zip' };
    const refused = await c.call('PUT', '/configuration/configurations/import', { raw: foreign, headers: zip });
    expect([refused.status, errorCode(refused)]).toEqual([422, 'RESOLUTION_REQUIRED']);
    expect((await c.call('PUT', '/configuration/configurations/import?resolution=takeOver', { raw: foreign, headers: zip })).status).toBe(200);

    // the gateway-sync way: rename, import, rename back
    await c.call('PATCH', '/configuration/nodes/current', { json: { data: { type: 'node', attributes: { hostName: 'gw-elsewhere' } } } });
    expect((await c.call('PUT', '/configuration/configurations/import', { raw: foreign, headers: zip })).status).toBe(200);
    await c.call('PATCH', '/configuration/nodes/current', { json: { data: { type: 'node', attributes: { hostName: own } } } });
    expect((await c.call('PUT', '/configuration/configurations/import', { raw: exported.raw, headers: zip })).status).toBe(200);
  });

  it('the earliest variant imports an archive of another node without a resolution', async () => {
    const early = await startHarness({ variant: 'earliest' });
    try {
      const e = await early.client().open(early.emulator.apiKey);
      const exported = await e.call('GET', '/configuration/configurations/export');
      const imported = await e.call('PUT', '/configuration/configurations/import', { raw: withNodeName(exported.raw, 'gw-elsewhere'), headers: { 'content-type': 'application/zip' } });
      expect(imported.status).toBe(200);
    } finally {
      await early.close();
    }
  });
});
