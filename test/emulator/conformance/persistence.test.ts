/**
 * Persistence with a state file (`--state-file`): configurations survive a restart, and the
 * file is written atomically (a stray temp file of a crashed write never corrupts it).
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KINDS, contentResourceOf } from '../../../src/kinds/index.js';
import { at, many, one, startHarness, VALID } from './client.js';
import type { Harness } from './client.js';
import { KIND_EXAMPLES } from '../../support/kind-examples.js';
import type { ExampleFixtures } from '../../support/kind-examples.js';

/** The kinds with content need no certificate for their examples. */
const NO_FIXTURES: ExampleFixtures = {
  certificate: () => Promise.reject(new Error('no certificate in this test')),
};

describe('persistence with stateFile', () => {
  let dir: string;
  let stateFile: string;
  let h: Harness | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gwops-conformance-'));
    stateFile = join(dir, 'state.json');
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  async function activateOne(comment: string, groupName: string): Promise<void> {
    if (h === undefined) throw new Error('no emulator');
    const c = await h.client().open(h.emulator.apiKey);
    const vhost = await c.create('virtual-host', VALID.virtualHost(`${groupName}-vh`));
    const group = await c.create('back-end-group', VALID.backEndGroup(groupName));
    const mapping = await c.create('mapping', VALID.mapping(`${groupName}-map`));
    await c.relationship('PATCH', 'virtual-host', vhost, 'mappings', 'mapping', [mapping]);
    await c.relationship('PATCH', 'mapping', mapping, 'back-end-groups', 'back-end-group', [group]);
    const reply = await c.activate(comment);
    if (reply.status !== 200) throw new Error(`activation answered ${reply.status}: ${reply.text}`);
    await c.terminate();
  }

  async function expectActive(comment: string, groupName: string): Promise<void> {
    if (h === undefined) throw new Error('no emulator');
    expect(at(h.emulator.activeSnapshot(), 'comment')).toBe(comment);
    const c = h.client();
    await c.createSession(h.emulator.apiKey);
    const list = many(await c.call('GET', '/configuration/configurations'));
    const active = list.find((e) => e.attributes.configType === 'CURRENTLY_ACTIVE');
    expect(active?.attributes.comment).toBe(comment);
    expect((await c.call('POST', '/configuration/configurations/load-active')).status).toBe(204);
    const groups = await c.list('back-end-group', `filter=name==${groupName}`);
    expect(groups).toHaveLength(1);
    // links survive as well
    const mapping = (await c.list('mapping', `filter=name==${groupName}-map`))[0];
    expect(mapping?.relationships?.['back-end-groups']?.data).toEqual([{ type: 'back-end-group', id: groups[0]?.id }]);
    expect(mapping?.relationships?.['virtual-hosts']?.data).toHaveLength(1);
  }

  it('the active configuration and its comment survive a restart', async () => {
    h = await startHarness({ stateFile });
    await activateOne('release 1.2.3', 'persisted');
    await h.close();
    h = undefined;

    h = await startHarness({ stateFile });
    await expectActive('release 1.2.3', 'persisted');
  });

  it('the content of every kind that has one survives a restart, byte for byte', async () => {
    h = await startHarness({ stateFile });
    const c = await h.client().open(h.emulator.apiKey);
    const stored = new Map<string, { bytes: string; mediaType: string }>();
    for (const kind of KINDS.filter((k) => k.content === true)) {
      const { segment, mediaType } = contentResourceOf(kind);
      const octets = { 'content-type': mediaType, accept: mediaType };
      // A valid object (the activation validates): the kind's own example, which needs no link for the kinds with content.
      const example = await KIND_EXAMPLES[kind.type](`kept-${kind.type}`, NO_FIXTURES);
      expect(example.requires ?? []).toEqual([]);
      const id = await c.create(kind.type, { ...example.attributes, name: `kept-${kind.type}` });
      const bytes = Buffer.from(`${kind.type}\r\n\u00ff\u0000 spec`, 'latin1');
      expect((await c.call('PUT', `/configuration/${kind.collection}/${id}/${segment}`, { raw: bytes, headers: octets })).status).toBe(204);
      stored.set(`/configuration/${kind.collection}/${id}/${segment}`, { bytes: bytes.toString('latin1'), mediaType });
    }
    expect(stored.size).toBeGreaterThan(0);
    expect((await c.activate('with content')).status).toBe(200);
    await h.close();
    h = undefined;

    h = await startHarness({ stateFile });
    const after = h.client();
    await after.createSession(h.emulator.apiKey);
    expect((await after.call('POST', '/configuration/configurations/load-active')).status).toBe(204);
    for (const [path, { bytes, mediaType }] of stored) {
      const read = await after.call('GET', path, { headers: { accept: mediaType } });
      expect([read.status, read.raw.toString('latin1')]).toEqual([200, bytes]);
    }
  });

  it('saved configurations survive a restart and can be loaded', async () => {
    h = await startHarness({ stateFile });
    const c = await h.client().open(h.emulator.apiKey);
    await c.create('back-end-group', VALID.backEndGroup('saved-only'));
    const saved = one(await c.call('POST', '/configuration/configurations/save', { json: { comment: 'saved for later' } })).id;
    await h.close();
    h = undefined;

    h = await startHarness({ stateFile });
    const d = h.client();
    await d.createSession(h.emulator.apiKey);
    const entry = many(await d.call('GET', '/configuration/configurations')).find((e) => e.id === saved);
    expect(entry?.attributes.comment).toBe('saved for later');
    expect((await d.call('POST', `/configuration/configurations/${saved}/load`)).status).toBe(204);
    expect((await d.list('back-end-group')).map((g) => g.attributes.name)).toEqual(['saved-only']);
  });

  it('a deleted saved configuration stays deleted after a restart; sessions do not survive it', async () => {
    h = await startHarness({ stateFile });
    const c = await h.client().open(h.emulator.apiKey);
    const keep = one(await c.call('POST', '/configuration/configurations/save', { json: { comment: 'keep' } })).id;
    const drop = one(await c.call('POST', '/configuration/configurations/save', { json: { comment: 'drop' } })).id;
    expect((await c.call('DELETE', `/configuration/configurations/${drop}`)).status).toBe(204);
    const cookie = c.cookie;
    await h.close();
    h = undefined;

    h = await startHarness({ stateFile });
    const d = h.client();
    await d.createSession(h.emulator.apiKey);
    const ids = many(await d.call('GET', '/configuration/configurations')).map((e) => e.id);
    expect(ids).toContain(keep);
    expect(ids).not.toContain(drop);
    const stale = h.client();
    stale.cookie = cookie;
    expect((await stale.call('GET', '/configuration/configurations')).status).toBe(401);
  });

  it('ids handed out after a restart do not collide with persisted ones', async () => {
    h = await startHarness({ stateFile });
    await activateOne('first', 'first-group');
    await h.close();
    h = undefined;

    h = await startHarness({ stateFile });
    const c = await h.client().open(h.emulator.apiKey);
    const before = new Set<string>();
    for (const { type } of KINDS.filter((k) => !k.singleton)) for (const o of await c.list(type)) before.add(o.id);
    const fresh = await c.create('back-end-group', VALID.backEndGroup('after-restart'));
    expect(before.has(fresh)).toBe(false);
  });

  it('a stray temp file from a crashed write does not corrupt the state', async () => {
    h = await startHarness({ stateFile });
    await activateOne('before the crash', 'survivor');
    await h.close();
    h = undefined;
    const intact = await readFile(stateFile, 'utf8');

    // what a write that crashed half-way leaves beside the file, under the usual temp names
    const partial = intact.slice(0, Math.floor(intact.length / 2));
    for (const name of ['state.json.tmp', `state.json.${process.pid}.tmp`, '.state.json.tmp', '.state.json.0123456789ab.tmp', 'state.json~', 'state.json.tmp-1234']) {
      await writeFile(join(dir, name), partial);
    }

    h = await startHarness({ stateFile });
    await expectActive('before the crash', 'survivor');
    // and writing again still works, leaving a readable state for the next start
    await activateOne('after the crash', 'next');
    await h.close();
    h = undefined;
    h = await startHarness({ stateFile });
    await expectActive('after the crash', 'next');
  });

  it('the state file is complete JSON after every activation (written whole, then renamed)', async () => {
    h = await startHarness({ stateFile });
    for (let i = 1; i <= 3; i += 1) {
      await activateOne(`round ${i}`, `round-${i}`);
      const text = await readFile(stateFile, 'utf8');
      expect(() => JSON.parse(text) as unknown).not.toThrow();
      expect(text).toContain(`round ${i}`);
    }
    const left = (await readdir(dir)).filter((f) => f !== 'state.json');
    expect(left).toEqual([]);
  });

  it('a fresh state file path starts empty and is created on the first activation', async () => {
    h = await startHarness({ stateFile });
    const c = await h.client().open(h.emulator.apiKey);
    expect(await c.list('back-end-group')).toEqual([]);
    await c.create('back-end-group', VALID.backEndGroup('first'));
    expect((await c.activate('first')).status).toBe(200);
    expect((await readdir(dir)).includes('state.json')).toBe(true);
  });
});
