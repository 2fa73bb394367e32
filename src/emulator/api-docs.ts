/**
 * `GET /v3/api-docs` (JSON) and `/v3/api-docs.yaml`: an OpenAPI 3.1 description of exactly
 * what this emulator serves for its variant (docs/gateway-api.md "The API's own
 * description"). It is generated, never written by hand: the paths come from the route table
 * (parameterised routes expanded over the kinds and relationships of the variant) and the
 * attribute schemas from the kind registry, so a route or an attribute cannot be served
 * without being described. Pure: no I/O.
 */
import { KINDS, kindExistsIn } from '../kinds/index.js';
import type { KindDefinition, RelationshipDefinition, Variant } from '../kinds/index.js';
import type { JsonSchema } from '../schema/index.js';
import { wireSchema } from '../schema/index.js';
import type { Route } from './routing.js';

/** An OpenAPI 3.1 document (only the members this module writes). */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { readonly title: string; readonly version: string };
  readonly paths: Record<string, Record<string, Operation>>;
}

/** One operation of a path. */
export interface Operation {
  readonly operationId: string;
  readonly summary: string;
  readonly parameters?: readonly unknown[];
  readonly requestBody?: { readonly required: boolean; readonly content: Record<string, { readonly schema: JsonSchema }> };
  readonly responses: Record<string, { readonly description: string }>;
}

/** The calls the server answers before its route table (server.ts `dispatch`). */
const FIXED_ROUTES: readonly { method: Route['method']; pattern: readonly string[] }[] = [
  { method: 'POST', pattern: ['session', 'create'] },
  { method: 'POST', pattern: ['session', 'terminate'] },
  { method: 'GET', pattern: 'system/status/node'.split('/') },
  { method: 'GET', pattern: ['v3', 'api-docs'] },
  { method: 'GET', pattern: ['v3', 'api-docs.yaml'] },
];

const IDENTIFIER: JsonSchema = {
  type: 'object',
  required: ['id'],
  properties: { type: { type: 'string' }, id: { type: ['string', 'integer'] } },
};

/** A relationship body: one identifier, several, or null (to-one unlink); ids as strings or numbers. */
function linkageSchema(def: RelationshipDefinition): JsonSchema {
  const item: JsonSchema = { ...IDENTIFIER, properties: { type: { type: 'string', enum: [def.target] }, id: { type: ['string', 'integer'] } } };
  return {
    type: 'object',
    required: ['data'],
    properties: { data: def.cardinality === 'one' ? { oneOf: [item, { type: 'array', items: item, maxItems: 1 }, { type: 'null' }] } : { oneOf: [item, { type: 'array', items: item }] } },
  };
}

/** A create or update body of `kind`: `data.type`, optional `data.id`, the attributes, relationship members. */
function resourceBodySchema(kind: KindDefinition, variant: Variant): JsonSchema {
  const relationships: Record<string, JsonSchema> = {};
  for (const def of relationshipsIn(kind, variant)) relationships[def.name] = linkageSchema(def);
  return {
    type: 'object',
    required: ['data'],
    properties: {
      data: {
        type: 'object',
        properties: {
          type: { type: 'string', enum: [kind.type] },
          id: { type: ['string', 'integer', 'null'] },
          attributes: wireSchema(kind.type, variant, { keepRanges: false }),
          relationships: { type: 'object', properties: relationships, additionalProperties: false },
        },
      },
    },
  };
}

function relationshipsIn(kind: KindDefinition, variant: Variant): RelationshipDefinition[] {
  return Object.values(kind.relationships).filter((d) => !d.variants || d.variants.includes(variant));
}

/** One concrete path of a route: its segments, the kind and relationship it was expanded for. */
interface Expansion {
  readonly segments: readonly string[];
  readonly kind?: KindDefinition;
  readonly relationship?: RelationshipDefinition;
}

/** Expands `:collection` over the variant's kinds and `:relationship` over that kind's relationships (link endpoints and aliases included). */
function expand(pattern: readonly string[], variant: Variant): Expansion[] {
  if (!pattern.includes(':collection')) {
    const kind = KINDS.find((k) => pattern[0] === 'configuration' && pattern[1] === k.collection);
    return [{ segments: pattern, ...(kind ? { kind } : {}) }];
  }
  const out: Expansion[] = [];
  // A singleton is served at its own path only (routes-singletons.ts), never through `:collection`.
  for (const kind of KINDS.filter((k) => kindExistsIn(k, variant) && !k.singleton)) {
    const withKind = pattern.map((s) => (s === ':collection' ? kind.collection : s));
    if (!pattern.includes(':relationship')) {
      out.push({ segments: withKind, kind });
      continue;
    }
    for (const relationship of relationshipsIn(kind, variant)) {
      const endpoint = relationship.endpoint === undefined ? [] : [relationship.endpoint];
      for (const name of [relationship.name, ...endpoint, ...(relationship.aliases ?? [])]) {
        out.push({ segments: withKind.map((s) => (s === ':relationship' ? name : s)), kind, relationship });
      }
    }
  }
  return out;
}

/** The request body of one operation, where the emulator reads JSON or an archive. */
function requestBody(method: Route['method'], e: Expansion, variant: Variant): Operation['requestBody'] {
  const last = e.segments[e.segments.length - 1];
  if (e.relationship) {
    return method === 'GET' ? undefined : { required: method !== 'DELETE', content: { 'application/json': { schema: linkageSchema(e.relationship) } } };
  }
  if (last === 'import') return { required: true, content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } } };
  if (e.kind && (method === 'POST' || method === 'PATCH') && (e.segments.length === 2 || (e.segments.length === 3 && method === 'PATCH'))) {
    return { required: true, content: { 'application/json': { schema: resourceBodySchema(e.kind, variant) } } };
  }
  if (method === 'POST' || method === 'PATCH' || method === 'PUT') {
    // Body-less POSTs come in every form (none, empty, null, {}): docs/gateway-api.md "What real clients send".
    return { required: false, content: { 'application/json': { schema: { type: ['object', 'null'] } } } };
  }
  return undefined;
}

function operation(method: Route['method'], e: Expansion, variant: Variant): { path: string; op: Operation } {
  const params = e.segments.filter((s) => s.startsWith(':')).map((s) => s.slice(1));
  const path = '/' + e.segments.map((s) => (s.startsWith(':') ? `{${s.slice(1)}}` : s)).join('/');
  const body = requestBody(method, e, variant);
  const op: Operation = {
    operationId: `${method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: `${method} ${path}`,
    ...(params.length > 0 ? { parameters: params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })) } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: { default: { description: 'a JSON:API document, an archive, or no content; errors as a JSON:API error document' } },
  };
  return { path, op };
}

/**
 * The OpenAPI description of `routes` as served for `variant`, titled with `version`.
 * Every route appears once per kind and relationship it serves in that variant.
 */
export function apiDocs(routes: readonly Pick<Route, 'method' | 'pattern'>[], variant: Variant, version: string): OpenApiDocument {
  const paths: Record<string, Record<string, Operation>> = {};
  for (const route of [...FIXED_ROUTES, ...routes]) {
    for (const e of expand(route.pattern, variant)) {
      const { path, op } = operation(route.method, e, variant);
      const ops = (paths[path] ??= {});
      ops[route.method.toLowerCase()] ??= op;
    }
  }
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { openapi: '3.1.0', info: { title: `gwops gateway emulator (${variant} variant)`, version }, paths: sorted };
}
