/**
 * The calls of a plan (src/engine/batch.ts): link and unlink steps grouped per (object,
 * relationship, link or unlink), the side of each link chosen for the fewest calls, to-one
 * sides taking one identifier, links of a new virtual host in its create body, and an order
 * in which every call can be sent.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResourceType } from '../../src/kinds/index.js';
import { KINDS } from '../../src/kinds/index.js';
import type { ManifestDocument } from '../../src/manifest/types.js';
import { identifiersOf, planCalls } from '../../src/engine/batch.js';
import { collectionPathOf } from '../../src/engine/live.js';
import { checkCalls } from '../../src/engine/call-check.js';
import { minimumVertexCover } from '../../src/engine/vertex-cover.js';
import { identityHandles, desiredState } from '../../src/engine/desired.js';
import { liveState } from '../../src/engine/live.js';
import type { ApiResource } from '../../src/engine/live.js';
import { buildPlan } from '../../src/engine/plan.js';
import type { PlanOptions } from '../../src/engine/plan.js';
import type { Plan, PlanCall, PlanStep } from '../../src/engine/plan-types.js';
import { doc, many, options, pem, resource } from './helpers.js';

function plan(docs: ManifestDocument[], lists: Partial<Record<ResourceType, ApiResource[]>>, opts: Partial<PlanOptions> = {}): Plan {
  const desired = desiredState(docs);
  return buildPlan(desired, liveState(lists, identityHandles(desired)), options(opts));
}

/** `METHOD path [ids]` of a call, identifiers of a relationship call or a create's relationships in order. */
function describeCall(call: PlanCall): string {
  const ids = (data: unknown): string => (Array.isArray(data) ? `[${data.map((d: { id: string }) => d.id).join(',')}]` : (data as { id: string }).id);
  if (call.endpoint === 'relationship') return `${call.method} ${call.path} ${ids(call.body.data)}`;
  if (call.endpoint === 'content') return `${call.method} ${call.path}`;
  const rels = Object.entries(call.relationships ?? {}).map(([name, body]) => ` ${name}=${ids(body.data)}`);
  return `${call.method} ${call.path}${rels.join('')}`;
}

const names = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(3, '0')}`);

describe('batched link calls', () => {
  it('200 new mappings linked to one back-end group and one virtual host: 200 creates and 2 link calls', () => {
    const mappings = names('m', 200);
    const p = plan(
      [
        doc('back-end-group', 'pool'),
        doc('virtual-host', 'host', {}, { mappings }),
        ...mappings.map((m) => doc('mapping', m, {}, { 'back-end-groups': ['pool'] })),
      ],
      { 'back-end-group': [resource('back-end-group', '7', { name: 'pool' })], 'virtual-host': [resource('virtual-host', '9', { name: 'host' })] },
    );
    expect(p.summary).toEqual({ create: 200, update: 0, delete: 0, link: 400, unlink: 0 });
    expect(p.calls).toHaveLength(202);
    const links = p.calls.filter((c) => c.endpoint === 'relationship');
    expect(links.map((c) => `${c.method} ${c.path} ${c.steps.length}`)).toEqual([
      'PATCH /configuration/back-end-groups/7/relationships/mappings 200',
      'PATCH /configuration/virtual-hosts/9/relationships/mappings 200',
    ]);
    expect(links[0]?.body.data).toEqual(mappings.map((m) => ({ type: 'mapping', id: `{mapping:${m}}` })));
    // The rendered steps stay one per link, on the canonical side.
    expect(p.steps.filter((s) => s.action === 'link' && s.kind === 'mapping')).toHaveLength(200);
  });

  it('a new virtual host carries its links in its create body (createRelationships)', () => {
    const p = plan(
      [doc('back-end-group', 'pool'), doc('virtual-host', 'host', {}, { mappings: ['a', 'b'], 'ssl-certificate': ['cert'] }), doc('ssl-certificate', 'cert', { certificate: pem('c') }), ...['a', 'b'].map((m) => doc('mapping', m, {}, { 'back-end-groups': ['pool'] }))],
      {},
    );
    expect(p.calls.map(describeCall)).toEqual([
      'POST /configuration/ssl-certificates',
      'POST /configuration/back-end-groups',
      'POST /configuration/mappings',
      'POST /configuration/mappings',
      'POST /configuration/virtual-hosts mappings=[{mapping:a},{mapping:b}] ssl-certificate={ssl-certificate:cert}',
      'PATCH /configuration/back-end-groups/{back-end-group:pool}/relationships/mappings [{mapping:a},{mapping:b}]',
    ]);
    const create = p.calls[4];
    expect(create?.steps.map((i) => p.steps[i - 1]?.action)).toEqual(['create', 'link', 'link', 'link']);
  });

  it('a created object carries one link per to-one relationship: a second link through the same slot is a call of its own, after the create', () => {
    // The desired state refuses two targets in one to-one relationship; a plan made some other way (edited) must still send each link once.
    const create = (index: number, kind: ResourceType, name: string): PlanStep =>
      ({ index, action: 'create', method: 'POST', kind, name, path: collectionPathOf(kind), body: { data: { type: kind, attributes: {} } }, secretPaths: [], changes: [], reason: 'r' });
    const link = (index: number, certificate: string): PlanStep =>
      ({ index, action: 'link', kind: 'virtual-host', name: 'host', relationship: 'ssl-certificate', related: { kind: 'ssl-certificate', name: certificate }, reason: 'r' });
    const steps = [create(1, 'ssl-certificate', 'a'), create(2, 'ssl-certificate', 'b'), create(3, 'virtual-host', 'host'), link(4, 'a'), link(5, 'b')];
    const calls = planCalls(steps, (ref) => `{${ref.kind}:${ref.name}}`);
    const hostCreate = calls.find((c) => c.endpoint === 'object' && c.kind === 'virtual-host');
    expect(hostCreate && describeCall(hostCreate)).toBe('POST /configuration/virtual-hosts ssl-certificate={ssl-certificate:a}');
    expect(hostCreate?.steps).toEqual([3, 4]);
    const second = calls.find((c) => c.steps.includes(5));
    expect(second?.endpoint).toBe('relationship');
    expect(second?.index).toBeGreaterThan(hostCreate?.index ?? Infinity);
    expect(() => checkCalls(steps, calls)).not.toThrow();
  });

  it('an existing virtual host links through a call, never through a create of another kind', () => {
    const p = plan([doc('virtual-host', 'host', {}, { mappings: ['a'] }), doc('mapping', 'a')], { 'virtual-host': [resource('virtual-host', '3', { name: 'host' })] });
    expect(p.calls.map(describeCall)).toEqual(['POST /configuration/mappings', 'PATCH /configuration/virtual-hosts/3/relationships/mappings [{mapping:a}]']);
  });

  it('one link stays on the canonical side', () => {
    const p = plan([doc('mapping', 'a', {}, { 'back-end-groups': ['pool'] })], {
      mapping: [resource('mapping', '1', { name: 'a' })],
      'back-end-group': [resource('back-end-group', '2', { name: 'pool' })],
    });
    expect(p.calls.map(describeCall)).toEqual(['PATCH /configuration/mappings/1/relationships/back-end-groups [2]']);
  });

  it('links to built-in objects resolve by name and are sent from the other side, never from the built-in', () => {
    const lists = {
      'virtual-host': [resource('virtual-host', '-1000', { name: 'default' }), resource('virtual-host', '10', { name: 'h1' })],
      'ssl-certificate': [resource('ssl-certificate', '-1000', { certificate: pem('default') })],
      mapping: ['a', 'b'].map((m, i) => resource('mapping', String(20 + i), { name: m })),
    };
    const builtInCert = liveState(lists, new Map()).builtIns?.get('ssl-certificate')?.keys().next().value ?? '';
    expect(builtInCert).toMatch(/^sha256:[0-9a-f]{16}$/);
    const p = plan(
      [
        doc('mapping', 'a', {}, { 'virtual-hosts': ['default'] }),
        doc('mapping', 'b', {}, { 'virtual-hosts': ['default'] }),
        doc('virtual-host', 'h1', {}, { 'ssl-certificate': [builtInCert] }),
        doc('virtual-host', 'h2', {}, { 'ssl-certificate': [builtInCert] }),
      ],
      lists,
    );
    expect(p.summary).toEqual({ create: 1, update: 0, delete: 0, link: 4, unlink: 0 });
    expect(p.calls.map(describeCall)).toEqual([
      'POST /configuration/virtual-hosts ssl-certificate=-1000',
      'PATCH /configuration/mappings/20/relationships/virtual-hosts [-1000]',
      'PATCH /configuration/mappings/21/relationships/virtual-hosts [-1000]',
      'PATCH /configuration/virtual-hosts/10/relationships/ssl-certificate -1000',
    ]);
  });

  it('a link to a built-in object the lists did not hold (named by its id) is unlinked from the other side', () => {
    // Mapping 'a' manages its virtual hosts (none declared) and is linked to virtual host -5,
    // which the virtual-host list does not hold: the live state names it `#id:-5`. One link:
    // a tie, which goes to the canonical side (the virtual host) unless that side is a built-in.
    const lists = {
      mapping: [resource('mapping', '20', { name: 'a' }, { 'virtual-hosts': many('virtual-host', '-5') })],
      'virtual-host': [resource('virtual-host', '10', { name: 'h1' })],
    };
    const p = plan([doc('mapping', 'a', {}, { 'virtual-hosts': [] })], lists);
    expect(p.steps.filter((s) => s.action === 'unlink').map((s) => `${s.kind} ${s.name}`)).toEqual(['virtual-host #id:-5']);
    expect(p.calls.map(describeCall)).toEqual(['DELETE /configuration/mappings/20/relationships/virtual-hosts [-5]']);
    // The same link to an ordinary virtual host the lists did not hold goes to the canonical side.
    const ordinary = plan([doc('mapping', 'a', {}, { 'virtual-hosts': [] })], {
      ...lists,
      mapping: [resource('mapping', '20', { name: 'a' }, { 'virtual-hosts': many('virtual-host', '5') })],
    });
    expect(ordinary.calls.map(describeCall)).toEqual(['DELETE /configuration/virtual-hosts/5/relationships/mappings [20]']);
  });

  it('to-one: many virtual hosts to one certificate batch on the certificate side; one stays a single identifier', () => {
    const hosts = ['h1', 'h2', 'h3'];
    const lists = { 'virtual-host': hosts.map((h, i) => resource('virtual-host', String(10 + i), { name: h })) };
    const batched = plan([doc('ssl-certificate', 'cert', { certificate: pem('c') }), ...hosts.map((h) => doc('virtual-host', h, {}, { 'ssl-certificate': ['cert'] }))], lists);
    expect(batched.calls.map(describeCall)).toEqual([
      'POST /configuration/ssl-certificates',
      'PATCH /configuration/ssl-certificates/{ssl-certificate:cert}/relationships/virtual-hosts [10,11,12]',
    ]);
    const single = plan([doc('ssl-certificate', 'cert', { certificate: pem('c') }), doc('virtual-host', 'h1', {}, { 'ssl-certificate': ['cert'] })], lists);
    expect(single.calls.map(describeCall)).toEqual([
      'POST /configuration/ssl-certificates',
      'PATCH /configuration/virtual-hosts/10/relationships/ssl-certificate {ssl-certificate:cert}',
    ]);
  });

  it('to-one replacements: every unlink call before every link call', () => {
    const hosts = ['h1', 'h2'];
    const p = plan([doc('ssl-certificate', 'new', { certificate: pem('new') }), ...hosts.map((h) => doc('virtual-host', h, {}, { 'ssl-certificate': ['new'] }))], {
      'ssl-certificate': [resource('ssl-certificate', '5', { certificate: pem('old') }, { 'virtual-hosts': many('virtual-host', '10', '11') })],
      'virtual-host': hosts.map((h, i) => resource('virtual-host', String(10 + i), { name: h }, { 'ssl-certificate': { data: { type: 'ssl-certificate', id: '5' } } })),
    });
    expect(p.calls.map(describeCall)).toEqual([
      'POST /configuration/ssl-certificates',
      'DELETE /configuration/ssl-certificates/5/relationships/virtual-hosts [10,11]',
      'PATCH /configuration/ssl-certificates/{ssl-certificate:new}/relationships/virtual-hosts [10,11]',
      'DELETE /configuration/ssl-certificates/5',
    ]);
  });

  it('unlinks before deletes: the links of a pruned back-end group go in one call before its delete', () => {
    const ms = ['a', 'b', 'c'];
    const p = plan(
      [doc('back-end-group', 'new'), ...ms.map((m) => doc('mapping', m, {}, { 'back-end-groups': ['new'] }))],
      {
        'back-end-group': [resource('back-end-group', '1', { name: 'old' }, { mappings: many('mapping', '2', '3', '4') })],
        mapping: ms.map((m, i) => resource('mapping', String(2 + i), { name: m }, { 'back-end-groups': many('back-end-group', '1') })),
      },
      { prune: true, allowMassDelete: true },
    );
    expect(p.calls.map(describeCall)).toEqual([
      'POST /configuration/back-end-groups',
      'DELETE /configuration/back-end-groups/1/relationships/mappings [2,3,4]',
      'PATCH /configuration/back-end-groups/{back-end-group:new}/relationships/mappings [2,3,4]',
      'DELETE /configuration/back-end-groups/1',
    ]);
  });

  it('a relationship with aliases (to-one on older gateways) takes one identifier per call', () => {
    const p = plan([doc('mapping', 'a', {}, { 'back-end-groups': ['p', 'q'] })], {
      mapping: [resource('mapping', '1', { name: 'a' })],
      'back-end-group': [resource('back-end-group', '2', { name: 'p' }), resource('back-end-group', '3', { name: 'q' })],
    });
    expect(p.calls.map(describeCall)).toEqual([
      'PATCH /configuration/mappings/1/relationships/back-end-groups [2]',
      'PATCH /configuration/mappings/1/relationships/back-end-groups [3]',
    ]);
  });

  it('picks the fewest calls when links cross: two hosts × two mappings plus one more mapping', () => {
    // h1,h2 each link m1,m2 (4 links): 2 calls either way; h1 also links m3: still 2 calls on the host side.
    const p = plan(
      [doc('virtual-host', 'h1', {}, { mappings: ['m1', 'm2', 'm3'] }), doc('virtual-host', 'h2', {}, { mappings: ['m1', 'm2'] }), ...['m1', 'm2', 'm3'].map((m) => doc('mapping', m))],
      {
        'virtual-host': [resource('virtual-host', '1', { name: 'h1' }), resource('virtual-host', '2', { name: 'h2' })],
        mapping: ['m1', 'm2', 'm3'].map((m, i) => resource('mapping', String(10 + i), { name: m })),
      },
    );
    expect(p.calls.map(describeCall)).toEqual([
      'PATCH /configuration/virtual-hosts/1/relationships/mappings [10,11,12]',
      'PATCH /configuration/virtual-hosts/2/relationships/mappings [10,11]',
    ]);
  });
});

describe('checkCalls', () => {
  const base = plan([doc('back-end-group', 'pool'), doc('mapping', 'a', {}, { 'back-end-groups': ['pool'] })], {});

  it('accepts the planned calls', () => {
    expect(() => checkCalls(base.steps, base.calls)).not.toThrow();
  });

  it('refuses a step carried twice or not at all, and a call before the create it names', () => {
    const [create1, create2, link] = base.calls;
    if (!create1 || !create2 || !link) throw new Error('expected three calls');
    expect(() => checkCalls(base.steps, [create1, create2])).toThrow('step 3 is carried by no call');
    expect(() => checkCalls(base.steps, [create1, create2, link, { ...link, index: 4 }])).toThrow('step 3 is carried by calls 3 and 4');
    expect(() => checkCalls(base.steps, [{ ...link, index: 1 }, { ...create1, index: 2 }, { ...create2, index: 3 }])).toThrow(/before it is created/);
  });
});

/** The smallest vertex cover by trying every subset (small graphs only). */
function bruteForceCover(leftCount: number, rightCount: number, edges: readonly [number, number][]): number {
  let best = leftCount + rightCount;
  for (let mask = 0; mask < 1 << (leftCount + rightCount); mask++) {
    const has = (bit: number): boolean => (mask & (1 << bit)) !== 0;
    if (edges.every(([l, r]) => has(l) || has(leftCount + r))) {
      let size = 0;
      for (let b = 0; b < leftCount + rightCount; b++) if (has(b)) size++;
      best = Math.min(best, size);
    }
  }
  return best;
}

describe('minimumVertexCover', () => {
  it('covers every edge with the fewest vertices (against brute force)', () => {
    const graph = fc
      .tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }))
      .chain(([l, r]) => fc.tuple(fc.constant(l), fc.constant(r), fc.uniqueArray(fc.tuple(fc.nat(l - 1), fc.nat(r - 1)), { selector: ([a, b]) => `${a},${b}`, maxLength: l * r })));
    fc.assert(
      fc.property(graph, ([l, r, edges]) => {
        const adjacency: number[][] = Array.from({ length: l }, () => []);
        for (const [a, b] of edges) adjacency[a]?.push(b);
        const cover = minimumVertexCover(l, r, adjacency);
        for (const [a, b] of edges) expect(cover.left[a] === true || cover.right[b] === true).toBe(true);
        const size = cover.left.filter(Boolean).length + cover.right.filter(Boolean).length;
        expect(size).toBe(bruteForceCover(l, r, edges));
      }),
      { numRuns: 300 },
    );
  });
});

describe('batching property: random plans', () => {
  const NAMES = ['a', 'b', 'c', 'd'];
  const TYPES: ResourceType[] = ['back-end-group', 'mapping', 'virtual-host'];
  // Per kind: which names exist live (with ids) and which are declared; links between declared mappings and the others.
  const world = fc.record({
    live: fc.record({ 'back-end-group': fc.subarray(NAMES), mapping: fc.subarray(NAMES), 'virtual-host': fc.subarray(NAMES) }),
    declared: fc.record({ 'back-end-group': fc.subarray(NAMES), mapping: fc.subarray(NAMES), 'virtual-host': fc.subarray(NAMES) }),
    groupsOf: fc.array(fc.subarray(NAMES), { minLength: 4, maxLength: 4 }),
    hostsOf: fc.array(fc.subarray(NAMES), { minLength: 4, maxLength: 4 }),
    liveGroupsOf: fc.array(fc.subarray(NAMES), { minLength: 4, maxLength: 4 }),
    prune: fc.boolean(),
  });

  it('the calls carry exactly the plan steps, each once; link identifiers match the steps; no call names an object before its create', () => {
    fc.assert(
      fc.property(world, ({ live, declared, groupsOf, hostsOf, liveGroupsOf, prune }) => {
        const has = (kind: ResourceType, name: string): boolean => declared[kind as 'mapping'].includes(name) || live[kind as 'mapping'].includes(name);
        const docs: ManifestDocument[] = [];
        for (const kind of TYPES) {
          for (const name of declared[kind as 'mapping']) {
            const i = NAMES.indexOf(name);
            const relationships: Record<string, string[]> =
              kind === 'mapping'
                ? { 'back-end-groups': (groupsOf[i] ?? []).filter((g) => has('back-end-group', g)), 'virtual-hosts': (hostsOf[i] ?? []).filter((h) => has('virtual-host', h)) }
                : {};
            docs.push(doc(kind, name, {}, relationships));
          }
        }
        const ids = new Map<string, string>();
        let next = 1;
        for (const kind of TYPES) for (const name of live[kind as 'mapping']) ids.set(`${kind}/${name}`, String(next++));
        const lists: Partial<Record<ResourceType, ApiResource[]>> = {};
        for (const kind of TYPES) {
          lists[kind] = live[kind as 'mapping'].map((name) => {
            const id = ids.get(`${kind}/${name}`) ?? '';
            const groups = kind === 'mapping' ? (liveGroupsOf[NAMES.indexOf(name)] ?? []).filter((g) => live['back-end-group'].includes(g)) : [];
            const rel: Parameters<typeof resource>[3] = kind === 'mapping' ? { 'back-end-groups': many('back-end-group', ...groups.map((g) => ids.get(`back-end-group/${g}`) ?? '')) } : {};
            return resource(kind, id, { name }, rel);
          });
        }
        // Inverse sides of the live links.
        for (const g of lists['back-end-group'] ?? []) {
          const members = (lists.mapping ?? []).filter((m) => JSON.stringify(m.relationships['back-end-groups']?.data ?? []).includes(`"id":"${g.id}"`)).map((m) => m.id);
          (g.relationships as Record<string, unknown>).mappings = many('mapping', ...members);
        }
        const p = plan(docs, lists, { prune, allowMassDelete: true, isOwned: () => true });

        // Every step carried exactly once, in order of calls numbered from 1.
        const carried = p.calls.flatMap((c) => c.steps).sort((x, y) => x - y);
        expect(carried).toEqual(p.steps.map((s) => s.index));
        p.calls.forEach((c, i) => expect(c.index).toBe(i + 1));
        // Each link step's two ends are the call's object and one of its identifiers.
        const idOf = (kind: string, name: string): string => ids.get(`${kind}/${name}`) ?? `{${kind}:${name}}`;
        for (const call of p.calls) {
          for (const index of call.steps) {
            const step = p.steps[index - 1];
            if (!step || (step.action !== 'link' && step.action !== 'unlink')) continue;
            const ends = [`${step.kind}:${idOf(step.kind, step.name)}`, `${step.related.kind}:${idOf(step.related.kind, step.related.name)}`].sort();
            const addressed = call.endpoint === 'relationship' ? `${call.kind}:${call.id}` : `${call.kind}:${idOf(call.kind, call.name)}`;
            const bodies = call.endpoint === 'relationship' ? [call.body] : call.endpoint === 'object' ? Object.values(call.relationships ?? {}) : [];
            const identifiers = bodies.flatMap(identifiersOf).map((d) => `${d.type}:${d.id}`);
            expect(ends).toContain(addressed);
            const other = ends[0] === addressed ? ends[1] : ends[0];
            expect(identifiers).toContain(other);
            expect(call.method).toBe(step.action === 'unlink' ? 'DELETE' : call.endpoint === 'object' ? 'POST' : 'PATCH');
          }
        }
        // No call names a created object before the call that creates it.
        const createdAt = new Map<string, number>();
        for (const call of p.calls) if (call.endpoint === 'object' && call.method === 'POST') createdAt.set(`{${call.kind}:${call.name}}`, call.index);
        for (const call of p.calls) {
          const text = call.endpoint === 'relationship' ? JSON.stringify([call.path, call.body]) : call.endpoint === 'object' ? JSON.stringify(call.relationships ?? {}) : call.path;
          for (const placeholder of text.match(/\{[a-z-]+:[a-z]+\}/g) ?? []) expect(createdAt.get(placeholder) ?? Infinity).toBeLessThan(call.index);
        }
        // Never more relationship calls than link steps, and one call per (object, relationship, action) at most on batchable sides.
        const relationshipCalls = p.calls.filter((c) => c.endpoint === 'relationship');
        expect(relationshipCalls.length).toBeLessThanOrEqual(p.summary.link + p.summary.unlink);
        const batchableKeys = relationshipCalls.filter((c) => !(c.kind === 'mapping' && c.relationship === 'back-end-groups')).map((c) => `${c.method} ${c.path}`);
        expect(new Set(batchableKeys).size).toBe(batchableKeys.length);
      }),
      { numRuns: 300 },
    );
  });

  it('every createRelationships name is a relationship of its kind', () => {
    expect(KINDS.flatMap((kind) => kind.createRelationships ?? []).length).toBeGreaterThan(0);
    for (const kind of KINDS) for (const name of kind.createRelationships ?? []) expect(kind.relationships[name], `${kind.type}.${name}`).toBeDefined();
  });
});
