/**
 * `${VAR}` gives the type the schema expects where the whole value is one reference, and an
 * unquoted reference in a flow collection reads as it does anywhere else: a property over
 * the scalar types of JSON Schema (integer, number, boolean, string, enum), then the loader
 * end to end on real kinds.
 */
import { Readable } from 'node:stream';
import Ajv2020 from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';
import { typeWholeReferences } from '../../src/manifest/schema-check.js';
import { substituteVariables } from '../../src/manifest/variables.js';

const ajv = new Ajv2020.default({ allErrors: true, strict: false, verbose: true });
const compiled = new Map<string, ReturnType<typeof ajv.compile>>();

/** A schema type and values of it, as a manifest would hold them. */
interface Case {
  readonly schema: Record<string, unknown>;
  readonly value: unknown;
}

const finite = fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n));
const scalarCase: fc.Arbitrary<Case> = fc.oneof(
  fc.integer().map((value) => ({ schema: { type: 'integer' }, value })),
  finite.map((value) => ({ schema: { type: 'number' }, value })),
  fc.boolean().map((value) => ({ schema: { type: 'boolean' }, value })),
  fc.string().map((value) => ({ schema: { type: 'string' }, value })),
  // Strings that look like other types stay strings where a string is expected.
  fc.oneof(fc.integer().map(String), fc.constantFrom('true', 'false', 'null', '1.5', '0x1F')).map((value) => ({ schema: { type: 'string' }, value })),
  fc.uniqueArray(fc.integer(), { minLength: 1, maxLength: 4 }).chain((allowed) => fc.constantFrom(...allowed).map((value) => ({ schema: { enum: allowed }, value }))),
  fc.uniqueArray(fc.stringMatching(/^[A-Z0-9_]{1,6}$/), { minLength: 1, maxLength: 4 }).chain((allowed) => fc.constantFrom(...allowed).map((value) => ({ schema: { type: 'string', enum: allowed }, value }))),
);

/** How a value is written in an environment variable. */
const asText = (value: unknown): string => (typeof value === 'string' ? value : String(value));

/** Substitutes, validates, types the whole references and validates again: the value the loader ends with. */
function load(schema: Record<string, unknown>, written: Record<string, unknown>, env: Record<string, string>): { value: unknown; valid: boolean } {
  const key = JSON.stringify(schema);
  const validate = compiled.get(key) ?? ajv.compile({ type: 'object', properties: { x: schema, list: { type: 'array', items: schema } } });
  compiled.set(key, validate);
  const { value, whole } = substituteVariables(written, env);
  let valid = validate(value) as boolean;
  if (!valid && typeWholeReferences(validate.errors ?? [], value, (segments) => whole.has(segments.join('/')))) valid = validate(value) as boolean;
  return { value, valid };
}

describe('${VAR} gives the type the schema expects where the whole value is one reference', () => {
  it('property: every scalar type, from the variable or from the default, in a mapping and in a list', () => {
    fc.assert(
      fc.property(scalarCase, fc.boolean(), ({ schema, value }, fromDefault) => {
        const text = asText(value);
        // A default cannot hold '}'; such values come from the variable.
        const useDefault = fromDefault && !text.includes('}') && text !== '';
        const reference = useDefault ? `\${V:-${text}}` : '${V}';
        const result = load(schema, { x: reference, list: [reference] }, useDefault ? {} : { V: text });
        expect(result.valid).toBe(true);
        expect(result.value).toEqual({ x: value, list: [value] });
      }),
      { numRuns: 200 },
    );
  });

  it('property: a reference with anything around it stays a string, so a non-string schema reports it', () => {
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom('integer', 'number', 'boolean'), (n, type) => {
        const result = load({ type }, { x: 'port-${V}' }, { V: String(n) });
        expect(result.value).toEqual({ x: `port-${n}` });
        expect(result.valid).toBe(false);
      }),
      { numRuns: 50 },
    );
  });

  it('a value that is not of the expected type stays a string, and the schema reports it', () => {
    expect(load({ type: 'integer' }, { x: '${V}' }, { V: 'five' })).toEqual({ value: { x: 'five' }, valid: false });
    expect(load({ type: 'integer' }, { x: '${V}' }, { V: '2.5' })).toEqual({ value: { x: '2.5' }, valid: false });
    expect(load({ type: 'boolean' }, { x: '$${V}' }, { V: 'true' })).toEqual({ value: { x: '${V}' }, valid: false });
  });
});

const HOST = (attributes: string): string => `apiVersion: gwops/v1\nkind: virtual-host\nname: typed\nattributes:\n${attributes}`;

async function loadText(text: string, env: Record<string, string> = {}): Promise<Awaited<ReturnType<typeof loadManifests>>> {
  return loadManifests({ paths: ['-'], cwd: '/nonexistent-gwops-cwd', env, stdin: Readable.from([text]) });
}

describe('the loader types whole references on real kinds', () => {
  it('integer, boolean and enum attributes from variables and defaults', async () => {
    const result = await loadText(
      HOST('  keepAliveTimeout: ${KA:-5}\n  showMaintenancePage: ${MAINT}\n  hostName: ${HOST_NAME}\n  tls:\n    acmeChallengeType: ${CHALLENGE:-DNS_01}\n'),
      { MAINT: 'false', HOST_NAME: '8080' },
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.documents[0]?.attributes).toMatchObject({ keepAliveTimeout: 5, showMaintenancePage: false, hostName: '8080', tls: { acmeChallengeType: 'DNS_01' } });
  });

  it('a value that does not fit gives one located error', async () => {
    const result = await loadText(HOST('  keepAliveTimeout: ${KA}\n'), { KA: 'soon' });
    expect(result.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([['invalid-type', 5, 21]]);
    expect(result.diagnostics[0]?.message).toContain('must be an integer');
  });

  it('unquoted references in flow collections read as plain values, at their own positions', async () => {
    const result = await loadText(
      HOST('  networkInterface: { http: { enabled: ${HTTP:-true}, port: ${PORT} } }\n  aliasNames: [${ALIAS:-a.example.com}, b.example.com]\n'),
      { PORT: '8080' },
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.documents[0]?.attributes).toMatchObject({ networkInterface: { http: { enabled: true, port: 8080 } }, aliasNames: ['a.example.com', 'b.example.com'] });
    const bad = await loadText(HOST('  networkInterface: { http: { enabled: true, port: ${PORT} } }\n'), { PORT: 'eighty' });
    expect(bad.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([['invalid-type', 5, 52]]);
  });
});
