import { describe, expect, it } from 'vitest';
import { desiredState, identityHandles } from '../../src/engine/desired.js';
import { liveState } from '../../src/engine/live.js';
import type { ApiResource } from '../../src/engine/live.js';
import type { ManifestDocument } from '../../src/manifest/types.js';
import type { ResourceType } from '../../src/kinds/index.js';
import { buildPlan, planOutcome } from '../../src/engine/plan.js';
import { liveStateDigest } from '../../src/engine/live-digest.js';
import type { PlanOptions } from '../../src/engine/plan.js';
import { idPlaceholder, placeholderRef, SENSITIVE_MASK } from '../../src/engine/plan-types.js';
import { KINDS } from '../../src/kinds/index.js';
import type { CreateStep, Plan, PlanCall, PlanStep, UpdateStep } from '../../src/engine/plan-types.js';
import { EXIT } from '../../src/core/exit-codes.js';
import { thrownBy } from '../support/thrown.js';
import { doc, many, one, options, pem, resource } from './helpers.js';
import { MassDeleteError, OutsideScopeError, UnresolvedReferenceError } from '../../src/engine/errors.js';
import { ownershipPredicate } from '../../src/engine/fetch-scope.js';
import { outsideScopeTest } from '../../src/engine/ownership.js';

function plan(docs: ManifestDocument[], lists: Partial<Record<ResourceType, ApiResource[]>>, opts: Partial<PlanOptions> = {}): Plan {
  const desired = desiredState(docs);
  return buildPlan(desired, liveState(lists, identityHandles(desired)), options(opts));
}

/** The call that carries a step. */
const callOf = (p: Plan, s: PlanStep): PlanCall | undefined => p.calls.find((c) => c.steps.includes(s.index));

/** Each step with the request (method and path) of the call that carries it. */
const lines = (p: Plan): string[] =>
  p.steps.map((s) => {
    const c = callOf(p, s);
    const call = c ? `${c.method} ${c.path}` : 'no call';
    return s.action === 'link' || s.action === 'unlink'
      ? `${s.index} ${s.action} ${s.kind}:${s.name} ${s.relationship} ${s.related.kind}:${s.related.name} ${call}`
      : `${s.index} ${s.action} ${s.kind}:${s.name} ${call}`;
  });

describe('buildPlan: attributes', () => {
  it('compares only declared attributes, recursively, and PATCHes changed top-level subtrees', () => {
    const p = plan(
      [doc('virtual-host', 'shop', { keepAliveTimeout: 10, networkInterface: { http: { port: 80 }, https: { port: 8443 } }, aliasNames: ['a'] })],
      {
        'virtual-host': [
          resource('virtual-host', '3', {
            name: 'shop',
            keepAliveTimeout: 10,
            tenant: 'x',
            aliasNames: ['a'],
            networkInterface: { http: { port: 80, enabled: true }, https: { port: 443, enabled: true } },
          }),
        ],
      },
    );
    expect(p.steps).toHaveLength(1);
    const step = p.steps[0] as UpdateStep;
    expect(step.action).toBe('update');
    expect(step.path).toBe('/configuration/virtual-hosts/3');
    expect(step.body).toEqual({ data: { type: 'virtual-host', id: '3', attributes: { networkInterface: { http: { port: 80 }, https: { port: 8443 } } } } });
    expect(step.changes).toEqual([{ path: 'networkInterface.https.port', before: 443, after: 8443, sensitive: false }]);
    expect(step.unchangedCount).toBe(4);
  });

  it('compares arrays whole (items by their declared keys) and replaces them whole', () => {
    const desired = [doc('back-end-group', 'pool', { backendHosts: [{ hostName: 'a', port: 80 }] })];
    const same = plan(desired, { 'back-end-group': [resource('back-end-group', '1', { name: 'pool', backendHosts: [{ hostName: 'a', port: 80, weight: 100 }] })] });
    expect(same.steps).toEqual([]);
    const longer = plan(desired, {
      'back-end-group': [resource('back-end-group', '1', { name: 'pool', backendHosts: [{ hostName: 'a', port: 80 }, { hostName: 'b', port: 80 }] })],
    });
    expect((longer.steps[0] as UpdateStep).body.data.attributes).toEqual({ backendHosts: [{ hostName: 'a', port: 80 }] });
  });

  it('masks secrets in body and changes, before and after, and names them in secretPaths', () => {
    const p = plan(
      [doc('mapping', 'api', { access: { tokenVerification: { jwsKey: 'NEW-SECRET', type: 'JWS' } } })],
      { mapping: [resource('mapping', '4', { name: 'api', access: { tokenVerification: { jwsKey: 'OLD-SECRET', type: 'JWS' } } })] },
    );
    const step = p.steps[0] as UpdateStep;
    expect(step.changes).toEqual([{ path: 'access.tokenVerification.jwsKey', before: SENSITIVE_MASK, after: SENSITIVE_MASK, sensitive: true }]);
    expect(step.secretPaths).toEqual(['/data/attributes/access/tokenVerification/jwsKey']);
    expect(JSON.stringify(p)).not.toMatch(/SECRET/);
  });

  it('never compares write-only attributes; sends them on create', () => {
    const cert = { certificate: pem('c'), passphrase: 'PASS-PHRASE', certType: 'SERVER_CERT' };
    const p = plan([doc('ssl-certificate', 'main', cert)], { 'ssl-certificate': [resource('ssl-certificate', '2', { certificate: pem('c'), certType: 'SERVER_CERT' })] });
    expect(p.steps).toEqual([]);
    const created = plan([doc('ssl-certificate', 'main', cert)], {});
    expect((created.steps[0] as CreateStep | undefined)?.secretPaths).toEqual(['/data/attributes/passphrase']);
    expect(JSON.stringify(created)).not.toContain('PASS-PHRASE');
  });

  it("compares a certificate's readable private key by the digest of its PEM lines, masked", () => {
    const key = (body: string, eol = '\n'): string => ['-----BEGIN PRIVATE KEY-----', body, '-----END PRIVATE KEY-----', ''].join(eol);
    const declared = { certificate: pem('c'), privateKey: key('REFRESH-KEY-MATERIAL-A'), certType: 'SERVER_CERT' };
    const live = (privateKey: string): Partial<Record<ResourceType, ApiResource[]>> => ({
      'ssl-certificate': [resource('ssl-certificate', '2', { certificate: pem('c'), certType: 'SERVER_CERT', privateKey })],
    });
    // The same PEM with other line endings, no final line break or indentation: no change.
    for (const same of [key('REFRESH-KEY-MATERIAL-A'), key('REFRESH-KEY-MATERIAL-A', '\r\n'), key('  REFRESH-KEY-MATERIAL-A').trimEnd()]) {
      expect(plan([doc('ssl-certificate', 'main', declared)], live(same)).steps).toEqual([]);
    }
    // Another key (or none): an update of exactly privateKey, both sides masked.
    for (const other of [key('REFRESH-KEY-MATERIAL-B'), 'not a PEM']) {
      const p = plan([doc('ssl-certificate', 'main', declared)], live(other));
      const step = p.steps[0] as UpdateStep | undefined;
      expect(step?.changes).toEqual([{ path: 'privateKey', before: SENSITIVE_MASK, after: SENSITIVE_MASK, sensitive: true }]);
      expect(step?.secretPaths).toEqual(['/data/attributes/privateKey']);
      expect(JSON.stringify(p)).not.toContain('REFRESH-KEY-MATERIAL');
    }
    const missing = plan([doc('ssl-certificate', 'main', declared)], { 'ssl-certificate': [resource('ssl-certificate', '2', { certificate: pem('c'), certType: 'SERVER_CERT' })] });
    expect((missing.steps[0] as UpdateStep | undefined)?.changes).toEqual([{ path: 'privateKey', after: SENSITIVE_MASK, sensitive: true }]);
  });
});

describe('buildPlan: links, certificates, deletes', () => {
  it('replaces a certificate: create, unlink, link, delete of the orphan', () => {
    const p = plan(
      [doc('ssl-certificate', 'new', { certificate: pem('new'), privateKey: 'K' }), doc('virtual-host', 'shop', {}, { 'ssl-certificate': ['new'] })],
      {
        'ssl-certificate': [resource('ssl-certificate', '2', { certificate: pem('old') }, { 'virtual-hosts': many('virtual-host', '3') })],
        'virtual-host': [resource('virtual-host', '3', { name: 'shop' }, { 'ssl-certificate': one('ssl-certificate', '2') })],
      },
    );
    const old = liveState({ 'ssl-certificate': [resource('ssl-certificate', '2', { certificate: pem('old') })] }, new Map()).objects.get('ssl-certificate')?.keys().next().value as string;
    expect(lines(p)).toEqual([
      '1 create ssl-certificate:new POST /configuration/ssl-certificates',
      `2 unlink virtual-host:shop ssl-certificate ssl-certificate:${old} DELETE /configuration/virtual-hosts/3/relationships/ssl-certificate`,
      '3 link virtual-host:shop ssl-certificate ssl-certificate:new PATCH /configuration/virtual-hosts/3/relationships/ssl-certificate',
      `4 delete ssl-certificate:${old} DELETE /configuration/ssl-certificates/2`,
    ]);
    expect(p.calls[2]).toMatchObject({ endpoint: 'relationship', steps: [3], body: { data: { type: 'ssl-certificate', id: '{ssl-certificate:new}' } } });
    expect(p.summary).toEqual({ create: 1, update: 0, delete: 1, link: 1, unlink: 1 });
  });

  it('unlinks only managed links: a key declared on either end', () => {
    const lists = {
      'virtual-host': [resource('virtual-host', '1', { name: 'shop' }, { mappings: many('mapping', '2', '3') })],
      mapping: [resource('mapping', '2', { name: 'a' }), resource('mapping', '3', { name: 'b' })],
    };
    expect(plan([doc('virtual-host', 'shop'), doc('mapping', 'a'), doc('mapping', 'b')], lists).steps).toEqual([]);
    const byHost = plan([doc('virtual-host', 'shop', {}, { mappings: ['a'] }), doc('mapping', 'a'), doc('mapping', 'b')], lists);
    expect(lines(byHost)).toEqual(['1 unlink virtual-host:shop mappings mapping:b DELETE /configuration/virtual-hosts/1/relationships/mappings']);
    expect(byHost.calls).toMatchObject([{ endpoint: 'relationship', steps: [1], body: { data: [{ type: 'mapping', id: '3' }] } }]);
    const byMapping = plan([doc('virtual-host', 'shop'), doc('mapping', 'a'), doc('mapping', 'b', {}, { 'virtual-hosts': [] })], lists);
    expect(lines(byMapping)).toEqual(['1 unlink virtual-host:shop mappings mapping:b DELETE /configuration/virtual-hosts/1/relationships/mappings']);
  });

  it('links new objects through placeholders, after both creates', () => {
    const p = plan([doc('virtual-host', 'shop', {}, { mappings: ['api'] }), doc('mapping', 'api', {}, { 'back-end-groups': ['legacy'] })], {
      'back-end-group': [resource('back-end-group', '8', { name: 'legacy' })],
    });
    expect(lines(p)).toEqual([
      '1 create mapping:api POST /configuration/mappings',
      '2 create virtual-host:shop POST /configuration/virtual-hosts',
      '3 link mapping:api back-end-groups back-end-group:legacy PATCH /configuration/mappings/{mapping:api}/relationships/back-end-groups',
      '4 link virtual-host:shop mappings mapping:api POST /configuration/virtual-hosts',
    ]);
    // The new virtual host carries its link in its create body (KindDefinition createRelationships).
    expect(p.calls.map((c) => c.steps)).toEqual([[1], [2, 4], [3]]);
    expect(p.calls[1]).toMatchObject({ endpoint: 'object', relationships: { mappings: { data: [{ type: 'mapping', id: '{mapping:api}' }] } } });
    expect(p.unmanaged).toEqual([]);
  });

  it('refuses links to objects that exist nowhere', () => {
    const error = thrownBy(() => plan([doc('mapping', 'api', {}, { 'back-end-groups': ['ghost'] }, 4)], {}), UnresolvedReferenceError);
    expect(error.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'unresolved-link',
        file: 'manifests/mappings.yaml',
        line: 4,
        column: 1,
        pointer: '',
        object: { kind: 'mapping', name: 'api' },
        message: "mapping 'api' back-end-groups names back-end-group 'ghost', which no manifest declares and the gateway does not have: declare it, or remove the link",
      },
    ]);
    expect(error.message).toMatch(/^the manifests have 1 link to objects that no manifest declares/);
  });

  it('prunes only owned objects, with --prune, reverse level order, after their unlinks', () => {
    const lists = {
      'virtual-host': [resource('virtual-host', '1', { name: 'shop-vh' }, { mappings: many('mapping', '2') })],
      mapping: [resource('mapping', '2', { name: 'shop-old' }), resource('mapping', '3', { name: 'other' }), resource('mapping', '4', { name: 'shop-keep' })],
      'back-end-group': [resource('back-end-group', '5', { name: 'shop-pool' }), resource('back-end-group', '6', { name: 'shop-pool2' })],
    };
    const docs = [doc('virtual-host', 'shop-vh', {}, { mappings: [] }), doc('mapping', 'shop-keep'), doc('back-end-group', 'shop-pool2')];
    const isOwned = (o: { name: string }) => o.name.startsWith('shop-');
    const drift = plan(docs, lists, { isOwned });
    expect(lines(drift)).toEqual(['1 unlink virtual-host:shop-vh mappings mapping:shop-old DELETE /configuration/virtual-hosts/1/relationships/mappings']);
    expect(drift.unmanaged).toEqual([{ kind: 'back-end-group', name: 'shop-pool' }, { kind: 'mapping', name: 'shop-old' }]);
    const pruned = plan(docs, lists, { isOwned, prune: true });
    expect(lines(pruned)).toEqual([
      '1 unlink virtual-host:shop-vh mappings mapping:shop-old DELETE /configuration/virtual-hosts/1/relationships/mappings',
      '2 delete mapping:shop-old DELETE /configuration/mappings/2',
      '3 delete back-end-group:shop-pool DELETE /configuration/back-end-groups/5',
    ]);
    expect(pruned.unmanaged).toEqual([]);
  });

  it('refuses mass deletes unless allowed, naming kind and counts', () => {
    const lists = { mapping: [resource('mapping', '1', { name: 'a' }), resource('mapping', '2', { name: 'b' }), resource('mapping', '3', { name: 'c' })] };
    // Two of three declared ones pruned is more than the share; none declared prunes them all.
    expect(thrownBy(() => plan([doc('mapping', 'a')], lists, { prune: true }), MassDeleteError).counts).toEqual([{ kind: 'mapping', deletes: 2, owned: 3 }]);
    const all = thrownBy(() => plan([], lists, { prune: true }), MassDeleteError);
    expect(all.counts).toEqual([{ kind: 'mapping', deletes: 3, owned: 3 }]);
    expect(all.message).toMatch(/--allow-mass-delete/);
    expect(all.exitCode).toBe(EXIT.error);
    expect(plan([doc('mapping', 'a'), doc('mapping', 'b')], lists, { prune: true }).summary.delete).toBe(1);
    expect(plan([], lists, { prune: true, allowMassDelete: true }).summary.delete).toBe(3);
  });
});

describe('liveStateDigest', () => {
  it('covers ids, links and declared attributes, independent of order; not undeclared attributes or secret values', () => {
    const desired = desiredState([doc('mapping', 'a', { x: 1, access: { tokenVerification: { jwsKey: 'k1' } } })]);
    const a = resource('mapping', '1', { name: 'a', x: 1, y: 1, access: { tokenVerification: { jwsKey: 'k1' } } });
    const b = resource('mapping', '2', { name: 'b' }, { 'back-end-groups': many('back-end-group', '3') });
    const g = resource('back-end-group', '3', { name: 'g' });
    const digest = (lists: Partial<Record<ResourceType, ApiResource[]>>) => liveStateDigest(liveState(lists, new Map()), desired);
    const base = digest({ mapping: [a, b], 'back-end-group': [g] });
    expect(digest({ mapping: [b, a], 'back-end-group': [g] })).toBe(base);
    expect(digest({ mapping: [{ ...a, attributes: { ...a.attributes, x: 2 } }, b], 'back-end-group': [g] })).not.toBe(base);
    expect(digest({ mapping: [{ ...a, attributes: { ...a.attributes, y: 2 } }, b], 'back-end-group': [g] })).toBe(base);
    expect(digest({ mapping: [{ ...a, id: '9' }, b], 'back-end-group': [g] })).not.toBe(base);
    expect(digest({ mapping: [a, { ...b, relationships: {} }], 'back-end-group': [g] })).not.toBe(base);
    expect(digest({ mapping: [a], 'back-end-group': [g] })).not.toBe(base);
    expect(digest({ mapping: [{ ...a, attributes: { ...a.attributes, access: { tokenVerification: { jwsKey: 'k2' } } } }, b], 'back-end-group': [g] })).toBe(base);
    expect(base).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe('buildPlan: edges', () => {
  it('keeps a replaced certificate that a back-end group still uses as client certificate', () => {
    const p = plan(
      [doc('ssl-certificate', 'new', { certificate: pem('new') }), doc('virtual-host', 'shop', {}, { 'ssl-certificate': ['new'] })],
      {
        'ssl-certificate': [resource('ssl-certificate', '2', { certificate: pem('old') }, { 'virtual-hosts': many('virtual-host', '3') })],
        'virtual-host': [resource('virtual-host', '3', { name: 'shop' }, { 'ssl-certificate': one('ssl-certificate', '2') })],
        'back-end-group': [resource('back-end-group', '4', { name: 'pool' }, { 'client-certificate': one('ssl-certificate', '2') })],
      },
    );
    expect(p.steps.map((s) => s.action)).toEqual(['create', 'unlink', 'link']);
  });

  it('unlinks a managed link to an object outside the fetched lists by its id', () => {
    const p = plan([doc('virtual-host', 'shop', {}, { mappings: [] })], {
      'virtual-host': [resource('virtual-host', '3', { name: 'shop' }, { mappings: many('mapping', '42') })],
    });
    expect(lines(p)).toEqual(['1 unlink virtual-host:shop mappings mapping:#id:42 DELETE /configuration/virtual-hosts/3/relationships/mappings']);
    expect(p.calls[0]).toMatchObject({ id: '3', body: { data: [{ type: 'mapping', id: '42' }] } });
  });

  it('never prunes an undeclared object that a desired link names, nor reports it as unmanaged', () => {
    const p = plan([doc('mapping', 'api', {}, { 'back-end-groups': ['legacy'] })], {
      mapping: [resource('mapping', '1', { name: 'api' })],
      'back-end-group': [resource('back-end-group', '8', { name: 'legacy' }), resource('back-end-group', '9', { name: 'x' }), resource('back-end-group', '10', { name: 'y' })],
    }, { prune: true, allowMassDelete: true });
    expect(lines(p)).toEqual([
      '1 link mapping:api back-end-groups back-end-group:legacy PATCH /configuration/mappings/1/relationships/back-end-groups',
      '2 delete back-end-group:x DELETE /configuration/back-end-groups/9',
      '3 delete back-end-group:y DELETE /configuration/back-end-groups/10',
    ]);
  });

  describe('a refused plan is still a plan (Terraform\'s errored plan)', () => {
    const lists = { mapping: [resource('mapping', '1', { name: 'a' }), resource('mapping', '2', { name: 'b' }), resource('mapping', '3', { name: 'c' })] };
    const outcome = (docs: ManifestDocument[], opts: Partial<PlanOptions>) => {
      const desired = desiredState(docs);
      return planOutcome(desired, liveState(lists, identityHandles(desired)), options(opts));
    };

    it('the mass-delete guard returns the whole plan, errored, with a mass-delete error diagnostic per kind', () => {
      const refused = outcome([], { prune: true });
      expect(refused.errored).toBe(true);
      expect(refused.plan.summary.delete).toBe(3);
      expect(refused.plan).toEqual(outcome([], { prune: true, allowMassDelete: true }).plan);
      expect(refused.massDeletes).toEqual([{ kind: 'mapping', deletes: 3, owned: 3 }]);
      expect(refused.diagnostics.errors().map((d) => [d.code, d.message])).toEqual([
        ['mass-delete', 'refusing to delete 3 of 3 owned mapping objects (all of a kind, or more than 50 %); pass --allow-mass-delete to allow it'],
      ]);
      expect(() => plan([], lists, { prune: true })).toThrow(MassDeleteError);
    });

    it('an object outside the ownership scope returns the whole plan, errored, with an outside-ownership-scope diagnostic at the declaring document', () => {
      const scope = { mapping: ['name==b'] };
      const declared = doc('mapping', 'a', { description: 'new' });
      const refused = outcome([declared], { isOwned: ownershipPredicate(scope), outsideScope: outsideScopeTest(scope) });
      expect(refused.errored).toBe(true);
      expect(refused.massDeletes).toEqual([]);
      expect(refused.plan.steps.map((s) => `${s.action} ${s.name}`)).toEqual(['update a']);
      expect(refused.diagnostics.all().map((d) => [d.severity, d.code, d.object?.name])).toEqual([['error', 'outside-ownership-scope', 'a']]);
      expect(() => buildPlan(desiredState([declared]), liveState(lists, identityHandles(desiredState([declared]))), options({ isOwned: ownershipPredicate(scope), outsideScope: outsideScopeTest(scope) }))).toThrow(OutsideScopeError);
    });

    it('a plan nothing refuses is not errored and has no diagnostics', () => {
      const fine = outcome([doc('mapping', 'a'), doc('mapping', 'b')], { prune: true });
      expect(fine.errored).toBe(false);
      expect(fine.diagnostics.length).toBe(0);
      expect(fine.plan.summary.delete).toBe(1);
    });
  });
});

describe('id placeholders', () => {
  it('name the object they stand for, for every registered kind (types with digits such as route-ipv4-source too)', () => {
    for (const kind of KINDS) expect(placeholderRef(idPlaceholder({ kind: kind.type, name: 'a:b}c' }))).toEqual({ kind: kind.type, name: 'a:b}c' });
    expect(placeholderRef('12')).toBeUndefined();
  });
});
