/**
 * Attribute handling of the emulator: checking request attributes against the schema of
 * the emulated variant, the deep merge of PATCH, and the read view that hides write-only
 * attributes. Pure functions over immutable JSON values.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { ResourceType, Variant } from '../kinds/index.js';
import type { JsonSchema } from '../schema/index.js';
import { wireSchema, writeOnlyAttributes } from '../schema/index.js';
import type { Key } from '../core/object-key.js';
import { joinKey } from '../core/object-key.js';
import type { Json, JsonObject } from './model.js';
import { setOwnMember } from '../core/own-member.js';

/** Result of {@link checkAttributes}. */
export type AttributeCheck = { ok: true; value: JsonObject } | { ok: false; detail: string };

interface Checker {
  readonly schema: JsonSchema;
  readonly validate: ValidateFunction;
}

const ajv = new Ajv2020.default({ strict: false, allErrors: true });
const checkers = new Map<Key<'attribute checker'>, Checker>();

function checkerFor(type: ResourceType, variant: Variant): Checker {
  const key = joinKey<'attribute checker'>(type, variant);
  let checker = checkers.get(key);
  if (!checker) {
    const schema = wireSchema(type, variant, { keepRanges: false });
    checker = { schema, validate: ajv.compile(schema) };
    checkers.set(key, checker);
  }
  return checker;
}

/** True for a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function schemaAllows(schema: JsonSchema, jsonType: string): boolean {
  const t = schema.type;
  return Array.isArray(t) ? t.includes(jsonType) : t === jsonType;
}

/**
 * Replaces the strings "true"/"false" by booleans wherever `schema` says boolean
 * (docs/gateway-api.md "What real clients send"). Copy-on-write: returns `value` itself
 * when nothing changed, and new containers only along changed paths.
 */
function coerceBooleans(value: Json, schema: JsonSchema | undefined): Json {
  if (!schema) return value;
  if (typeof value === 'string') {
    if ((value === 'true' || value === 'false') && schemaAllows(schema, 'boolean') && !schemaAllows(schema, 'string')) {
      return value === 'true';
    }
    return value;
  }
  if (Array.isArray(value)) {
    const itemSchema = schema.items;
    if (!itemSchema) return value;
    let out: Json[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i] as Json;
      const coerced = coerceBooleans(item, itemSchema);
      if (coerced !== item) {
        out ??= value.slice();
        out[i] = coerced;
      }
    }
    return out ?? value;
  }
  if (isJsonObject(value)) {
    const props = schema.properties;
    if (!props) return value;
    let out: JsonObject | undefined;
    for (const [key, child] of Object.entries(value)) {
      const coerced = coerceBooleans(child, Object.hasOwn(props, key) ? props[key] : undefined);
      if (coerced !== child) {
        out ??= { ...value };
        setOwnMember(out, key, coerced);
      }
    }
    return out ?? value;
  }
  return value;
}

/** `/backendHosts/0/port` → `backendHosts[0].port` (JSON pointer unescaped). */
function dottedPath(pointer: string, extra?: string): string {
  const segments = pointer === '' ? [] : pointer.slice(1).split('/');
  if (extra !== undefined) segments.push(extra);
  let out = '';
  for (const raw of segments) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(seg)) out += `[${seg}]`;
    else out += out === '' ? seg : `.${seg}`;
  }
  return out;
}

const ARTICLE_AN = new Set(['integer', 'object', 'array']);

function describeError(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  const path = dottedPath(e.instancePath);
  const subject = path === '' ? 'attributes' : `'${path}'`;
  switch (e.keyword) {
    case 'additionalProperties':
      return `unknown attribute '${dottedPath(e.instancePath, String(params.additionalProperty))}'`;
    case 'type': {
      const t = String(params.type);
      return `${subject} must be ${ARTICLE_AN.has(t) ? 'an' : 'a'} ${t}`;
    }
    case 'enum': {
      const allowed = Array.isArray(params.allowedValues) ? params.allowedValues.map(String).join(', ') : '';
      return `${subject} must be one of ${allowed}`;
    }
    default:
      return `${subject} ${e.message ?? 'is invalid'}`;
  }
}

const KEYWORD_RANK: Readonly<Record<string, number>> = { additionalProperties: 0, type: 1, enum: 2 };

/** The ajv errors as one detail sentence, most telling first (unknown attributes, types, enums). */
function detailOf(errors: readonly ErrorObject[]): string {
  const sorted = [...errors].sort((a, b) => (KEYWORD_RANK[a.keyword] ?? 9) - (KEYWORD_RANK[b.keyword] ?? 9));
  return [...new Set(sorted.map(describeError))].join('; ');
}

/**
 * Checks request attributes of a create or PATCH against the attribute schema of one
 * variant (docs/gateway-api.md "Rules for PATCH": 400 `INVALID_VALUE`; "Variants": an attribute
 * of another variant reads like an unknown one).
 *
 * First coerces the strings "true"/"false" where the schema says boolean
 * (docs/gateway-api.md "What real clients send"), then validates against
 * `wireSchema(type, variant, {keepRanges:false})`, compiled once per (type, variant) with
 * ajv 2020 (allErrors). Numbers outside the documented ranges are accepted here: the
 * validator reports them (docs/gateway-api.md "Attributes and server defaults").
 *
 * @param attributes the parsed `data.attributes` of the request (anything JSON)
 * @returns `{ok:true, value}` with the coerced attributes (the input itself when nothing
 *   needed coercion), or `{ok:false, detail}` with a sentence such as
 *   `unknown attribute 'tls.fooBar'`, `'keepAliveTimeout' must be an integer`,
 *   `'threatHandling' must be one of BLOCK, TERMINATE_SESSION, NOTIFY`; several problems
 *   are joined with `; `, unknown attributes first. Never throws.
 */
export function checkAttributes(type: ResourceType, variant: Variant, attributes: unknown): AttributeCheck {
  if (!isJsonObject(attributes)) return { ok: false, detail: 'attributes must be an object' };
  const checker = checkerFor(type, variant);
  const value = coerceBooleans(attributes, checker.schema) as JsonObject;
  if (checker.validate(value)) return { ok: true, value };
  return { ok: false, detail: detailOf(checker.validate.errors ?? []) };
}

/**
 * Deep merge for PATCH (docs/gateway-api.md "Rules for PATCH" 3 and 4: lists replace,
 * nested objects merge at every depth): where both sides hold an object, they merge
 * recursively; arrays, scalars and null in `patch` replace the value of `base`; members
 * absent from `patch` keep their value.
 *
 * Neither argument is modified. The result is a new top-level object; every subtree of
 * `base` that the patch does not touch is shared by reference, not copied (server
 * defaults stay shared between objects).
 */
export function mergeAttributes(base: Readonly<JsonObject>, patch: Readonly<JsonObject>): JsonObject {
  const out: JsonObject = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    const current = Object.hasOwn(base, key) ? base[key] : undefined;
    const merged = isJsonObject(current) && isJsonObject(value) ? mergeAttributes(current, value) : value;
    // A JSON body may carry an own `__proto__` member: it stays one.
    setOwnMember(out, key, merged);
  }
  return out;
}

const writeOnlyCache = new Map<ResourceType, readonly (readonly string[])[]>();

function writeOnlyPaths(type: ResourceType): readonly (readonly string[])[] {
  let paths = writeOnlyCache.get(type);
  if (!paths) {
    paths = writeOnlyAttributes(type).map((p) => p.segments);
    writeOnlyCache.set(type, paths);
  }
  return paths;
}

/** Removes the member at `segments` (`*` = every array element), copy-on-write. */
function without(value: Json, segments: readonly string[], index: number): Json {
  const seg = segments[index];
  if (seg === undefined) return value;
  const last = index === segments.length - 1;
  if (seg === '*') {
    if (!Array.isArray(value)) return value;
    let out: Json[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i] as Json;
      const next = without(item, segments, index + 1);
      if (next !== item) {
        out ??= value.slice();
        out[i] = next;
      }
    }
    return out ?? value;
  }
  if (!isJsonObject(value) || !Object.hasOwn(value, seg)) return value;
  const out = { ...value };
  if (last) {
    delete out[seg];
    return out;
  }
  const child = value[seg] as Json;
  const next = without(child, segments, index + 1);
  if (next === child) return value;
  setOwnMember(out, seg, next);
  return out;
}

/**
 * The attributes as GET returns them: the schema's `writeOnly` attributes removed
 * (docs/gateway-api.md "Attributes and server defaults": an ssl-certificate's `passphrase`,
 * while its `privateKey` is returned as stored; acme-service `externalAccountBinding.hmacKey`).
 *
 * Copy-on-write: when the object holds no write-only attribute, `attributes` itself is
 * returned (typed mutable for the caller's convenience: treat it as read-only).
 */
export function readableAttributes(type: ResourceType, attributes: Readonly<JsonObject>): JsonObject {
  let out = attributes as JsonObject;
  for (const segments of writeOnlyPaths(type)) out = without(out, segments, 0) as JsonObject;
  return out;
}
