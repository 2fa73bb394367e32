/**
 * The comparison of the gateway's own description with gwops's attribute schemas
 * (src/engine/api-description.ts), over the whole class: random attribute schemas (objects,
 * lists, scalars, nested), a copy with random attributes added, removed and retyped, and
 * the comparison reporting exactly those, each as what it is; a schema compared with
 * itself reports nothing, and the sides swapped swap `unknown` and `unmanaged`. Then the
 * forms a real description writes: `$ref` to components, `allOf`, `nullable`, `integer`
 * against `number`, the path with the base path, a body found by create or update.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AttributeDifference } from '../../src/engine/api-description.js';
import { compareAttributeSchemas, describedAttributes } from '../../src/engine/api-description.js';
import { KINDS, kindExistsIn } from '../../src/kinds/index.js';
import { wireSchema } from '../../src/schema/index.js';

type Node = { type: string; properties?: Record<string, Node>; items?: Node };

const SCALARS = ['string', 'boolean', 'integer', 'number'] as const;

const tree = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...SCALARS).map((type) => ({ type })),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd', 'e'), tie('node'), { minKeys: 1, maxKeys: 4 }).map((properties) => ({ type: 'object', properties })),
    tie('node').map((items) => ({ type: 'array', items })),
  ),
}));

const root = fc.dictionary(fc.constantFrom('name', 'a', 'b', 'c', 'd', 'e', 'f'), tree.node, { minKeys: 1, maxKeys: 6 }).map((properties): Node => ({ type: 'object', properties }));

/** Every property of every object of `node`: the path of its object and its key. */
function sites(node: Node, path = ''): { parent: string; key: string; path: string }[] {
  const out: { parent: string; key: string; path: string }[] = [];
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    const at = path === '' ? key : `${path}.${key}`;
    out.push({ parent: path, key, path: at }, ...sites(child, at));
  }
  if (node.items) out.push(...sites(node.items, `${path}[]`));
  return out;
}

/** The object at `path` (dotted, `[]` for items) inside `node`. */
function objectAt(node: Node, path: string): Node {
  let at = node;
  for (const part of path === '' ? [] : path.split('.')) {
    const [key = '', ...items] = part.split('[]');
    if (key !== '') at = at.properties?.[key] ?? at;
    for (let i = 0; i < items.length; i += 1) at = at.items ?? at;
  }
  return at;
}

const RETYPED: Record<string, string> = { string: 'boolean', boolean: 'string', integer: 'string', number: 'boolean', object: 'string', array: 'string' };
type Mutation = 'add' | 'remove' | 'retype';

/** `ours` mutated at the sites chosen (none under another), and what each mutation should be reported as. */
function mutate(ours: Node, choices: readonly { site: number; op: Mutation }[]): { gateway: Node; expected: { kind: AttributeDifference['kind']; path: string }[] } {
  const gateway = structuredClone(ours);
  const all = sites(ours);
  const kept: string[] = [];
  const expected: { kind: AttributeDifference['kind']; path: string }[] = [];
  const under = (p: string, k: string): boolean => p === k || p.startsWith(`${k}.`) || p.startsWith(`${k}[]`);
  let added = 0;
  for (const choice of choices) {
    const site = all[choice.site % all.length];
    if (!site || kept.some((k) => under(site.path, k) || under(k, site.path))) continue;
    const parent = objectAt(gateway, site.parent);
    const properties = parent.properties ?? {};
    if (choice.op === 'remove') {
      delete properties[site.key];
      expected.push({ kind: 'unknown', path: site.path });
    } else if (choice.op === 'retype') {
      properties[site.key] = { type: RETYPED[properties[site.key]?.type ?? 'string'] ?? 'string' };
      expected.push({ kind: 'type', path: site.path });
    } else {
      const key = `added${(added += 1)}`;
      properties[key] = { type: 'string' };
      expected.push({ kind: 'unmanaged', path: site.parent === '' ? key : `${site.parent}.${key}` });
    }
    // No later mutation above or below this site: it would hide or replace this one.
    kept.push(site.path);
  }
  return { gateway, expected };
}

const kindAndPath = (d: AttributeDifference): { kind: string; path: string } => ({ kind: d.kind, path: d.path });
const byPath = (a: { kind: string; path: string }, b: { kind: string; path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.kind < b.kind ? -1 : 1);

describe('compareAttributeSchemas', () => {
  it('reports nothing for a schema compared with itself (every kind of the registry, every variant)', () => {
    for (const kind of KINDS) {
      for (const variant of kind.variants.filter((v) => kindExistsIn(kind, v))) {
        const schema = wireSchema(kind.type, variant, { keepRanges: false });
        expect(compareAttributeSchemas(structuredClone(schema), schema), `${kind.type} ${variant}`).toEqual([]);
      }
    }
  });

  it('reports exactly the attributes added, removed and retyped, each as what it is; swapped sides swap unknown and unmanaged', () => {
    fc.assert(
      fc.property(root, fc.array(fc.record({ site: fc.nat(), op: fc.constantFrom<Mutation>('add', 'remove', 'retype') }), { maxLength: 6 }), (ours, choices) => {
        const { gateway, expected } = mutate(ours, choices);
        const found = compareAttributeSchemas(gateway, ours);
        expect(found.map(kindAndPath).sort(byPath)).toEqual([...expected].sort(byPath));
        const swap = { unknown: 'unmanaged', unmanaged: 'unknown', type: 'type' } as const;
        expect(compareAttributeSchemas(ours, gateway).map(kindAndPath).sort(byPath)).toEqual(expected.map((e) => ({ kind: swap[e.kind], path: e.path })).sort(byPath));
      }),
      { numRuns: 300 },
    );
  });

  it('reads $ref, allOf and nullable; an integer fits a number; an object without properties constrains no members', () => {
    const description = {
      components: {
        schemas: {
          Base: { type: 'object', properties: { name: { type: 'string' } } },
          ThingDto: { allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', properties: { port: { type: 'number' }, note: { type: 'string', nullable: true }, free: { type: 'object' } } }] },
        },
      },
    };
    const ours = { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' }, note: { type: 'string' }, free: { type: 'object', properties: { x: { type: 'string' } } } } };
    expect(compareAttributeSchemas({ $ref: '#/components/schemas/ThingDto' }, ours, description)).toEqual([]);
    expect(compareAttributeSchemas({ $ref: '#/components/schemas/Missing' }, ours, description)).toEqual([]);
  });
});

describe('describedAttributes', () => {
  const attributes = { type: 'object', properties: { name: { type: 'string' } } };
  const body = { content: { 'application/vnd.api+json': { schema: { type: 'object', properties: { data: { type: 'object', properties: { attributes: { $ref: '#/components/schemas/ThingDto' } } } } } } } };
  const components = { schemas: { ThingDto: attributes } };

  it('finds the attributes of the create body, also under a base path and through $ref', () => {
    expect(describedAttributes({ paths: { '/airlock/rest/configuration/things': { post: { requestBody: body } } }, components }, 'things')).toEqual(attributes);
  });

  it('falls back to the update of /{id}, then to the update of an object without id', () => {
    expect(describedAttributes({ paths: { '/configuration/things/{thingId}': { patch: { requestBody: body } } }, components }, 'things')).toEqual(attributes);
    expect(describedAttributes({ paths: { '/configuration/things': { patch: { requestBody: body } } }, components }, 'things')).toEqual(attributes);
  });

  it('is undefined for a collection the description does not describe, and for what is no description', () => {
    expect(describedAttributes({ paths: { '/configuration/others': { post: { requestBody: body } } }, components }, 'things')).toBeUndefined();
    expect(describedAttributes({ paths: { '/configuration/things/{id}/relationships/x': { patch: { requestBody: body } } }, components }, 'things')).toBeUndefined();
    expect(describedAttributes('not a description', 'things')).toBeUndefined();
  });
});
