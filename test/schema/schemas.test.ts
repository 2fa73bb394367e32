import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import { recordedDefaults } from '../../src/kinds/server-defaults.js';
import { SCHEMA_KINDS, documentSchema, secretAttributes, wireSchema, writeOnlyAttributes } from '../../src/schema/index.js';
import { loadSchemaFile } from '../../src/schema/schema-files.js';

const defaults = (file: string): unknown => parse(readFileSync(new URL(`../../server-defaults/${file}`, import.meta.url), 'utf8'));

/** The kinds whose emulator hooks name a file of server defaults recorded from a real gateway, with that file. */
const RECORDED = KINDS.flatMap((k) => (k.emulator.defaults.recorded === undefined ? [] : [[k.type, k.emulator.defaults.recorded] as const]));

describe('schemas', () => {
  it('every kind has a draft 2020-12 schema that compiles', () => {
    const ajv = new Ajv2020.default({ strict: false, allErrors: true });
    for (const kind of SCHEMA_KINDS) ajv.addSchema(documentSchema(kind));
    for (const kind of SCHEMA_KINDS) {
      expect(ajv.getSchema(`https://gwops.dev/schemas/${kind}.schema.json`), kind).toBeTypeOf('function');
    }
  });

  it('every schema of the package passes the draft 2020-12 meta-schema (gwops does not check it at run time)', () => {
    const ajv = new Ajv2020.default({ strict: false });
    const schemas = [...SCHEMA_KINDS.map((kind) => documentSchema(kind)), loadSchemaFile('project.schema.json')];
    for (const schema of schemas) expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
    expect(schemas.length).toBe(SCHEMA_KINDS.length + 1);
  });

  it.each(RECORDED)('the server defaults of a %s (server-defaults/%s) are valid attributes of the middle variant', (kind, file) => {
    const ajv = new Ajv2020.default({ strict: false, allErrors: true });
    const validate = ajv.compile(wireSchema(kind, 'middle', { keepRanges: true }));
    expect(validate(defaults(file)), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each(RECORDED)('the server defaults of a %s (server-defaults/%s) read as the yaml package reads them', (_kind, file) => {
    expect(recordedDefaults(file)).toStrictEqual(defaults(file));
  });

  it('has server defaults recorded for some kinds', () => {
    expect(RECORDED.length).toBeGreaterThan(0);
  });

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
