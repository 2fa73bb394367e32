import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import { SCHEMA_KINDS, documentSchema, secretAttributes, wireSchema, writeOnlyAttributes } from '../../src/schema/index.js';

const defaults = (kind: string): unknown =>
  parse(readFileSync(new URL(`../../server-defaults/${kind}.yaml`, import.meta.url), 'utf8'));

describe('schemas', () => {
  it('every kind has a draft 2020-12 schema that compiles', () => {
    const ajv = new Ajv2020.default({ strict: false, allErrors: true });
    for (const kind of SCHEMA_KINDS) ajv.addSchema(documentSchema(kind));
    for (const kind of SCHEMA_KINDS) {
      expect(ajv.getSchema(`https://gwops.dev/schemas/${kind}.schema.json`), kind).toBeTypeOf('function');
    }
  });

  it.each(['virtual-host', 'mapping', 'back-end-group'] as const)(
    'the server defaults of a %s are valid attributes of the middle variant',
    (kind) => {
      const ajv = new Ajv2020.default({ strict: false, allErrors: true });
      const validate = ajv.compile(wireSchema(kind, 'middle', { keepRanges: true }));
      expect(validate(defaults(kind)), JSON.stringify(validate.errors)).toBe(true);
    },
  );

  it('marks the secret and write-only attributes the reference names', () => {
    expect(secretAttributes('ssl-certificate').map((p) => p.path).sort()).toEqual(['passphrase', 'privateKey']);
    // The gateway returns the private key as stored; only its passphrase is write-only.
    expect(writeOnlyAttributes('ssl-certificate').map((p) => p.path).sort()).toEqual(['passphrase']);
    expect(secretAttributes('mapping').map((p) => p.path).sort()).toEqual([
      'access.tokenVerification.jweKey',
      'access.tokenVerification.jwsKey',
    ]);
  });

  it('removes attributes of other variants from the wire schema', () => {
    const props = (v: 'earliest' | 'latest') =>
      Object.keys(wireSchema('virtual-host', v, { keepRanges: false }).properties?.tls?.properties ?? {});
    expect(props('earliest')).toContain('lowStrengthCiphersAllowed');
    expect(props('earliest')).not.toContain('certificateMode');
    expect(props('latest')).toContain('certificateMode');
    expect(props('latest')).not.toContain('letsEncryptEnabled');
  });

  it('has one schema per registered kind and per template kind', () => {
    for (const kind of KINDS) expect(SCHEMA_KINDS).toContain(kind.type);
    for (const kind of KINDS) if (kind.template !== undefined) expect(SCHEMA_KINDS).toContain(kind.template);
    expect(new Set(SCHEMA_KINDS).size).toBe(SCHEMA_KINDS.length);
  });
});

describe('the kind registry agrees with the schemas', () => {
  it.each(KINDS.map((k) => [k.type, k] as const))('%s: relationships, cardinality and variants', (_type, kind) => {
    const schema = documentSchema(kind.type);
    const rels = (schema.properties?.relationships?.properties ?? {}) as Record<string, { type?: string; 'x-gwops-variants'?: string[] }>;
    expect(Object.keys(rels).sort()).toEqual(Object.keys(kind.relationships).sort());
    for (const [name, rel] of Object.entries(kind.relationships)) {
      expect(rels[name]?.type, name).toBe(rel.cardinality === 'many' ? 'array' : 'string');
      expect(rels[name]?.['x-gwops-variants'], name).toEqual(rel.variants);
      const inverse = KINDS.find((k) => k.type === rel.target)?.relationships[rel.inverse];
      expect(inverse?.target, `${name} inverse`).toBe(kind.type);
      expect(inverse?.canonical, `exactly one canonical side of ${name}`).toBe(!rel.canonical);
    }
  });

  it('a kind that exists only in some variants says so in its schema', () => {
    for (const kind of KINDS) {
      const variants = documentSchema(kind.type)['x-gwops-variants'];
      expect(variants ?? ['earliest', 'middle', 'latest'], kind.type).toEqual(kind.variants);
    }
  });
});
