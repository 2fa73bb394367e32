/**
 * The gateway's own OpenAPI description (`GET /v3/api-docs`, docs/gateway-api.md "The
 * API's own description") set against the attribute schemas gwops sends (`wireSchema`):
 * where the description keeps a kind's attributes, and how the two schemas differ. Pure:
 * the description is data that was read; nothing here does I/O.
 *
 * Three differences (docs/cli-reference.md `gwops doctor`):
 * - `unmanaged`: the gateway has an attribute gwops does not manage. gwops never sends it,
 *   so the gateway keeps its value (docs/architecture.md "Decisions": only declared
 *   attributes are managed). Information, not a problem.
 * - `unknown`: gwops would send an attribute the gateway does not describe: a manifest that
 *   declares it would be refused. An error.
 * - `type`: both have the attribute, with types that cannot both hold (an `integer` fits a
 *   `number`). An error.
 */
import type { JsonSchema } from '../schema/index.js';

/** How an attribute differs between the gateway's description and gwops's schema. */
export type AttributeDifferenceKind = 'unmanaged' | 'unknown' | 'type';

/** One difference, at an attribute path. */
export interface AttributeDifference {
  readonly kind: AttributeDifferenceKind;
  /** Dotted attribute path; `[]` stands for the items of a list: `backendHosts[].weight`. */
  readonly path: string;
  /** The JSON types the gateway describes there (empty for `unknown`). */
  readonly gateway: readonly string[];
  /** The JSON types gwops sends there (empty for `unmanaged`). */
  readonly gwops: readonly string[];
}

/** A JSON value that is an object (not an array, not null). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How many `$ref`s are followed in a row before giving up (a cycle of references). */
const MAX_REF_HOPS = 32;

/**
 * `node` with its local `$ref` (`#/components/schemas/MappingDto`) followed in `root`, and
 * the members of its `allOf` branches merged in (properties, types). A reference that
 * leads nowhere gives an empty schema (no constraint).
 */
function resolved(node: unknown, root: unknown, hops = 0): Record<string, unknown> {
  if (!isObject(node)) return {};
  if (typeof node.$ref === 'string') {
    if (hops >= MAX_REF_HOPS || !node.$ref.startsWith('#/')) return {};
    let at: unknown = root;
    for (const raw of node.$ref.slice(2).split('/')) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      at = isObject(at) && Object.hasOwn(at, key) ? at[key] : undefined;
    }
    return resolved(at, root, hops + 1);
  }
  if (!Array.isArray(node.allOf)) return node;
  const merged: Record<string, unknown> = { ...node };
  delete merged.allOf;
  const properties: Record<string, unknown> = isObject(node.properties) ? { ...node.properties } : {};
  for (const branch of node.allOf) {
    const b = resolved(branch, root, hops + 1);
    if (isObject(b.properties)) Object.assign(properties, b.properties);
    if (merged.type === undefined && b.type !== undefined) merged.type = b.type;
    if (merged.items === undefined && b.items !== undefined) merged.items = b.items;
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  return merged;
}

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

function typeOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * The JSON types a schema allows: its `type` (a name or a list), else those of its
 * `enum`/`const` values, of its `oneOf`/`anyOf` branches, `object` for `properties`,
 * `array` for `items`; `null` added for OpenAPI 3.0's `nullable`. Empty: any type.
 */
function typesOf(schema: Record<string, unknown>, root: unknown, hops = 0): Set<string> {
  const out = new Set<string>();
  const declared = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
  for (const t of declared) if (typeof t === 'string' && JSON_TYPES.has(t)) out.add(t);
  if (out.size === 0 && Array.isArray(schema.enum)) for (const v of schema.enum) out.add(typeOfValue(v));
  if (out.size === 0 && Object.hasOwn(schema, 'const')) out.add(typeOfValue(schema.const));
  if (out.size === 0 && hops < MAX_REF_HOPS) {
    for (const key of ['oneOf', 'anyOf'] as const) {
      const branches = schema[key];
      if (!Array.isArray(branches)) continue;
      const types = branches.map((b) => typesOf(resolved(b, root), root, hops + 1));
      // A branch that allows any type makes the whole allow any type.
      if (types.some((t) => t.size === 0)) return new Set();
      for (const t of types) for (const name of t) out.add(name);
    }
  }
  if (out.size === 0 && isObject(schema.properties)) out.add('object');
  if (out.size === 0 && schema.items !== undefined) out.add('array');
  if (out.size > 0 && schema.nullable === true) out.add('null');
  return out;
}

/** True when a value of one of `ours` can be one of `theirs` (`integer` and `number` overlap); an empty set allows any type. */
function typesOverlap(ours: ReadonlySet<string>, theirs: ReadonlySet<string>): boolean {
  if (ours.size === 0 || theirs.size === 0) return true;
  const widen = (s: ReadonlySet<string>): Set<string> => new Set([...s, ...(s.has('integer') || s.has('number') ? ['integer', 'number'] : [])]);
  const wide = widen(theirs);
  return [...widen(ours)].some((t) => wide.has(t));
}

function sorted(types: ReadonlySet<string>): string[] {
  return [...types].sort();
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/**
 * The differences between the attribute schema the gateway describes (`gateway`, whose
 * `$ref`s are resolved in `gatewayRoot`, the whole description) and the one gwops sends
 * (`gwops`, a `wireSchema`: `$ref`s already inlined), sorted by path then kind. Objects
 * with `properties` on both sides are compared member by member, lists by their items;
 * below an `unmanaged` or `unknown` attribute, or a type that differs, nothing more is
 * reported. A side that describes an object without `properties` constrains no members.
 */
export function compareAttributeSchemas(gateway: JsonSchema | Record<string, unknown>, gwops: JsonSchema | Record<string, unknown>, gatewayRoot: unknown = gateway): AttributeDifference[] {
  const out: AttributeDifference[] = [];
  const visit = (g: Record<string, unknown>, o: Record<string, unknown>, path: string, depth: number): void => {
    const gTypes = typesOf(g, gatewayRoot);
    const oTypes = typesOf(o, gwops);
    if (path !== '' && !typesOverlap(oTypes, gTypes)) {
      out.push({ kind: 'type', path, gateway: sorted(gTypes), gwops: sorted(oTypes) });
      return;
    }
    if (depth > MAX_REF_HOPS) return;
    if (isObject(g.properties) && isObject(o.properties)) {
      const gp = g.properties;
      const op = o.properties;
      for (const key of new Set([...Object.keys(gp), ...Object.keys(op)])) {
        const at = join(path, key);
        const inGateway = Object.hasOwn(gp, key);
        const inGwops = Object.hasOwn(op, key);
        if (inGateway && !inGwops) out.push({ kind: 'unmanaged', path: at, gateway: sorted(typesOf(resolved(gp[key], gatewayRoot), gatewayRoot)), gwops: [] });
        else if (!inGateway && inGwops) out.push({ kind: 'unknown', path: at, gateway: [], gwops: sorted(typesOf(resolved(op[key], gwops), gwops)) });
        else visit(resolved(gp[key], gatewayRoot), resolved(op[key], gwops), at, depth + 1);
      }
      return;
    }
    if (g.items !== undefined && o.items !== undefined) visit(resolved(g.items, gatewayRoot), resolved(o.items, gwops), `${path}[]`, depth + 1);
  };
  visit(resolved(gateway, gatewayRoot), resolved(gwops, gwops), '', 0);
  const order: Record<AttributeDifferenceKind, number> = { unknown: 0, type: 1, unmanaged: 2 };
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : order[a.kind] - order[b.kind]));
}

/** The request body schema of one operation of the description, when it has a JSON one. */
function jsonBody(operation: unknown, root: unknown): Record<string, unknown> | undefined {
  if (!isObject(operation)) return undefined;
  const body = resolved(operation.requestBody, root);
  if (!isObject(body.content)) return undefined;
  for (const [mediaType, media] of Object.entries(body.content)) {
    if (/json/i.test(mediaType) && isObject(media) && media.schema !== undefined) return resolved(media.schema, root);
  }
  return undefined;
}

/**
 * Where the description keeps the attributes of the kind served at
 * `/configuration/{collection}`: `data.attributes` of the JSON body of its create
 * (`POST /configuration/{collection}`), else of its update (`PATCH` of
 * `/configuration/{collection}/{id}`, or of `/configuration/{collection}` itself for an
 * object without id). A path may carry a prefix before `/configuration` (a description
 * written with the base path). `$ref`s are followed in the description.
 * @returns the schema, or undefined when the description does not describe such a body
 */
export function describedAttributes(description: unknown, collection: string): Record<string, unknown> | undefined {
  if (!isObject(description) || !isObject(description.paths)) return undefined;
  const collectionPath = `/configuration/${collection}`;
  const candidates: unknown[] = [];
  const entries = Object.entries(description.paths);
  const find = (test: (path: string) => boolean, method: string): void => {
    for (const [path, item] of entries) if (test(path) && isObject(item)) candidates.push(item[method]);
  };
  find((p) => p.endsWith(collectionPath), 'post');
  find((p) => p.slice(0, p.lastIndexOf('/')).endsWith(collectionPath) && /^\{[^/]+\}$/.test(p.slice(p.lastIndexOf('/') + 1)), 'patch');
  find((p) => p.endsWith(collectionPath), 'patch');
  for (const operation of candidates) {
    const body = jsonBody(operation, description);
    const data = body && isObject(body.properties) ? resolved(body.properties.data, description) : undefined;
    const attributes = data && isObject(data.properties) ? data.properties.attributes : undefined;
    if (attributes !== undefined) return resolved(attributes, description);
  }
  return undefined;
}
