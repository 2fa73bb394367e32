/** Dependency order as data, with its own test (decK `diff/order_test.go`). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResourceType } from '../../src/kinds/index.js';
import { KINDS, kindOf } from '../../src/kinds/index.js';
import type { DraftStep, StepKey, StepNode } from '../../src/engine/order.js';
import { orderSteps, stepKey } from '../../src/engine/order.js';
import type { PlanStep } from '../../src/engine/plan-types.js';

const body = { data: { type: 'mapping' as ResourceType, attributes: {} } };
function objectNode(action: 'create' | 'update' | 'delete', kind: ResourceType, name: string, needs: StepKey[] = []): StepNode {
  const common = { kind, name, path: '/p', secretPaths: [], reason: 'r' };
  const step: DraftStep =
    action === 'create'
      ? { ...common, action, method: 'POST', body, changes: [] }
      : action === 'update'
        ? { ...common, action, method: 'PATCH', id: '1', body, changes: [], unchangedCount: 0 }
        : { ...common, action, method: 'DELETE', id: '1', cause: 'prune' };
  return { key: stepKey(action, kind, name), step, needs };
}
function linkNode(action: 'link' | 'unlink', kind: ResourceType, name: string, relationship: string, to: ResourceType, toName: string, needs: StepKey[] = []): StepNode {
  const common = { kind, name, reason: 'r', relationship, related: { kind: to, name: toName } };
  const step: DraftStep = action === 'link' ? { ...common, action } : { ...common, action };
  return { key: stepKey(action, kind, name, { relationship, relatedKind: to, relatedName: toName }), step, needs };
}

const NODES: StepNode[] = [
  objectNode('delete', 'back-end-group', 'old-pool'),
  objectNode('delete', 'virtual-host', 'old-host', [stepKey('unlink', 'virtual-host', 'old-host', { relationship: 'mappings', relatedKind: 'mapping', relatedName: 'm' })]),
  objectNode('delete', 'mapping', 'old-map'),
  linkNode('link', 'virtual-host', 'shop', 'mappings', 'mapping', 'api', [stepKey('create', 'virtual-host', 'shop'), stepKey('create', 'mapping', 'api')]),
  linkNode('unlink', 'virtual-host', 'old-host', 'mappings', 'mapping', 'm'),
  objectNode('create', 'virtual-host', 'shop'),
  objectNode('update', 'mapping', 'legacy'),
  objectNode('create', 'mapping', 'api'),
  objectNode('create', 'ssl-certificate', 'cert'),
  objectNode('create', 'back-end-group', 'pool'),
  objectNode('create', 'acme-service', 'acme'),
  linkNode('link', 'mapping', 'api', 'back-end-groups', 'back-end-group', 'pool', [stepKey('create', 'mapping', 'api'), stepKey('create', 'back-end-group', 'pool')]),
];

const EXPECTED = [
  '1 create ssl-certificate cert []',
  '2 create acme-service acme []',
  '3 create back-end-group pool []',
  '4 create mapping api []',
  '5 create virtual-host shop []',
  '6 update mapping legacy []',
  '7 unlink virtual-host old-host []',
  '8 link mapping api [3,4]',
  '9 link virtual-host shop [4,5]',
  '10 delete virtual-host old-host [7]',
  '11 delete mapping old-map []',
  '12 delete back-end-group old-pool []',
];

/** The key of an ordered step, as the planner gives it to {@link stepKey}. */
const keyOf = (s: PlanStep): StepKey =>
  s.action === 'link' || s.action === 'unlink'
    ? stepKey(s.action, s.kind, s.name, { relationship: s.relationship, relatedKind: s.related.kind, relatedName: s.related.name })
    : stepKey(s.action, s.kind, s.name);

/** Each step with the positions of the steps its node needs (the plan itself does not carry them). */
const show = (steps: ReturnType<typeof orderSteps>, nodes: readonly StepNode[] = NODES) => {
  const indexOf = new Map(steps.map((s) => [keyOf(s), s.index]));
  const needs = new Map(nodes.map((n) => [n.key, n.needs]));
  return steps.map((s) => {
    const needed = (needs.get(keyOf(s)) ?? []).map((k) => indexOf.get(k)).filter((i) => i !== undefined);
    return `${s.index} ${s.action} ${s.kind} ${s.name} [${needed.sort((a, b) => a - b).join(',')}]`;
  });
};

describe('orderSteps', () => {
  it('creates by ascending level, then updates, unlinks, links, and deletes by descending level', () => {
    expect(show(orderSteps(NODES))).toEqual(EXPECTED);
  });

  it('gives the same order for any input order, and every dependency runs earlier', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(NODES, { minLength: NODES.length, maxLength: NODES.length }), (nodes) => {
        const steps = orderSteps(nodes);
        expect(show(steps)).toEqual(EXPECTED);
        const indexOf = new Map(steps.map((s) => [keyOf(s), s.index]));
        for (const node of nodes) {
          for (const key of node.needs) expect(indexOf.get(key) ?? 0).toBeLessThan(indexOf.get(node.key) ?? 0);
        }
      }),
    );
  });

  it('levels come from the kind registry: in its order, and no kind below a kind it links to', () => {
    const levels = KINDS.map((k) => k.level);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    for (const kind of KINDS) {
      for (const rel of Object.values(kind.relationships)) {
        if (rel.canonical) expect(kindOf(rel.target).level, `${kind.type}.${rel.name}`).toBeLessThanOrEqual(kind.level);
      }
    }
    expect(new Set(levels).size).toBeGreaterThan(1);
  });

  it('refuses a plan exactly when some step needs one that does not run before it, whatever the actions and needs', () => {
    const kinds = KINDS.map((k) => k.type);
    const node = fc
      .record({ action: fc.constantFrom('create' as const, 'update' as const, 'delete' as const), kind: fc.constantFrom(...kinds), name: fc.constantFrom('a', 'b', 'c', '__proto__', 'x\u0000y') })
      .map(({ action, kind, name }) => objectNode(action, kind, name));
    const link = fc
      .record({ action: fc.constantFrom('link' as const, 'unlink' as const), name: fc.constantFrom('a', 'b'), other: fc.constantFrom('g', 'h') })
      .map(({ action, name, other }) => linkNode(action, 'mapping', name, 'back-end-groups', 'back-end-group', other));
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.oneof(node, link), { selector: (n) => n.key, minLength: 1, maxLength: 8 }),
        fc.array(fc.tuple(fc.nat(), fc.oneof(fc.nat(), fc.constantFrom('unknown', 'link\u0000mapping'))), { maxLength: 10 }),
        (bare, wanted) => {
          // Each need names another node's key, or a key of no step in the plan.
          const nodes = bare.map((n) => ({ ...n, needs: [] as StepKey[] }));
          for (const [from, to] of wanted) {
            const target = typeof to === 'number' ? nodes[to % nodes.length]?.key : (to as StepKey);
            const source = nodes[from % nodes.length];
            if (source && target !== undefined && target !== source.key) source.needs.push(target);
          }
          const ordered = (() => {
            try {
              return orderSteps(nodes);
            } catch (error) {
              return error as Error;
            }
          })();
          // The reference: the same sort without any check, then every need looked up.
          const positions = new Map(orderSteps(nodes.map((n) => ({ ...n, needs: [] }))).map((s) => [keyOf(s), s.index]));
          const late = nodes.some((n) => n.needs.some((k) => (positions.get(k) ?? 0) >= (positions.get(n.key) ?? 0)));
          expect(ordered instanceof Error).toBe(late);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuses a dependency on a later step (a planner bug)', () => {
    expect(() => orderSteps([objectNode('create', 'mapping', 'x', [stepKey('delete', 'mapping', 'y')]), objectNode('delete', 'mapping', 'y')])).toThrow(
      'step 1 (create mapping x) would run before step 2 it needs',
    );
  });

  it('puts no dependencies into the plan: they are checked here, and the executor runs steps in order', () => {
    for (const step of orderSteps(NODES)) expect(Object.keys(step)).not.toContain('dependsOn');
  });
});
