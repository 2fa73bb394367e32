/**
 * Built-in entities: docs/gateway-api.md "Documents and ids" and "Errors". A fresh
 * emulator lists the kinds' built-ins under negative ids; they can be read and linked to,
 * never changed (409 `DEFAULT_ENTITY_MODIFICATION`, 400 on the earliest variant).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorCode, linkedIds, PEM, startHarness, uniqueName, VALID, useAdminSession } from './client.js';
import type { Client, Harness, Reply } from './client.js';

function refused(reply: Reply, status = 409): void {
  expect([reply.status, errorCode(reply)]).toEqual([status, 'DEFAULT_ENTITY_MODIFICATION']);
}

describe('built-in entities', () => {
  let c: Client;
  let h: Harness;
  useAdminSession((harness, client) => {
    h = harness;
    c = client;
  });

  it('a fresh emulator lists a default virtual host and a default certificate under negative ids, linked', async () => {
    const host = (await c.list('virtual-host')).find((o) => o.id === '-1000');
    expect(host?.attributes.name).toBe('default');
    expect(linkedIds(host ?? { type: '', id: '', attributes: {} }, 'ssl-certificate')).toEqual(['-1000']);
    const certificate = await c.read('ssl-certificate', '-1000');
    expect(certificate.attributes.certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(linkedIds(certificate, 'virtual-hosts')).toEqual(['-1000']);
    expect(await c.list('virtual-host', 'filter=name==default')).toHaveLength(1);
  });

  it('they raise no validator message, so a fresh configuration activates', async () => {
    expect((await c.messages()).filter((m) => String(m.id).includes('--1000'))).toEqual([]);
  });

  it('PATCH, DELETE, item actions and relationship calls on a built-in answer 409 and change nothing', async () => {
    const before = await c.read('virtual-host', '-1000');
    refused(await c.patch('virtual-host', '-1000', { hostName: 'changed.example.com' }));
    refused(await c.call('DELETE', '/configuration/virtual-hosts/-1000'));
    refused(await c.call('DELETE', '/configuration/ssl-certificates/-1000'));
    refused(await c.call('POST', '/configuration/virtual-hosts/-1000/maintenance'));
    refused(await c.relationship('DELETE', 'virtual-host', '-1000', 'ssl-certificate', 'ssl-certificate', ['-1000']));
    const mapping = await c.create('mapping', VALID.mapping(uniqueName('to-default')));
    refused(await c.relationship('PATCH', 'virtual-host', '-1000', 'mappings', 'mapping', [mapping]));
    refused(await c.relationship('PATCH', 'ssl-certificate', '-1000', 'virtual-hosts', 'virtual-host', ['-1000']));
    expect(await c.read('virtual-host', '-1000')).toEqual(before);
  });

  it('other objects may link to a built-in on its to-many side (a host uses the default certificate)', async () => {
    const host = await c.create('virtual-host', VALID.virtualHost(uniqueName('uses-default')));
    const linked = await c.relationship('PATCH', 'virtual-host', host, 'ssl-certificate', 'ssl-certificate', ['-1000']);
    expect(linked.status).toBe(204);
    expect(linkedIds(await c.read('ssl-certificate', '-1000'), 'virtual-hosts')).toEqual(['-1000', host]);
    expect((await c.relationship('DELETE', 'virtual-host', host, 'ssl-certificate', 'ssl-certificate', ['-1000'])).status).toBe(204);
    expect(linkedIds(await c.read('ssl-certificate', '-1000'), 'virtual-hosts')).toEqual(['-1000']);
  });

  it('a link that would replace a built-in to-one relationship is refused', async () => {
    const certificate = await c.create('ssl-certificate', { certificate: PEM });
    refused(await c.relationship('PATCH', 'ssl-certificate', certificate, 'virtual-hosts', 'virtual-host', ['-1000']));
    expect(linkedIds(await c.read('virtual-host', '-1000'), 'ssl-certificate')).toEqual(['-1000']);
  });

  it('load-empty-config holds the built-ins too', async () => {
    const d = h.client();
    await d.createSession(h.emulator.apiKey);
    expect((await d.call('POST', '/configuration/configurations/load-empty-config', { json: { hostname: 'gw' } })).status).toBe(204);
    expect((await d.list('ssl-certificate')).map((o) => o.id)).toEqual(['-1000']);
    await d.terminate();
  });
});

describe('built-in entities on other variants and options', () => {
  it('the earliest variant refuses with 400 (it has no 409)', async () => {
    const early = await startHarness({ variant: 'earliest' });
    try {
      const e = await early.client().open(early.emulator.apiKey);
      refused(await e.call('DELETE', '/configuration/virtual-hosts/-1000'), 400);
      expect((await e.read('virtual-host', '-1000')).attributes.name).toBe('default');
    } finally {
      await early.close();
    }
  });

  it('builtIns: false starts empty', async () => {
    const bare = await startHarness({ builtIns: false });
    try {
      const b = await bare.client().open(bare.emulator.apiKey);
      expect(await b.list('virtual-host')).toEqual([]);
      expect(await b.list('ssl-certificate')).toEqual([]);
    } finally {
      await bare.close();
    }
  });

  it('an emulator restored from a state file is not seeded again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gwops-built-ins-'));
    const stateFile = join(dir, 'state.json');
    try {
      const first = await startHarness({ builtIns: false, stateFile, tls: false });
      await first.close();
      const again = await startHarness({ stateFile, tls: false });
      try {
        const a = await again.client().open(again.emulator.apiKey);
        expect(await a.list('virtual-host')).toEqual([]);
      } finally {
        await again.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
