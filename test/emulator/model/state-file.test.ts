/**
 * The state file (format 2, written and read piece by piece, attributes as differences from
 * the defaults) gives back every object exactly, shares the server defaults again, and
 * still reads format 1.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergeAttributes } from '../../../src/emulator/attributes.js';
import { ConfigurationStore } from '../../../src/emulator/configurations.js';
import { defaultAttributes, newObjectAttributes } from '../../../src/emulator/defaults.js';
import { jsonText } from '../../../src/emulator/json-text.js';
import { addLinks, relationshipOf } from '../../../src/emulator/links.js';
import { cloneContent, emptyContent } from '../../../src/emulator/model.js';
import type { ConfigContent, JsonObject, StoredObject } from '../../../src/emulator/model.js';
import { ConfigError } from '../../../src/core/errors.js';
import type { RelationshipDefinition } from '../../../src/kinds/index.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gwops-state-file-'));
  file = join(dir, 'state.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const COUNT = 20_000;

/** 20,000 mappings linked to one back-end group, a few of them unusual. */
function bigContent(): ConfigContent {
  const content = emptyContent();
  content.objects['back-end-group'].set('1', {
    type: 'back-end-group',
    id: '1',
    attributes: newObjectAttributes('back-end-group', 'latest', { name: 'g', backendHosts: [{ hostName: 'h' }] }),
    relationships: {},
  });
  for (let i = 0; i < COUNT; i++) {
    const id = String(i + 2);
    let attributes = newObjectAttributes('mapping', 'latest', { name: `m-${i}`, labels: [`l${i % 3}`], entryPath: { value: `/m${i}/`, priority: i % 999 } });
    if (i === 1) attributes = mergeAttributes(attributes, { limits: { general: { maxRequestBodySize: 5 } }, backendPath: '/x/' });
    if (i === 2) {
      // a member of the defaults missing, at the top and further down
      const { backendPath: _gone, ...rest } = attributes;
      const entryPath = { ...(rest.entryPath as JsonObject) };
      delete entryPath.regexFormatEnforced;
      attributes = { ...rest, entryPath };
    }
    if (i === 3) attributes = mergeAttributes(attributes, JSON.parse('{"__proto__":{"x":1},"labels":[]}') as JsonObject);
    const obj: StoredObject = { type: 'mapping', id, attributes, relationships: {}, ...(i === 4 ? { denyRuleUsage: { '-7': { enabled: false, logOnly: true } } } : {}) };
    content.objects.mapping.set(id, obj);
  }
  content.nextId = COUNT + 2;
  addLinks(content, 'back-end-group', '1', relationshipOf('back-end-group', 'mappings', 'latest') as RelationshipDefinition, [...content.objects.mapping.keys()]);
  return content;
}

/** The configurations of `b` that differ from `a`'s, and the objects in them that differ (as JSON text, member order included). */
function differences(a: ConfigurationStore, b: ConfigurationStore): string[] {
  const out: string[] = [];
  const theirs = new Map(b.list().map((e) => [e.id, e]));
  for (const entry of a.list()) {
    const other = theirs.get(entry.id);
    if (!other || other.comment !== entry.comment || other.origin !== entry.origin || other.content.nextId !== entry.content.nextId) {
      out.push(`configuration ${entry.id}`);
      continue;
    }
    for (const [type, map] of Object.entries(entry.content.objects)) {
      const otherMap = other.content.objects[type as keyof typeof entry.content.objects];
      if (otherMap.size !== map.size) out.push(`${entry.id}: ${type} count`);
      for (const [id, obj] of map) if (jsonText(obj) !== jsonText(otherMap.get(id))) out.push(`${entry.id}: ${type} ${id}`);
    }
  }
  if (theirs.size !== a.list().length) out.push('configuration count');
  return out;
}

describe('state file', () => {
  it('round-trips 20,000 linked mappings in two configurations exactly, their defaults shared again', async () => {
    const store = ConfigurationStore.open(file, 'latest', new Date('2026-01-01T00:00:00Z'), emptyContent);
    const working = bigContent();
    store.save(cloneContent(working), 'saved', 'admin');
    working.objects.mapping.set('5', { ...(working.objects.mapping.get('5') as StoredObject), attributes: newObjectAttributes('mapping', 'latest', { name: 'changed' }) });
    store.activate(cloneContent(working), 'active', 'admin');
    const text = await readFile(file, 'utf8');
    // one JSON document, far smaller than the objects' full attributes (about 9 kB each)
    expect(JSON.parse(text)).toMatchObject({ formatVersion: 2 });
    expect(text.length).toBeLessThan(COUNT * 1000);

    const again = ConfigurationStore.open(file, 'latest');
    expect(differences(store, again)).toEqual([]);
    expect(again.activationCount()).toBe(1);
    const mapping = again.active().content.objects.mapping.get('100');
    expect(mapping?.attributes.access).toBe(defaultAttributes('mapping', 'latest').access);
    // the changed object is stored once per version, the unchanged ones once for both configurations
    expect(text.match(/"id":"5"/g)).toHaveLength(2);
    expect(text.match(/"id":"6"/g)).toHaveLength(1);
  });

  it('keeps the values an object had when the defaults it was written with differ from the current ones', async () => {
    const store = ConfigurationStore.open(file, 'latest', new Date(), emptyContent);
    const content = emptyContent();
    content.objects.mapping.set('2', { type: 'mapping', id: '2', attributes: newObjectAttributes('mapping', 'latest', { name: 'm' }), relationships: {} });
    content.nextId = 3;
    store.activate(content, 'c', 'admin');
    const text = await readFile(file, 'utf8');
    const backendPath = defaultAttributes('mapping', 'latest').backendPath;
    // as if an older emulator had written it, whose default back-end path was another
    await writeFile(file, text.replace(/("defaults":\{"type":"mapping".*?"backendPath":)"[^"]*"/, '$1"/older/"'));
    const again = ConfigurationStore.open(file, 'latest');
    expect(again.active().content.objects.mapping.get('2')?.attributes.backendPath).toBe('/older/');
    expect(backendPath).not.toBe('/older/');
  });

  it('reads a state file of format 1 (one JSON object, full attributes)', async () => {
    const attributes = newObjectAttributes('mapping', 'latest', { name: 'old' });
    const v1 = {
      formatVersion: 1,
      variant: 'latest',
      activeId: '2',
      activationCount: 1,
      nextConfigId: 3,
      objects: [{ type: 'mapping', id: '4', attributes, relationships: {} }],
      entries: [
        { id: '1', origin: 'INITIAL', createdAt: '2026-01-01T00:00:00.000Z', createdBy: 'system', nextId: 1, objects: [] },
        { id: '2', origin: 'ACTIVATED', comment: 'x', createdAt: '2026-01-01T00:00:01.000Z', createdBy: 'admin', nextId: 5, objects: [0] },
      ],
    };
    await writeFile(file, JSON.stringify(v1));
    const store = ConfigurationStore.open(file, 'latest');
    expect(store.active().comment).toBe('x');
    expect(store.active().content.objects.mapping.get('4')?.attributes).toEqual(attributes);
    expect(store.list()).toHaveLength(2);
  });

  it('refuses a truncated file, an unknown format and another variant with a ConfigError', async () => {
    ConfigurationStore.open(file, 'latest', new Date(), () => {
      const content = emptyContent();
      content.objects.mapping.set('2', { type: 'mapping', id: '2', attributes: newObjectAttributes('mapping', 'latest', { name: 'm' }), relationships: {} });
      return content;
    });
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.slice(0, Math.floor(text.length / 2)));
    expect(() => ConfigurationStore.open(file, 'latest')).toThrow(ConfigError);
    await writeFile(file, '{"formatVersion":9}');
    expect(() => ConfigurationStore.open(file, 'latest')).toThrow(/unknown formatVersion 9/);
    await writeFile(file, text);
    expect(() => ConfigurationStore.open(file, 'earliest')).toThrow(/latest variant/);
  });
});
