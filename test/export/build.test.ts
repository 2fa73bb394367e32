import { describe, expect, it } from 'vitest';
import { exportAttributes } from '../../src/export/attributes.js';
import { stripDefaults } from '../../src/export/default-tree.js';
import { buildDocuments } from '../../src/export/build.js';
import { filtersByKind } from '../../src/operations/export.js';
import { manifestFiles, renderProjectFile } from '../../src/export/write.js';
import type { ApiResource } from '../../src/gateway/index.js';
import { UsageError } from '../../src/core/errors.js';

const res = (type: string, id: string, attributes: Record<string, unknown>, relationships: ApiResource['relationships'] = {}): ApiResource => ({ type, id, attributes, relationships });

describe('stripDefaults', () => {
  it('drops what equals the default tree, objects recursively, lists whole', () => {
    const defaults = { a: 1, b: { c: true, d: 'x' }, list: [1, 2], e: { f: 1 } };
    expect(stripDefaults({ a: 1, b: { c: true, d: 'y' }, list: [1, 2, 3], e: { f: 1 }, g: 5 }, defaults)).toEqual({ b: { d: 'y' }, list: [1, 2, 3], g: 5 });
  });

  it('leaves the recorded mapping defaults out of a live mapping and keeps the rest', () => {
    const out = exportAttributes('mapping', { name: 'm', threatHandling: 'NOTIFY', backendPath: '/x/', bogus: 1 }, { variant: 'latest', keepDefaults: false, unknown: () => undefined });
    expect(out).toMatchObject({ name: 'm', backendPath: '/x/' });
    expect(out).not.toHaveProperty('bogus');
  });
});

describe('buildDocuments', () => {
  it('skips built-ins, writes links on the canonical side by name, fills write-only secrets, never writes a readable one', () => {
    const lists = {
      'back-end-group': [res('back-end-group', '-1000', { name: 'builtin' }), res('back-end-group', '2', { name: 'g' })],
      mapping: [
        res('mapping', '3', { name: 'm' }, { 'back-end-groups': { data: [{ type: 'back-end-group', id: '2' }, { type: 'back-end-group', id: '-1000' }] }, 'virtual-hosts': { data: [{ type: 'virtual-host', id: '4' }] } }),
      ],
      'virtual-host': [res('virtual-host', '4', { name: 'v' }, { mappings: { data: [{ type: 'mapping', id: '3' }] } })],
      // As export's reading of the live attributes leaves it (exportAttributes): the readable key a secret slot (an encrypted one: it takes a passphrase).
      'ssl-certificate': [
        res(
          'ssl-certificate',
          '5',
          exportAttributes(
            'ssl-certificate',
            { certificate: 'no pem', privateKey: '-----BEGIN ENCRYPTED PRIVATE KEY-----\nLIVE-PRIVATE-KEY\n-----END ENCRYPTED PRIVATE KEY-----\n' },
            { variant: 'latest', keepDefaults: false, unknown: () => undefined },
          ),
        ),
      ],
    } as const;
    const built = buildDocuments({ exported: ['ssl-certificate', 'back-end-group', 'mapping', 'virtual-host'], lists });
    expect(built.documents.map((d) => `${d.kind}/${d.name}`)).toEqual(['ssl-certificate/' + built.documents[0]?.name, 'back-end-group/g', 'mapping/m', 'virtual-host/v']);
    expect(built.documents[0]?.name).toMatch(/^ssl-certificate-[0-9a-f]{12}$/);
    const mapping = built.documents.find((d) => d.kind === 'mapping');
    expect(mapping?.relationships).toEqual({ 'back-end-groups': ['builtin', 'g'] });
    expect(mapping?.attributes).toEqual({});
    expect(built.documents.find((d) => d.kind === 'virtual-host')?.relationships).toEqual({ mappings: ['m'] });
    expect(built.externalLinks).toBe(1); // the built-in
    expect(built.documents[0]?.attributes.privateKey).toEqual({ fromEnv: expect.stringMatching(/^GWOPS_SSL_CERTIFICATE_.*_PRIVATEKEY$/) as unknown });
    expect(built.secrets.map((s) => [s.attribute, s.writeOnly]).sort()).toEqual([
      ['passphrase', true],
      ['privateKey', false],
    ]);
    expect(JSON.stringify(built)).not.toContain('LIVE-PRIVATE-KEY');
  });

  it('writes a link on the exported end when the canonical side is not exported', () => {
    const lists = {
      mapping: [res('mapping', '3', { name: 'm' }, { 'virtual-hosts': { data: [{ type: 'virtual-host', id: '4' }] } })],
      'virtual-host': [res('virtual-host', '4', { name: 'v' })],
    };
    const built = buildDocuments({ exported: ['mapping'], lists });
    expect(built.documents).toHaveLength(1);
    expect(built.documents[0]?.relationships).toEqual({ 'virtual-hosts': ['v'] });
  });

  it('exports the first of two objects with one name and warns about the other', () => {
    const built = buildDocuments({ exported: ['mapping'], lists: { mapping: [res('mapping', '9', { name: 'x' }), res('mapping', '3', { name: 'x' })] } });
    expect(built.documents).toHaveLength(1);
    expect(built.warnings.join('\n')).toContain('id 9');
  });

  it('names the objects an attribute refers to (x-gwops-reference) and warns about an id that could not be read', () => {
    const whitelists = (ids: (number | string)[]) => ({ ipAddressWhitelists: { pathWhitelists: [{ enabled: true, ipAddressListIds: ids }] } });
    const lists = {
      'ip-address-list': [res('ip-address-list', '7', { name: 'office' })],
      mapping: [res('mapping', '3', { name: 'm', ipRules: whitelists([7, 99]) })],
    };
    const built = buildDocuments({ exported: ['mapping'], lists });
    expect(built.documents[0]?.attributes).toEqual({ ipRules: whitelists(['office', '#id:99']) });
    expect(built.warnings).toEqual(["mapping 'm' names ip-address-list with id 99, which could not be read: exported as '#id:99'"]);
  });
});

describe('files and project', () => {
  it('per-kind layout: one multi-document file per kind', () => {
    const files = manifestFiles(
      [
        { kind: 'mapping', name: 'a', attributes: {}, relationships: {} },
        { kind: 'mapping', name: 'b/c', attributes: { backendPath: '/' }, relationships: {} },
      ],
      'per-kind',
    );
    expect([...files.keys()]).toEqual(['mapping.yaml']);
    expect(files.get('mapping.yaml')).toContain('---\n');
    expect([...manifestFiles([{ kind: 'mapping', name: 'b/c', attributes: {}, relationships: {} }], 'per-object').keys()]).toEqual(['mapping/b%2Fc.yaml']);
  });

  it('filters: plain ones apply to every exported kind, KIND:FILTER to one; bad syntax is a usage error', () => {
    expect(filtersByKind(['name=@a', 'mapping:label==x'], ['mapping', 'virtual-host'])).toEqual({ mapping: ['name=@a', 'label==x'], 'virtual-host': ['name=@a'] });
    expect(() => filtersByKind(['name'], ['mapping'])).toThrow(UsageError);
  });

  it('the project file names the key variable, never a key, and the ownership when filtered', () => {
    const text = renderProjectFile({ manifests: ['mapping'], targetName: 'default', url: 'https://gw/airlock/rest', ownership: { mapping: ['label==x'] }, allowExternalLinks: false });
    expect(text).toContain('apiKeyEnv: GWOPS_API_KEY');
    expect(text).toMatch(/^ownership:\n {2}mapping:\n {4}- label==x$/m);
  });
});
