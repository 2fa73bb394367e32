/**
 * The document schema of a kind is made from its module and its attribute schema
 * (src/schema/kind-schema.ts): relationships, variants and the shared `$defs` follow the
 * module and the attributes by construction, for any kind the registry may hold.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { KINDS, VARIANTS } from '../../src/kinds/index.js';
import type { KindDefinition, ResourceType } from '../../src/kinds/index.js';
import { documentSchema } from '../../src/schema/index.js';
import type { JsonSchema } from '../../src/schema/index.js';
import { SHARED_DEFS, kindDocumentSchema, templateDocumentSchema } from '../../src/schema/kind-schema.js';

const base = KINDS.find((k) => !k.identity.byName && !k.singleton);
const named = KINDS.find((k) => k.identity.byName);
if (!base || !named) throw new Error('the registry has no kind identified by name or none identified otherwise');

/** A made-up kind in some variants, with a to-one relationship in one variant and a to-many one. */
const extra: KindDefinition = {
  ...named,
  type: 'made-up-environment' as ResourceType,
  description: 'A made-up environment',
  collection: 'made-up-environments',
  template: 'made-up-environment-template',
  variants: ['middle', 'latest'],
  relationships: {
    mappings: { name: 'mappings', target: 'mapping', cardinality: 'many', inverse: 'made-up-environments', canonical: false },
    owner: { name: 'owner', target: 'virtual-host', cardinality: 'one', inverse: 'lists', canonical: true, variants: ['latest'], description: 'The host' },
  },
};

const attributes: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { name: { type: 'string' }, ips: { type: 'array', items: { $ref: '#/$defs/pattern' } } },
};

describe('the document schema of a kind', () => {
  it('declares the envelope, the relationships with their cardinality and variants, and the kind\'s variants', () => {
    const schema = kindDocumentSchema(extra, attributes);
    expect(schema.$id).toBe('https://gwops.dev/schemas/made-up-environment.schema.json');
    expect(schema.description).toBe('A made-up environment');
    expect(schema.properties?.kind).toEqual({ const: 'made-up-environment' });
    expect(schema.properties?.extends?.description).toContain('made-up-environment-template');
    expect(schema.properties?.relationships?.properties).toEqual({
      mappings: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true, description: 'Names of linked mappings' },
      owner: { type: 'string', minLength: 1, description: 'The host', 'x-gwops-variants': ['latest'] },
    });
    expect(schema['x-gwops-variants']).toEqual(['middle', 'latest']);
    expect(kindDocumentSchema({ ...extra, variants: VARIANTS }, attributes)['x-gwops-variants']).toBeUndefined();
  });

  it('carries the attribute schema as written and the shared definitions it refers to, no others', () => {
    const schema = kindDocumentSchema(extra, attributes);
    expect(schema.$defs).toEqual({ attributes, pattern: SHARED_DEFS.pattern });
    const plain = kindDocumentSchema(extra, { type: 'object', properties: { name: { type: 'string' } } });
    expect(Object.keys(plain.$defs ?? {})).toEqual(['attributes']);
    expect(() => kindDocumentSchema(extra, { $ref: '#/$defs/nothing' })).toThrow(/src\/kinds\/made-up-environment\/attributes\.schema\.json refers to #\/\$defs\/nothing/);
  });

  it('validates a document of the kind, and refuses a relationship it does not have', () => {
    const ajv = new Ajv2020.default({ strict: false, allErrors: true });
    const validate = ajv.compile(kindDocumentSchema(extra, attributes));
    const doc = { apiVersion: 'gwops/v1', kind: 'made-up-environment', name: 'a', attributes: { ips: [{ pattern: '^10\\.' }] }, relationships: { owner: 'shop' } };
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...doc, relationships: { other: 'x' } })).toBe(false);
    expect(validate({ ...doc, relationships: { mappings: 'x' } })).toBe(false);
  });

  it('names the document by the name attribute, or as a local handle when the kind is not identified by name', () => {
    expect(kindDocumentSchema(named, named.attributes as JsonSchema).properties?.name?.description).toMatch(/`name` attribute/);
    expect(kindDocumentSchema(base, base.attributes as JsonSchema).properties?.name?.description).toMatch(/local handle/i);
  });

  it('makes a singleton kind\'s document schema without name: a document with one is refused', () => {
    const singleton = { ...extra, singleton: { path: 'made-up-settings' } };
    const schema = kindDocumentSchema(singleton, attributes);
    expect(schema.properties?.name).toBeUndefined();
    expect(schema.required).toEqual(['apiVersion', 'kind']);
    const validate = new Ajv2020.default({ strict: false, allErrors: true }).compile(schema);
    const doc = { apiVersion: 'gwops/v1', kind: 'made-up-environment', attributes: { ips: [{ pattern: '^10\\.' }] } };
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...doc, name: 'a' })).toBe(false);
  });

  it('makes a template kind\'s schema that takes the attributes of its kind', () => {
    const schema = templateDocumentSchema(extra);
    expect(schema.$id).toBe('https://gwops.dev/schemas/made-up-environment-template.schema.json');
    expect(schema.$defs).toEqual({ attributes: { $ref: 'made-up-environment.schema.json#/$defs/attributes' } });
    expect(schema.properties?.relationships).toBeUndefined();
    expect(() => templateDocumentSchema({ ...extra, template: undefined })).toThrow(/names no template kind/);
  });

  it.each(KINDS.map((k) => [k.type, k] as const))('%s: the schema gwops validates with is the one made from the module and its attributes', (_type, kind) => {
    expect(documentSchema(kind.type)).toEqual(kindDocumentSchema(kind, kind.attributes as JsonSchema));
  });
});
