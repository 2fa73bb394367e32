import { describe, expect, it } from 'vitest';
import { fetchFilters, projectAttributes, projectionShape } from '../../src/reconcile/fetch.js';
import { desiredState } from '../../src/reconcile/desired.js';
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
});
