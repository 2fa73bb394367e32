/**
 * fast-check arbitraries derived from the JSON Schemas in schemas/ (through `wireSchema`,
 * the attribute schema of one kind in one variant), and the attribute paths they can
 * exercise, for the convergence drill's coverage table.
 *
 * Values stay inside what the schema admits: enums, integer ranges, booleans, arrays of
 * 0-3 items, objects with any subset of their properties. Strings use a small alphabet that
 * is valid wherever the gateway reads a regular expression or a path. Secret leaves
 * (`x-gwops-secret`) become `{ fromEnv: <variable> }` references; the caller sets the
 * variables. Attributes that name another object (`x-gwops-reference`) hold names of the
 * drill's objects of the target kind ({@link objectName}), or the mark's "none" number; the
 * caller drops the names its set does not declare (manifest-set.ts `resolveReferences`).
 */
import fc from 'fast-check';
import type { ResourceType, Variant } from '../../../src/kinds/index.js';
import type { JsonSchema } from '../../../src/schema/index.js';
import { referenceAttributes, secretAttributes, wireSchema } from '../../../src/schema/index.js';

/** A generated attribute tree (JSON). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Options of {@link attributesArbitrary}. */
export interface ArbitraryOptions {
  /** The environment variable a secret leaf at `path` (dotted, `[]` for array items) reads. */
  readonly secretVariable: (path: string) => string;
  /** Top-level attributes never generated (identity, handled by the caller). */
  readonly skip: readonly string[];
  /** Largest depth of nested objects generated (deeper properties are left out). */
  readonly maxDepth?: number;
}

const SAFE = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-'.split('')), minLength: 1, maxLength: 10 });

function typeOf(schema: JsonSchema): string | undefined {
  const t = schema.type;
  return typeof t === 'string' ? t : Array.isArray(t) ? t.find((x) => x !== 'null') : undefined;
}

function isSecret(type: ResourceType, path: string): boolean {
  return secretAttributes(type).some((p) => p.path === path);
}

/** The object names of a kind in a drill's set: `cv-<kind>-<i>`, `i` from 0. */
export function objectName(kind: string, i: number): string {
  return `cv-${kind}-${i}`;
}

/** Most objects of one kind in a generated set (the indexes {@link objectName} gets). */
export const MAX_PER_KIND = 2;

/**
 * The arbitrary of an attribute that names objects of another kind (schema mark
 * `x-gwops-reference` at `path`): names of the drill's objects of that kind (a list of them
 * when the marked node is an array), or the mark's "none" number; undefined when `path`
 * holds no reference.
 */
function referenceArbitrary(type: ResourceType, schema: JsonSchema, path: string): fc.Arbitrary<Json> | undefined {
  const mark = referenceAttributes(type).find((p) => p.path === path)?.schema;
  const target = mark?.['x-gwops-reference'];
  if (mark === undefined || typeof target !== 'string') return undefined;
  const name = fc.nat({ max: MAX_PER_KIND - 1 }).map((i) => objectName(target, i));
  if (typeOf(schema) === 'array') return fc.uniqueArray(name, { minLength: 0, maxLength: MAX_PER_KIND });
  const none = mark['x-gwops-reference-none'];
  return typeof none === 'number' ? fc.oneof(name, fc.constant(none)) : name;
}

/** The arbitrary of one schema node at attribute path `path`. */
export function valueArbitrary(type: ResourceType, schema: JsonSchema, path: string, options: ArbitraryOptions, depth = 0): fc.Arbitrary<Json> {
  if (path !== '' && isSecret(type, path)) return fc.constant({ fromEnv: options.secretVariable(path) });
  const reference = path === '' ? undefined : referenceArbitrary(type, schema, path);
  if (reference !== undefined) return reference;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...(schema.enum as Json[]));
  switch (typeOf(schema) ?? 'object') {
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
      const max = typeof schema.maximum === 'number' ? schema.maximum : Math.max(min + 1000, 65535);
      return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
    }
    case 'string':
      return SAFE;
    case 'array': {
      const items: JsonSchema = schema.items ?? {};
      return fc.array(valueArbitrary(type, items, `${path}[]`, options, depth + 1), { minLength: 0, maxLength: 3 });
    }
    case 'object':
    default:
      return objectArbitrary(type, schema, path, options, depth);
  }
}

function objectArbitrary(type: ResourceType, schema: JsonSchema, path: string, options: ArbitraryOptions, depth: number): fc.Arbitrary<Json> {
  const props: Record<string, fc.Arbitrary<Json>> = {};
  if (depth <= (options.maxDepth ?? 8)) {
    for (const [key, child] of Object.entries(schema.properties ?? {})) {
      if (path === '' && options.skip.includes(key)) continue;
      props[key] = valueArbitrary(type, child, path === '' ? key : `${path}.${key}`, options, depth + 1);
    }
  }
  return fc.record(props, { requiredKeys: [] }) as fc.Arbitrary<Json>;
}

/** The attributes of one object of `type` in `variant`. */
export function attributesArbitrary(type: ResourceType, variant: Variant, options: ArbitraryOptions): fc.Arbitrary<{ [key: string]: Json }> {
  return valueArbitrary(type, wireSchema(type, variant, { keepRanges: true }), '', options) as fc.Arbitrary<{ [key: string]: Json }>;
}

/** Every attribute path of `type` in `variant` (dotted, `[]` for array items), minus `skip` at the top. */
export function schemaPaths(type: ResourceType, variant: Variant, skip: readonly string[]): string[] {
  const out: string[] = [];
  const visit = (node: JsonSchema, path: string): void => {
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      if (path === '' && skip.includes(key)) continue;
      const p = path === '' ? key : `${path}.${key}`;
      out.push(p);
      visit(child, p);
    }
    if (node.items) visit(node.items, `${path}[]`);
  };
  visit(wireSchema(type, variant, { keepRanges: true }), '');
  return out;
}

/** The attribute paths a generated tree exercises (the same notation as {@link schemaPaths}). */
export function exercisedPaths(value: Json, path = '', out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) exercisedPaths(item, `${path}[]`, out);
  } else if (typeof value === 'object' && value !== null && !('fromEnv' in value && Object.keys(value).length === 1)) {
    for (const [key, child] of Object.entries(value)) {
      const p = path === '' ? key : `${path}.${key}`;
      out.add(p);
      exercisedPaths(child, p, out);
    }
  }
  return out;
}

/** The arbitrary of a scalar leaf's schema node at a dotted path outside arrays, or undefined. */
export function leafSchema(type: ResourceType, variant: Variant, path: string): JsonSchema | undefined {
  let node: JsonSchema | undefined = wireSchema(type, variant, { keepRanges: true });
  for (const key of path.split('.')) node = node?.properties?.[key];
  return node;
}
