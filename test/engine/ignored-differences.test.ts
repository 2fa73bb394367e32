/**
 * The planner keeps what a `drift.ignore` entry in force matches, beyond attributes
 * (src/engine/ignored-differences.ts): links added or deleted on the gateway, and objects
 * added on the gateway under --prune; it never stops a create.
 */
import { describe, expect, it } from 'vitest';
import { desiredState, identityHandles } from '../../src/engine/desired.js';
import { liveState } from '../../src/engine/live.js';
import type { ApiResource } from '../../src/engine/live.js';
import type { ManifestDocument } from '../../src/manifest/types.js';
import type { ResourceType } from '../../src/kinds/index.js';
import { planOutcome } from '../../src/engine/plan.js';
import type { PlanOptions } from '../../src/engine/plan.js';
import type { Plan } from '../../src/engine/plan-types.js';
import type { DriftIgnoreEntry } from '../../src/manifest/drift-ignore.js';
import { doc, many, options, resource } from './helpers.js';
import { objectContent } from '../../src/core/object-content.js';

function plan(docs: ManifestDocument[], lists: Partial<Record<ResourceType, ApiResource[]>>, opts: Partial<PlanOptions> = {}): Plan {
  const desired = desiredState(docs);
  return planOutcome(desired, liveState(lists, identityHandles(desired)), options(opts)).plan;
}

const entry = (object: string, attribute: string): DriftIgnoreEntry => {
  const [kind, name] = object.split('/') as [ResourceType, string];
  return { object, kind, name, attribute, reason: 'kept by hand', until: '2999-12-31' };
};

const groups: ApiResource[] = [resource('back-end-group', '1', { name: 'g1' }), resource('back-end-group', '2', { name: 'g2' })];

describe('kept ignored differences', () => {
  it('a link added on the gateway stays, one deleted there is not made again', () => {
    const docs = [doc('mapping', 'm', {}, { 'back-end-groups': ['g1'] }), doc('back-end-group', 'g1'), doc('back-end-group', 'g2')];
    const lists = { mapping: [resource('mapping', '9', { name: 'm' }, { 'back-end-groups': many('back-end-group', '2') })], 'back-end-group': groups };
    const undone = plan(docs, lists);
    expect(undone.steps.map((s) => s.action).sort()).toEqual(['link', 'unlink']);
    const kept = plan(docs, lists, { ignore: [entry('mapping/m', 'relationships.back-end-groups')] });
    expect(kept.steps).toEqual([]);
    expect(kept.ignored?.map((k) => [k.direction, k.path, k.related?.name])).toEqual([
      ['link-added', 'relationships.back-end-groups', 'g2'],
      ['link-deleted', 'relationships.back-end-groups', 'g1'],
    ]);
  });

  it("a sub-resource entry's attribute changed on the gateway keeps its live value, also when another attribute of the entry is sent", () => {
    const docs = [doc('mapping', 'm', { denyRuleGroups: { SQLI_PARAM_VALUE: { enabled: true, logOnly: false } } })];
    const lists = { mapping: [resource('mapping', '9', { name: 'm', denyRuleGroups: { SQLI_PARAM_VALUE: { enabled: false, logOnly: true, exceptions: [] } } })] };
    const kept = plan(docs, lists, { ignore: [entry('mapping/m', 'denyRuleGroups.SQLI_PARAM_VALUE.logOnly')] });
    expect(kept.steps.map((s) => (s.action === 'update' ? [s.changes.map((c) => c.path), s.body] : s.action))).toEqual([
      [['denyRuleGroups.SQLI_PARAM_VALUE.enabled'], { data: { type: 'mapping-deny-rule-group', attributes: { enabled: true, logOnly: true } } }],
    ]);
    expect(kept.ignored?.map((k) => k.path)).toEqual(['denyRuleGroups.SQLI_PARAM_VALUE.logOnly']);
  });

  it('content changed on the gateway is not uploaded again while `content` is ignored', () => {
    const document: ManifestDocument = { ...doc('openapi-document', 'orders'), content: objectContent(Buffer.from('openapi: 3.0.3\n')) };
    const desired = desiredState([document]);
    const listed = liveState({ 'openapi-document': [resource('openapi-document', '5', { name: 'orders' })] }, identityHandles(desired));
    const documents = new Map(listed.objects.get('openapi-document'));
    const object = documents.get('orders');
    if (object) documents.set('orders', { ...object, content: objectContent(Buffer.from('openapi: 3.1.0\n')) });
    const live = { ...listed, objects: new Map([...listed.objects, ['openapi-document', documents] as const]) };
    expect(planOutcome(desired, live, options()).plan.calls.map((c) => c.method)).toEqual(['PUT']);
    const kept = planOutcome(desired, live, options({ ignore: [entry('openapi-document/orders', 'content')] })).plan;
    expect(kept.calls).toEqual([]);
    expect(kept.ignored?.map((k) => k.path)).toEqual(['content']);
  });

  it('an object added on the gateway that * matches is not pruned; a declared object is created whatever an entry says', () => {
    const lists = { 'back-end-group': groups };
    const docs = [doc('back-end-group', 'g1'), doc('back-end-group', 'g3')];
    const pruned = plan(docs, lists, { prune: true, allowMassDelete: true });
    expect(pruned.steps.filter((s) => s.action === 'delete').map((s) => s.name)).toEqual(['g2']);
    const kept = plan(docs, lists, { prune: true, allowMassDelete: true, ignore: [entry('back-end-group/*', '*')] });
    expect(kept.steps.map((s) => [s.action, s.name])).toEqual([['create', 'g3']]);
    expect(kept.ignored?.map((k) => [k.direction, k.name])).toEqual([['added', 'g2']]);
    expect(kept.unmanaged).toEqual([]);
  });
});
