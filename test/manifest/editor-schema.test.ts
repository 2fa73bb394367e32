/**
 * `schemas/manifest.schema.json` (what the editor line points at) and
 * `schemas/project.schema.json` accept what the loader accepts and reject the obvious
 * mistakes, when used by a plain JSON Schema validator as editors do.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { SCHEMA_KINDS, documentSchema } from '../../src/schema/index.js';
import { loadSchemaFile } from '../../src/schema/schema-files.js';

const ajv = new Ajv2020.default({ allErrors: true, strict: false });
for (const kind of SCHEMA_KINDS) ajv.addSchema(documentSchema(kind));
const manifest = ajv.compile(loadSchemaFile('manifest.schema.json'));
const projectSchema = ajv.compile(loadSchemaFile('project.schema.json'));

describe('manifest.schema.json', () => {
  it.each([
    ['a mapping', { apiVersion: 'gwops/v1', kind: 'mapping', name: 'a', extends: 't', attributes: { threatHandling: 'BLOCK' } }],
    ['a template extending another', { apiVersion: 'gwops/v1', kind: 'mapping-template', name: 't', extends: 'u', attributes: {} }],
    ['a virtual host', { apiVersion: 'gwops/v1', kind: 'virtual-host', name: 'v', relationships: { 'ssl-certificate': 'c' } }],
    ['a merge-patch overlay', { kind: 'mapping', name: 'a', attributes: { tenant: null } }],
    ['a JSON Patch overlay', { kind: 'mapping', name: 'a', patch: [{ op: 'replace', path: '/attributes/tenant', value: 'x' }] }],
  ])('accepts %s', (_what, doc) => {
    expect(manifest(doc), JSON.stringify(manifest.errors)).toBe(true);
  });

  it.each([
    ['an unknown attribute', { apiVersion: 'gwops/v1', kind: 'mapping', name: 'a', attributes: { threatHandlin: 'BLOCK' } }],
    ['an unknown kind', { apiVersion: 'gwops/v1', kind: 'maping', name: 'a' }],
    ['a document without name', { apiVersion: 'gwops/v1', kind: 'mapping' }],
    ['a to-one link given a list', { apiVersion: 'gwops/v1', kind: 'virtual-host', name: 'v', relationships: { 'ssl-certificate': ['c'] } }],
    ['an overlay with both forms', { kind: 'mapping', name: 'a', attributes: {}, patch: [] }],
    ['a JSON Patch outside the document', { kind: 'mapping', name: 'a', patch: [{ op: 'replace', path: '/name', value: 'b' }] }],
  ])('rejects %s', (_what, doc) => {
    expect(manifest(doc)).toBe(false);
  });
});

describe('project.schema.json', () => {
  it('accepts a full project file', () => {
    const ok = projectSchema({
      manifests: ['manifests'],
      targets: { prod: { url: 'https://gw/airlock/rest', apiKeyEnv: 'KEY', variant: 'latest', overlays: ['o'] } },
      ownership: { mapping: ['labels==team'], 'virtual-host': 'name=@shop-' },
      allowExternalLinks: true,
      massDeleteShare: 0.3,
    });
    expect(ok, JSON.stringify(projectSchema.errors)).toBe(true);
  });

  it.each([
    ['an unknown key', { manifest: ['m'] }],
    ['a target without url', { targets: { prod: { apiKeyEnv: 'KEY' } } }],
    ['a filter without operator', { ownership: { mapping: ['labels'] } }],
    ['an unknown kind in ownership', { ownership: { mappings: ['name==a'] } }],
    ['a share above 1', { massDeleteShare: 2 }],
  ])('rejects %s', (_what, doc) => {
    expect(projectSchema(doc)).toBe(false);
  });
});
