import { describe, expect, it } from 'vitest';
import { certificateFingerprint } from '../../src/kinds/ssl-certificate/identity.js';
import { objectKey } from '../../src/core/object-key.js';
import { desiredState, identityHandles } from '../../src/engine/desired.js';
import { liveState } from '../../src/engine/live.js';
import { createHash } from 'node:crypto';
import { thrownBy } from '../support/thrown.js';
import { doc, many, one, pem, resource } from './helpers.js';
import { DesiredStateError } from '../../src/engine/errors.js';

describe('desiredState', () => {
  it('stores links once, in the canonical direction, as the union of both sides', () => {
    const state = desiredState([
      doc('virtual-host', 'shop', {}, { mappings: ['api'] }),
      doc('mapping', 'api', {}, { 'virtual-hosts': ['shop'], 'back-end-groups': ['pool'] }),
      doc('mapping', 'web', {}, { 'virtual-hosts': ['shop'] }),
      doc('back-end-group', 'pool', {}, { mappings: ['web'] }),
    ]);
    const links = state.links.map((l) => `${l.from.kind}:${l.from.name} ${l.relationship} ${l.to.kind}:${l.to.name}`).sort();
    expect(links).toEqual([
      'mapping:api back-end-groups back-end-group:pool',
      'mapping:web back-end-groups back-end-group:pool',
      'virtual-host:shop mappings mapping:api',
      'virtual-host:shop mappings mapping:web',
    ]);
    expect(state.declaredRelationships).toHaveLength(5);
  });

  it('records declared keys with empty lists too', () => {
    const state = desiredState([doc('virtual-host', 'shop', {}, { mappings: [] })]);
    expect(state.declaredRelationships).toEqual([{ object: { kind: 'virtual-host', name: 'shop' }, relationship: 'mappings' }]);
    expect(state.links).toEqual([]);
  });

  it('fingerprints certificates by the SHA-256 of the DER bytes', () => {
    const text = pem('a');
    const der = Buffer.from(text.split('\n')[1] ?? '', 'base64');
    const expected = createHash('sha256').update(der).digest('hex');
    const state = desiredState([doc('ssl-certificate', 'main', { certificate: text })]);
    expect(state.objects.get('ssl-certificate')?.get('main')?.identityKey).toBe(expected);
    expect(certificateFingerprint(text.replace(/\n/g, '\r\n'))).toBe(expected);
    expect(identityHandles(state).get(objectKey('ssl-certificate', expected))).toBe('main');
    expect([...identityHandles(state).keys()]).toEqual([objectKey('ssl-certificate', expected)]);
  });

  it('reports every problem at once, typed', () => {
    const error = thrownBy(
      () =>
        desiredState([
          doc('mapping', 'a'),
          doc('mapping', 'a'),
          doc('ssl-certificate', 'nocert', {}),
          doc('ssl-certificate', 'c1', { certificate: pem('x') }),
          doc('ssl-certificate', 'c2', { certificate: pem('x') }, { 'virtual-hosts': ['shop'] }),
          doc('virtual-host', 'shop', {}, { 'ssl-certificate': ['c1'] }),
        ]),
      DesiredStateError,
    );
    const diagnostics = error.diagnostics;
    expect(diagnostics.map((d) => [d.severity, d.code, d.object?.name, d.file])).toEqual([
      ['error', 'duplicate-object', 'a', 'manifests/mappings.yaml'],
      ['error', 'missing-identity', 'nocert', 'manifests/ssl-certificates.yaml'],
      ['error', 'duplicate-identity', 'c2', 'manifests/ssl-certificates.yaml'],
    ]);
    expect(diagnostics.map((d) => d.message)).toEqual([
      "mapping 'a' is declared twice (also at manifests/mappings.yaml:1): names must be unique per kind",
      "ssl-certificate 'nocert' has no identity: attributes.certificate must hold a PEM certificate (it is the identity on the gateway)",
      "ssl-certificate 'c2' has the same certificate as ssl-certificate 'c1': declare each object once",
    ]);
    expect(error.message).toBe("the manifests' objects cannot be built into one desired state (3 errors); nothing was sent to the gateway");
  });

  it('refuses a to-one relationship with two targets declared on different sides', () => {
    const error = thrownBy(
      () =>
        desiredState([
          doc('ssl-certificate', 'c1', { certificate: pem('1') }),
          doc('ssl-certificate', 'c2', { certificate: pem('2') }, { 'virtual-hosts': ['shop'] }),
          doc('virtual-host', 'shop', {}, { 'ssl-certificate': ['c1'] }),
        ]),
      DesiredStateError,
    );
    const [d, ...rest] = error.diagnostics;
    expect(rest).toEqual([]);
    expect(d).toMatchObject({ severity: 'error', code: 'conflicting-link', object: { kind: 'virtual-host', name: 'shop' }, pointer: '' });
    expect(d?.message).toMatch(/two targets/);
  });
});

describe('liveState', () => {
  it('names objects, resolves link ids through the lists and keeps unknown ends as #id refs', () => {
    const state = liveState(
      {
        'virtual-host': [resource('virtual-host', '7', { name: 'shop' }, { mappings: many('mapping', '4', '99'), 'ssl-certificate': one('ssl-certificate', '2') })],
        mapping: [resource('mapping', '4', { name: 'api' }, { 'virtual-hosts': many('virtual-host', '7'), 'back-end-groups': many('back-end-group', '5') })],
        'back-end-group': [resource('back-end-group', '5', { name: 'pool' }, { mappings: many('mapping', '4'), 'client-certificate': one('ssl-certificate', '2') })],
        'ssl-certificate': [resource('ssl-certificate', '2', { certificate: pem('main') }, { 'virtual-hosts': many('virtual-host', '7') })],
      },
      new Map(),
    );
    const fp = certificateFingerprint(pem('main')) ?? '';
    expect([...(state.objects.get('ssl-certificate')?.keys() ?? [])]).toEqual([`sha256:${fp.slice(0, 16)}`]);
    const links = state.links.map((l) => `${l.from.name} ${l.relationship} ${l.to.name}`).sort();
    expect(links).toEqual([
      'api back-end-groups pool',
      `pool client-certificate sha256:${fp.slice(0, 16)}`,
      'shop mappings #id:99',
      'shop mappings api',
      `shop ssl-certificate sha256:${fp.slice(0, 16)}`,
    ]);
    expect(state.objects.get('mapping')?.get('api')?.id).toBe('4');
  });

  it('names certificates after the desired handle with the same fingerprint', () => {
    const fp = certificateFingerprint(pem('main')) ?? '';
    const state = liveState({ 'ssl-certificate': [resource('ssl-certificate', '2', { certificate: pem('main') })] }, new Map([[objectKey('ssl-certificate', fp), 'main-cert']]));
    expect(state.objects.get('ssl-certificate')?.get('main-cert')?.identityKey).toBe(fp);
  });

  it('keeps duplicates under a distinct name: lowest id keeps the name', () => {
    const state = liveState(
      { mapping: [resource('mapping', '10', { name: 'api' }), resource('mapping', '9', { name: 'api' })] },
      new Map(),
    );
    expect(state.objects.get('mapping')?.get('api')?.id).toBe('9');
    expect(state.objects.get('mapping')?.get('api@id:10')?.id).toBe('10');
  });

  it('keeps built-ins out of the objects but names them (links included) and keeps their ids; another object of that name gets @id', () => {
    const fp = certificateFingerprint(pem('default')) ?? '';
    const state = liveState(
      {
        'virtual-host': [resource('virtual-host', '-1000', { name: 'default' }, { 'ssl-certificate': one('ssl-certificate', '-1000') }), resource('virtual-host', '3', { name: 'default' })],
        mapping: [resource('mapping', '4', { name: 'api' }, { 'virtual-hosts': many('virtual-host', '-1000') })],
        'ssl-certificate': [resource('ssl-certificate', '-1000', { certificate: pem('default') })],
      },
      new Map(),
    );
    expect([...(state.objects.get('virtual-host')?.keys() ?? [])]).toEqual(['default@id:3']);
    expect(state.objects.get('ssl-certificate')?.size).toBe(0);
    expect(state.builtIns?.get('virtual-host')).toEqual(new Map([['default', '-1000']]));
    expect(state.builtIns?.get('ssl-certificate')).toEqual(new Map([[`sha256:${fp.slice(0, 16)}`, '-1000']]));
    // Read from the mapping's side, the link names the built-in; a built-in's own relationships are not read.
    expect(state.links.map((l) => `${l.from.name} ${l.relationship} ${l.to.name}`)).toEqual(['default mappings api']);
  });
});
