/**
 * Live links are read from both ends of each link; the live state reads the canonical end
 * and skips what the other end repeats. Property: for any links between virtual hosts,
 * mappings and back-end groups (a built-in virtual host among them), with any objects left
 * out of the fetched lists and any objects whose list entry lacks a relationship, the live
 * links are exactly the union of what every fetched end shows, and every link has its key.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiResource } from '../../src/api/documents.js';
import { liveState } from '../../src/engine/live.js';
import { UNKNOWN_ID_PREFIX, canonicalLink, linkKey, linkKeysOf, relationshipDefinition } from '../../src/engine/model.js';
import type { ResourceType } from '../../src/kinds/index.js';

interface World {
  readonly hosts: number;
  readonly mappings: number;
  readonly groups: number;
  readonly hostLinks: readonly (readonly [number, number])[];
  readonly groupLinks: readonly (readonly [number, number])[];
  /** Objects left out of the lists (by kind and index). */
  readonly missing: readonly string[];
  /** Objects whose list entry lacks one of its relationships (kind, index, relationship). */
  readonly lacking: readonly string[];
}

/** Ids: virtual host 0 is the built-in `default` (id -1); others count up per kind. */
const idOf = (kind: ResourceType, index: number): string => (kind === 'virtual-host' && index === 0 ? '-1' : String({ 'virtual-host': 100, mapping: 1000, 'back-end-group': 5000 }[kind as string]! + index));

function lists(world: World): Partial<Record<ResourceType, ApiResource[]>> {
  const out: Partial<Record<ResourceType, ApiResource[]>> = {};
  const add = (kind: ResourceType, count: number, name: (i: number) => string, relationships: (i: number) => Record<string, [ResourceType, number[]]>): void => {
    const resources: ApiResource[] = [];
    for (let i = 0; i < count; i++) {
      if (world.missing.includes(`${kind}/${i}`)) continue;
      const members: ApiResource['relationships'] = Object.fromEntries(
        Object.entries(relationships(i))
          .filter(([relationship]) => !world.lacking.includes(`${kind}/${i}/${relationship}`))
          .map(([relationship, [target, indexes]]) => [relationship, { data: indexes.map((t) => ({ type: target, id: idOf(target, t) })) }]),
      );
      resources.push({ type: kind, id: idOf(kind, i), attributes: { name: name(i) }, relationships: members });
    }
    out[kind] = resources;
  };
  const targets = (links: readonly (readonly [number, number])[], side: 0 | 1, index: number): number[] => [...new Set(links.filter((l) => l[side] === index).map((l) => l[1 - side] as number))];
  add('virtual-host', world.hosts, (i) => (i === 0 ? 'default' : `vh${i}`), (i) => ({ mappings: ['mapping', targets(world.hostLinks, 0, i)] }));
  add('mapping', world.mappings, (i) => `m${i}`, (i) => ({
    'virtual-hosts': ['virtual-host', targets(world.hostLinks, 1, i)],
    'back-end-groups': ['back-end-group', targets(world.groupLinks, 0, i)],
  }));
  add('back-end-group', world.groups, (i) => `bg${i}`, (i) => ({ mappings: ['mapping', targets(world.groupLinks, 1, i)] }));
  return out;
}

/** What every fetched end shows, as link keys: the union the live state must hold. */
function shownByEitherEnd(fetched: Partial<Record<ResourceType, ApiResource[]>>): Set<string> {
  const names = new Map<string, string>();
  for (const resources of Object.values(fetched)) for (const r of resources ?? []) names.set(`${r.type}/${r.id}`, String(r.attributes.name));
  const keys = new Set<string>();
  for (const [kind, resources] of Object.entries(fetched) as [ResourceType, ApiResource[]][]) {
    for (const r of resources) {
      if (r.id.startsWith('-')) continue; // a built-in's own list entry is not read for links
      const self = { kind, name: names.get(`${kind}/${r.id}`) ?? '' };
      for (const [relationship, member] of Object.entries(r.relationships)) {
        const def = relationshipDefinition(kind, relationship);
        if (!def) continue;
        for (const ident of Array.isArray(member.data) ? member.data : member.data ? [member.data] : []) {
          keys.add(linkKey(canonicalLink(self, def, names.get(`${def.target}/${ident.id}`) ?? `${UNKNOWN_ID_PREFIX}${ident.id}`)));
        }
      }
    }
  }
  return keys;
}

const world: fc.Arbitrary<World> = fc
  .record({ hosts: fc.integer({ min: 1, max: 4 }), mappings: fc.integer({ min: 1, max: 6 }), groups: fc.integer({ min: 1, max: 3 }) })
  .chain(({ hosts, mappings, groups }) =>
    fc.record({
      hosts: fc.constant(hosts),
      mappings: fc.constant(mappings),
      groups: fc.constant(groups),
      hostLinks: fc.array(fc.tuple(fc.nat(hosts - 1), fc.nat(mappings - 1)), { maxLength: 10 }),
      groupLinks: fc.array(fc.tuple(fc.nat(mappings - 1), fc.nat(groups - 1)), { maxLength: 8 }),
      missing: fc.subarray([...Array.from({ length: hosts }, (_, i) => `virtual-host/${i}`), ...Array.from({ length: mappings }, (_, i) => `mapping/${i}`), ...Array.from({ length: groups }, (_, i) => `back-end-group/${i}`)], { maxLength: 3 }),
      lacking: fc.subarray(
        [
          ...Array.from({ length: hosts }, (_, i) => `virtual-host/${i}/mappings`),
          ...Array.from({ length: mappings }, (_, i) => [`mapping/${i}/virtual-hosts`, `mapping/${i}/back-end-groups`]).flat(),
          ...Array.from({ length: groups }, (_, i) => `back-end-group/${i}/mappings`),
        ],
        { maxLength: 3 },
      ),
    }),
  );

describe('live links', () => {
  it('are the union of what every fetched end shows, whichever ends are fetched or carry the relationship (property)', () => {
    fc.assert(
      fc.property(world, (w) => {
        const fetched = lists(w);
        const state = liveState(fetched, new Map());
        const keys = state.links.map(linkKey);
        expect(new Set(keys)).toEqual(shownByEitherEnd(fetched));
        expect(keys).toHaveLength(new Set(keys).size);
        expect(linkKeysOf(state.links)).toEqual(keys);
      }),
      { numRuns: 300 },
    );
  });
});
