/**
 * The parts that let the emulator hold 100,000 mappings: the name index of ObjectMap, link
 * lists appended in place only where no one else sees them, and JSON text that reuses the
 * text of shared server defaults. Speed itself is measured by `npm run bench:emulator`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newObjectAttributes } from '../../../src/emulator/defaults.js';
import { jsonText, shareTree } from '../../../src/emulator/json-text.js';
import { addLinks, relationshipOf, removeAllLinks, removeLinks } from '../../../src/emulator/links.js';
import { ObjectMap, cloneContent, disown, emptyContent } from '../../../src/emulator/model.js';
import type { ConfigContent, Json, JsonObject, StoredObject } from '../../../src/emulator/model.js';
import type { RelationshipDefinition } from '../../../src/kinds/index.js';

const obj = (id: string, name: unknown): StoredObject => ({
  type: 'mapping',
  id,
  attributes: name === undefined ? {} : { name: name as Json },
  relationships: {},
});

describe('ObjectMap name index', () => {
  type Op = { op: 'set'; id: string; name: unknown } | { op: 'delete'; id: string } | { op: 'clear' } | { op: 'ask'; name: string };
  const names = fc.constantFrom('a', 'b', 'c', '', 'a,b');
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    { weight: 6, arbitrary: fc.record({ op: fc.constant('set' as const), id: fc.constantFrom('1', '2', '3', '4', '5'), name: fc.oneof(names, fc.constant(undefined), fc.constant(7)) }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), id: fc.constantFrom('1', '2', '3', '4', '5') }) },
    { weight: 1, arbitrary: fc.constant({ op: 'clear' as const }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('ask' as const), name: names }) },
  );

  it('answers what a pass over the objects answers, after any sequence of set, delete and clear, built early or late', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (ops) => {
        const map = new ObjectMap();
        for (const step of ops) {
          if (step.op === 'set') map.set(step.id, obj(step.id, step.name));
          else if (step.op === 'delete') map.delete(step.id);
          else if (step.op === 'clear') map.clear();
          else map.idsNamed(step.name);
          // a copy starts without an index and must agree too
          const copy = new ObjectMap(map);
          for (const name of ['a', 'b', 'c', '', 'a,b']) {
            const scan = [...map.values()].filter((o) => o.attributes.name === name).map((o) => o.id);
            const odd = [...map.values()].filter((o) => o.attributes.name !== undefined && typeof o.attributes.name !== 'string').map((o) => o.id);
            expect([...map.idsNamed(name)].sort()).toEqual([...scan].sort());
            expect([...copy.idsNamed(name, true)].sort()).toEqual([...scan, ...odd].sort());
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('links appended in place', () => {
  const toGroup = relationshipOf('mapping', 'back-end-groups', 'latest') as RelationshipDefinition;
  const toMappings = relationshipOf('back-end-group', 'mappings', 'latest') as RelationshipDefinition;

  function contentWith(mappings: number): ConfigContent {
    const content = emptyContent();
    content.objects['back-end-group'].set('1', { type: 'back-end-group', id: '1', attributes: { name: 'g' }, relationships: {} });
    for (let i = 2; i < 2 + mappings; i++) content.objects.mapping.set(String(i), obj(String(i), `m${i}`));
    content.nextId = 2 + mappings;
    return content;
  }
  const groupIds = (content: ConfigContent): readonly string[] => content.objects['back-end-group'].get('1')?.relationships.mappings ?? [];

  it('never change what a clone (a saved or activated configuration) or an earlier answer holds', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ mapping: fc.integer({ min: 2, max: 9 }), link: fc.boolean(), fromGroup: fc.boolean(), snapshot: fc.constantFrom('none', 'clone', 'disown') }), { maxLength: 30 }),
        (steps) => {
          const working = contentWith(8);
          const held: { group: StoredObject; ids: string[] }[] = [];
          const expected = new Set<string>();
          for (const step of steps) {
            const m = String(step.mapping);
            if (step.link && step.fromGroup) addLinks(working, 'back-end-group', '1', toMappings, [m]);
            else if (step.link) addLinks(working, 'mapping', m, toGroup, ['1']);
            else removeLinks(working, 'mapping', m, toGroup, ['1']);
            if (step.link) expected.add(m);
            else expected.delete(m);
            if (step.snapshot === 'clone') cloneContent(working);
            if (step.snapshot === 'disown') disown(working);
            // what a clone or a list being written holds from here on
            if (step.snapshot !== 'none') {
              const group = working.objects['back-end-group'].get('1');
              if (group) held.push({ group, ids: [...(group.relationships.mappings ?? [])] });
            }
          }
          expect([...groupIds(working)].sort()).toEqual([...expected].sort());
          for (const m of working.objects.mapping.values()) expect(m.relationships['back-end-groups'] ?? []).toEqual(expected.has(m.id) ? ['1'] : []);
          for (const h of held) expect(h.group.relationships.mappings ?? []).toEqual(h.ids);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('unlinking or deleting one of 20,000 linked objects edits the long side in place: no copy, no pass (the freed slot takes the last id)', () => {
    const content = contentWith(20_000);
    const ids = [...content.objects.mapping.keys()];
    for (const m of ids) addLinks(content, 'mapping', m, toGroup, ['1']);
    const before = groupIds(content);
    expect(before).toEqual(ids);
    removeLinks(content, 'mapping', '5', toGroup, ['1']);
    removeAllLinks(content, 'mapping', '9');
    content.objects.mapping.delete('9');
    removeLinks(content, 'back-end-group', '1', toMappings, ['12']);
    const after = groupIds(content);
    expect(after).toBe(before);
    expect(after.length).toBe(20_000 - 3);
    // '5' took the last id (20001), '9' the one before it, '12' the next.
    expect([after[3], after[7], after[10]]).toEqual(['20001', '20000', '19999']);
    expect(new Set(after)).toEqual(new Set(ids.filter((m) => !['5', '9', '12'].includes(m))));
    for (const m of ['5', '12']) expect(content.objects.mapping.get(m)?.relationships['back-end-groups']).toEqual([]);
    // A clone holds the list as it was; the next removal works on a copy.
    const clone = cloneContent(content);
    removeLinks(content, 'mapping', '2', toGroup, ['1']);
    expect(groupIds(clone)).toBe(after);
    expect(groupIds(clone).length).toBe(20_000 - 3);
    expect(groupIds(content).length).toBe(20_000 - 4);
  });

  it('link one object to 20,000 others in one call, each once, both sides', () => {
    const content = contentWith(20_000);
    const ids = [...content.objects.mapping.keys()];
    addLinks(content, 'back-end-group', '1', toMappings, [...ids, ...ids.slice(0, 100)]);
    expect(groupIds(content)).toEqual(ids);
    expect(content.objects.mapping.get('20001')?.relationships['back-end-groups']).toEqual(['1']);
    removeLinks(content, 'back-end-group', '1', toMappings, ids.slice(0, 10_000));
    expect(groupIds(content)).toEqual(ids.slice(10_000));
    expect(content.objects.mapping.get('2')?.relationships['back-end-groups']).toEqual([]);
  });
});

describe('jsonText', () => {
  it('writes what JSON.stringify writes, for any JSON value, shared or not', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, share) => {
        const copy = structuredClone(value) as Json;
        if (share) shareTree(copy);
        expect(jsonText(copy)).toBe(JSON.stringify(value));
        expect(jsonText({ outer: copy, list: [copy, undefined, null] })).toBe(JSON.stringify({ outer: value, list: [value, undefined, null] }));
      }),
      { numRuns: 300 },
    );
  });

  it('writes an object over shared server defaults as JSON.stringify does, members in the same order', () => {
    const given = JSON.parse('{"name":"m","entryPath":{"value":"/x/","priority":3},"labels":["a"],"__proto__":1}') as JsonObject;
    const attributes = newObjectAttributes('mapping', 'latest', given);
    expect(jsonText(attributes)).toBe(JSON.stringify(attributes));
    expect(jsonText({ skipped: undefined, n: -0, nan: NaN, text: '\u2028"\\' })).toBe(JSON.stringify({ skipped: undefined, n: -0, nan: NaN, text: '\u2028"\\' }));
  });
});
