import { describe, expect, it } from 'vitest';
import { fetchFilters, kindsToFetch, projectAttributes, projectionShape } from '../../src/engine/fetch-scope.js';
import type { ResourceType } from '../../src/kinds/index.js';
import { KINDS } from '../../src/kinds/index.js';
import { desiredState } from '../../src/engine/desired.js';
import type { ManifestDocument } from '../../src/manifest/types.js';

const source = { file: 'm.yaml', line: 1, column: 1 };
const docs: ManifestDocument[] = [
  {
    kind: 'mapping',
    name: 'shop-api',
    attributes: { name: 'shop-api', entryPath: { value: '/api/' }, labels: ['a'] },
    relationships: {},
    source,
  },
  { kind: 'mapping', name: 'shop-web', attributes: { name: 'shop-web', entryPath: { priority: 3 }, backendPath: '/' }, relationships: {}, source },
];

describe('what a plan fetches', () => {
  const desired = desiredState(docs);

  it('keeps the declared attributes of any desired object, name, and the ownership filter properties', () => {
    const shape = projectionShape('mapping', desired, { mapping: ['label==managed', 'tenant=@t'] });
    const live = {
      name: 'shop-api',
      tenant: 't1',
      labels: ['managed'],
      backendPath: '/x/',
      entryPath: { value: '/api/', priority: 0, ignoreCase: false },
      access: { authenticationFlow: 'REDIRECT' },
    };
    expect(projectAttributes(shape, live)).toEqual({
      name: 'shop-api',
      tenant: 't1',
      labels: ['managed'],
      backendPath: '/x/',
      entryPath: { value: '/api/', priority: 0 },
    });
  });

  it('keeps the certificate of certificates (their identity)', () => {
    const shape = projectionShape('ssl-certificate', desired, {});
    expect(projectAttributes(shape, { certificate: 'PEM', certType: 'SERVER_CERT' })).toEqual({ certificate: 'PEM' });
  });

  it('narrows the GET by name filters only when every declared object matches them', () => {
    expect(fetchFilters('mapping', desired, { mapping: ['name=@shop-'] })).toEqual(['name=@shop-']);
    expect(fetchFilters('mapping', desired, { mapping: ['name=@shop-a'] })).toEqual([]);
    expect(fetchFilters('mapping', desired, { mapping: ['label==managed'] })).toEqual([]);
  });

  it('narrows by name only when every object a desired link names matches too (a link may name an undeclared object)', () => {
    const inside = desiredState([{ ...docs[0], relationships: { 'back-end-groups': ['shop-pool'] } } as ManifestDocument]);
    expect(fetchFilters('back-end-group', inside, { 'back-end-group': ['name=@shop-'] })).toEqual(['name=@shop-']);
    const outside = desiredState([{ ...docs[0], relationships: { 'back-end-groups': ['shop-pool', 'other-pool'] } } as ManifestDocument]);
    expect(fetchFilters('back-end-group', outside, { 'back-end-group': ['name=@shop-'] })).toEqual([]);
  });

  it('reads only the kinds the manifests or the ownership scope name, and the targets of declared relationships', () => {
    const all: ResourceType[] = KINDS.map((k) => k.type);
    expect(kindsToFetch(desired, {}, all)).toEqual(['mapping']);
    expect(kindsToFetch(desired, { 'back-end-group': ['name=@shop-'] }, all)).toEqual(['back-end-group', 'mapping']);
    const linked = desiredState([{ ...docs[0], relationships: { 'back-end-groups': ['pool'] } } as ManifestDocument]);
    expect(kindsToFetch(linked, {}, all)).toEqual(['back-end-group', 'mapping']);
    // A relationship declared empty still names its target kind (a managed live link shows its target's name).
    const emptied = desiredState([{ ...docs[0], relationships: { 'virtual-hosts': [] } } as ManifestDocument]);
    expect(kindsToFetch(emptied, {}, all)).toEqual(['mapping', 'virtual-host']);
    expect(kindsToFetch(emptied, {}, ['mapping'])).toEqual(['mapping']);
  });
});
