/**
 * The Mermaid picture (src/render/mermaid.ts) and the topology it draws
 * (src/render/topology.ts): escaping, marks, collapsing, and that what it writes parses
 * (the structural check of mermaid-syntax.ts; its header says why not Mermaid's parser).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import type { ResourceType } from '../../src/kinds/index.js';
import { MERMAID_MAX_NODES, mermaidText, renderDot, renderMermaid, stateTopology } from '../../src/render/index.js';
import { referenceAttributes } from '../../src/schema/index.js';
import type { StateObject } from '../../src/engine/model.js';
import type { AttributeObject } from '../../src/manifest/types.js';
import type { Topology } from '../../src/render/index.js';
import { decodeLabel, parseFlowchart } from './mermaid-syntax.js';

/** A kind with a canonical relationship, and its target. */
function linkedKinds(): { from: ResourceType; relationship: string; to: ResourceType } {
  for (const kind of KINDS) {
    for (const def of Object.values(kind.relationships)) if (def.canonical) return { from: kind.type, relationship: def.name, to: def.target };
  }
  throw new Error('the registry has no canonical relationship');
}

const { from, relationship, to } = linkedKinds();

describe('mermaid picture', () => {
  it('escapes every character that could end a label or start markup', () => {
    const nasty = 'a"b]c[d#e;f<g>h|i`j\nk}{l&m\\n%%o';
    const text = mermaidText(nasty);
    expect(text).not.toMatch(/["[\]<>|`\n{}&\\%]/);
    expect(decodeLabel(text)).toBe(nasty);
  });

  it('marks changed nodes by class and sign, and added or removed links by arrow and label', () => {
    const topology: Topology = {
      nodes: [
        { ref: { kind: from, name: 'front' }, change: 'update' },
        { ref: { kind: to, name: 'new' }, change: 'create' },
        { ref: { kind: to, name: 'old' }, change: 'delete' },
        { ref: { kind: to, name: 'kept' } },
      ],
      edges: [
        { from: { kind: from, name: 'front' }, relationship, to: { kind: to, name: 'new' }, change: 'added' },
        { from: { kind: from, name: 'front' }, relationship, to: { kind: to, name: 'old' }, change: 'removed' },
        { from: { kind: from, name: 'front' }, relationship, to: { kind: to, name: 'kept' } },
      ],
    };
    const chart = parseFlowchart(renderMermaid(topology));
    const byLabel = new Map([...chart.nodes.values()].map((n) => [n.label, n.className]));
    expect(byLabel.get(`~ ${from}<br/>front`)).toBe('update');
    expect(byLabel.get(`+ ${to}<br/>new`)).toBe('create');
    expect(byLabel.get(`- ${to}<br/>old`)).toBe('delete');
    expect(byLabel.get(`${to}<br/>kept`)).toBeUndefined();
    expect(chart.edges.map((e) => [e.arrow, e.label])).toEqual([['==>', 'added'], ['-.->', 'removed'], ['-->', undefined]]);
    expect([...chart.classes].sort()).toEqual(['create', 'delete', 'update']);
  });

  it(`collapses beyond ${MERMAID_MAX_NODES} nodes to one node per kind, with counts`, () => {
    const many = Array.from({ length: MERMAID_MAX_NODES + 1 }, (_, i) => `m${i}`);
    const topology: Topology = {
      nodes: [{ ref: { kind: from, name: 'front' } }, ...many.map((name, i) => ({ ref: { kind: to, name }, ...(i < 3 ? { change: 'create' as const } : {}) }))],
      edges: many.map((name, i) => ({ from: { kind: from, name: 'front' }, relationship, to: { kind: to, name }, ...(i < 3 ? { change: 'added' as const } : {}) })),
    };
    const source = renderMermaid(topology);
    const chart = parseFlowchart(source);
    expect(chart.nodes.size).toBe(2);
    expect([...chart.nodes.values()].map((n) => n.label)).toContain(`${to}: ${MERMAID_MAX_NODES + 1} objects<br/>+3 create, ${MERMAID_MAX_NODES - 2} unchanged`);
    expect(chart.edges).toEqual([expect.objectContaining({ arrow: '==>', label: `${MERMAID_MAX_NODES + 1} links, 3 added` })]);
    expect(source.length).toBeLessThan(1000);
    // Exactly at the limit, every object is drawn.
    expect(parseFlowchart(renderMermaid({ nodes: topology.nodes.slice(0, MERMAID_MAX_NODES), edges: [] })).nodes.size).toBe(MERMAID_MAX_NODES);
  });

  it('parses and keeps every name, whatever characters it holds (property)', () => {
    const kinds = KINDS.map((k) => k.type);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.constantFrom(...kinds), fc.string({ unit: 'binary', maxLength: 12 })), { selector: ([k, n]) => `${k}\u0000${n}`, maxLength: 12 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.constantFrom(undefined, 'added' as const, 'removed' as const)), { maxLength: 12 }),
        (refs, links) => {
          const nodes = refs.map(([kind, name]) => ({ ref: { kind, name } }));
          const edges = nodes.length === 0 ? [] : links.map(([a, b, change]) => ({
            from: (nodes[a % nodes.length] ?? nodes[0])!.ref,
            relationship: 'r',
            to: (nodes[b % nodes.length] ?? nodes[0])!.ref,
            ...(change ? { change } : {}),
          }));
          const chart = parseFlowchart(renderMermaid({ nodes, edges }));
          expect([...chart.nodes.values()].map((n) => n.label)).toEqual(nodes.map((n) => `${n.ref.kind}<br/>${n.ref.name}`));
          expect(chart.edges).toHaveLength(edges.length);
        },
      ),
    );
  });

  it('writes DOT with quoted, escaped labels', () => {
    const dot = renderDot({ nodes: [{ ref: { kind: from, name: 'a"b\\c\nd' } }], edges: [] });
    expect(dot).toContain(`n0 [label="${from}\\na\\"b\\\\c\\nd"];`);
    expect(dot.startsWith('digraph gwops {\n')).toBe(true);
  });
});

describe('graph: attributes that name another object', () => {
  const paths = KINDS.flatMap((kind) => referenceAttributes(kind.type).map((path) => ({ kind: kind.type, path })));

  it('some kind has such an attribute (else the property below checks nothing)', () => {
    expect(paths.length).toBeGreaterThan(0);
  });

  /** Attributes holding `value` at `segments` (`*`: a list of one item). */
  function holding(segments: readonly string[], value: unknown): AttributeObject {
    const build = (rest: readonly string[]): unknown => {
      const [head, ...tail] = rest;
      if (head === undefined) return value;
      return head === '*' ? [build(tail)] : { [head]: build(tail) };
    };
    return build(segments) as AttributeObject;
  }

  it('draw an edge from the object to every object of the state it names, of every kind and attribute', () => {
    fc.assert(
      fc.property(fc.constantFrom(...paths), fc.string({ minLength: 1, maxLength: 12 }), fc.string({ minLength: 1, maxLength: 12 }), ({ kind, path }, referrer, target) => {
        const targetKind = path.schema['x-gwops-reference'] as ResourceType;
        const value = path.schema.type === 'array' ? [target] : target;
        const objects = new Map<ResourceType, Map<string, StateObject>>();
        const add = (object: StateObject): void => void objects.set(object.kind, (objects.get(object.kind) ?? new Map<string, StateObject>()).set(object.name, object));
        add({ kind, name: referrer, attributes: holding(path.segments, value) });
        add({ kind: targetKind, name: target, attributes: {} });
        const edges = stateTopology({ objects, links: [] }).edges;
        expect(edges).toContainEqual(expect.objectContaining({ from: { kind, name: referrer }, to: { kind: targetKind, name: target } }));
        // A name no object of the state has is no edge.
        const dangling = stateTopology({ objects: new Map([[kind, new Map([[referrer, { kind, name: referrer, attributes: holding(path.segments, value) }]])]]), links: [] });
        expect(dangling.edges.filter((e) => e.to.kind === targetKind && e.to.name === target && !(targetKind === kind && target === referrer))).toEqual([]);
      }),
    );
  });
});
