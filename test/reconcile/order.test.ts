/** Dependency order as data, with its own test (decK `diff/order_test.go`). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResourceType } from '../../src/kinds/index.js';
import { kindOf } from '../../src/kinds/index.js';
import type { DraftStep, StepNode } from '../../src/reconcile/order.js';
import { orderSteps, stepKey } from '../../src/reconcile/order.js';

const body = { data: { type: 'mapping' as ResourceType, attributes: {} } };
function objectNode(action: 'create' | 'update' | 'delete', kind: ResourceType, name: string, needs: string[] = []): StepNode {
  const common = { kind, name, path: '/p', secretPaths: [], reason: 'r' };
  const step: DraftStep =
    action === 'create'
      ? { ...common, action, method: 'POST', body, changes: [] }
      : action === 'update'
        ? { ...common, action, method: 'PATCH', id: '1', body, changes: [], unchangedCount: 0 }
        : { ...common, action, method: 'DELETE', id: '1', cause: 'prune' };
  return { key: stepKey(action, kind, name), step, needs };
}
function linkNode(action: 'link' | 'unlink', kind: ResourceType, name: string, relationship: string, to: ResourceType, toName: string, needs: string[] = []): StepNode {
  const common = { kind, name, path: '/p', secretPaths: [], reason: 'r', relationship, related: { kind: to, name: toName }, body: { data: [] } };
  const step: DraftStep = action === 'link' ? { ...common, action, method: 'PATCH' } : { ...common, action, method: 'DELETE' };
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

const show = (steps: ReturnType<typeof orderSteps>) => steps.map((s) => `${s.index} ${s.action} ${s.kind} ${s.name} [${s.dependsOn.join(',')}]`);

describe('orderSteps', () => {
  it('creates by ascending level, then updates, unlinks, links, and deletes by descending level', () => {
    expect(show(orderSteps(NODES))).toEqual(EXPECTED);
  });

  it('gives the same order for any input order, and every dependency runs earlier', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(NODES, { minLength: NODES.length, maxLength: NODES.length }), (nodes) => {
        const steps = orderSteps(nodes);
        expect(show(steps)).toEqual(EXPECTED);
        for (const s of steps) for (const d of s.dependsOn) expect(d).toBeLessThan(s.index);
      }),
    );
  });

  it('levels come from the kind registry', () => {
    expect(['ssl-certificate', 'acme-service', 'back-end-group', 'mapping', 'virtual-host'].map((k) => kindOf(k as ResourceType).level)).toEqual([0, 0, 0, 1, 2]);
  });

  it('refuses a dependency on a later step (a planner bug)', () => {
    expect(() => orderSteps([objectNode('create', 'mapping', 'x', [stepKey('delete', 'mapping', 'y')]), objectNode('delete', 'mapping', 'y')])).toThrow(/would run before/);
  });
});
