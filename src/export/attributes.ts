/**
 * What `gwops export` writes of one live object's attributes: the attributes that differ
 * from the server defaults (the recorded tree under `server-defaults/` over the kind's
 * `defaults.extra`, as data: docs/gateway-api.md "Attributes and server defaults") and
 * `name` (the identity; the document's name when written), without attributes gwops does not know, and with every
 * secret that holds one replaced by a {@link SecretSlot} (filled with `{ fromEnv }` later).
 */
import type { ResourceType, Variant } from '../kinds/index.js';
import { kindOf } from '../kinds/index.js';
import { recordedDefaults } from '../kinds/server-defaults.js';
import type { Key } from '../object-key.js';
import { joinKey } from '../object-key.js';
import type { JsonSchema } from '../schema/index.js';
import { secretAttributes, wireSchema, writeOnlyAttributes } from '../schema/index.js';

/** A plain JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof SecretSlot);
}

/** Where a secret value was: the manifest reads it from an environment variable instead. */
export class SecretSlot {
  constructor(
    /** False when the gateway returns the value (a secret that is readable): the variable must then hold the live value. */
    readonly writeOnly: boolean,
  ) {}
}

/** Deep equality of JSON values (lists item by item, objects key by key). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item: unknown, i) => jsonEqual(item, b[i]));
  if (isPlainObject(a)) {
    if (!isPlainObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** `over` merged onto `under`: objects deeply, everything else (lists included) replaced. */
function merge(under: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...under };
  for (const [key, value] of Object.entries(over)) {
    const below = out[key];
    out[key] = isPlainObject(below) && isPlainObject(value) ? merge(below, value) : value;
  }
  return out;
}

const defaultsCache = new Map<ResourceType, Readonly<Record<string, unknown>>>();

/**
 * The default attribute tree of a new object of `type`: the recording the kind's hooks
 * name (`defaults.recorded`, a file under `server-defaults/`) over their `defaults.extra`.
 * @throws Error when the recording is missing or malformed (a packaging error)
 */
export function defaultTree(type: ResourceType): Readonly<Record<string, unknown>> {
  let tree = defaultsCache.get(type);
  if (!tree) {
    const defaults = kindOf(type).emulator.defaults;
    const recorded = defaults.recorded === undefined ? {} : structuredClone(recordedDefaults(defaults.recorded));
    tree = merge(structuredClone(defaults.extra), recorded);
    defaultsCache.set(type, tree);
  }
  return tree;
}

/**
 * `value` without the members equal to the default tree `defaults` at the same path:
 * objects recursively (an object left empty by that is dropped too), lists and scalars
 * compared whole. Members the defaults do not have are kept.
 */
export function stripDefaults(value: Record<string, unknown>, defaults: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (!Object.hasOwn(defaults, key)) {
      out[key] = child;
      continue;
    }
    const fallback = defaults[key];
    if (jsonEqual(child, fallback)) continue;
    if (isPlainObject(child) && isPlainObject(fallback)) {
      const stripped = stripDefaults(child, fallback);
      if (Object.keys(stripped).length > 0) out[key] = stripped;
      continue;
    }
    out[key] = child;
  }
  return out;
}

/**
 * Keeps what `schema` (a wire schema) knows; calls `unknown` with the dotted path of anything
 * else. `at` is the path of `value` (keys, `[]` for list items), extended and restored in
 * place: the dotted path is only made for an unknown attribute.
 */
function filterToSchema(value: unknown, schema: JsonSchema, at: string[], unknown: (path: string) => void): unknown {
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!items) return value;
    at.push('[]');
    const out = value.map((item: unknown) => filterToSchema(item, items, at, unknown));
    at.pop();
    return out;
  }
  if (isPlainObject(value) && schema.properties) {
    const props = schema.properties;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const childSchema = props[key];
      if (!childSchema) {
        unknown(dotted([...at, key]));
        continue;
      }
      at.push(key);
      out[key] = filterToSchema(value[key], childSchema, at, unknown);
      at.pop();
    }
    return out;
  }
  return value;
}

/** `a.b[].c` from the segments `a`, `b`, `[]`, `c`. */
function dotted(segments: readonly string[]): string {
  return segments.reduce((path, segment) => (segment === '[]' ? `${path}[]` : path === '' ? segment : `${path}.${segment}`), '');
}

/** Calls `fn` with each concrete path (array indexes as decimal strings) that `pattern` (`*` = any index) matches in `value`. */
export function forEachPath(value: unknown, pattern: readonly string[], fn: (path: string[], parent: Record<string, unknown>, key: string) => void, at: string[] = []): void {
  const [head, ...rest] = pattern;
  if (head === undefined) return;
  if (head === '*') {
    if (!Array.isArray(value)) return;
    value.forEach((item: unknown, i) => forEachPath(item, rest, fn, [...at, String(i)]));
    return;
  }
  if (!isPlainObject(value)) return;
  if (rest.length === 0) {
    fn([...at, head], value, head);
    return;
  }
  if (Object.hasOwn(value, head)) forEachPath(value[head], rest, fn, [...at, head]);
}

/** Options of {@link exportAttributes}. */
export interface AttributeOptions {
  readonly variant: Variant;
  /** Keep the attributes equal to the server defaults (`--keep-defaults`). */
  readonly keepDefaults: boolean;
  /** Receives the dotted path of each attribute that the variant's schema does not know (left out). */
  readonly unknown: (path: string) => void;
}

/**
 * The attributes a manifest of a live object declares (see the module comment). Secrets
 * that hold one (schema `x-gwops-secret`, unless the kind's `holdsSecret` says the value
 * is none) become {@link SecretSlot}s; a write-only value the gateway returned anyway is
 * never kept.
 */
export function exportAttributes(type: ResourceType, live: Readonly<Record<string, unknown>>, options: AttributeOptions): Record<string, unknown> {
  const kind = kindOf(type);
  const { schema, secrets, defaults } = kindRules(type, options.variant);
  let attributes = filterToSchema(live, schema, [], options.unknown) as Record<string, unknown>;
  const slots: string[][] = [];
  for (const secret of secrets) {
    forEachPath(attributes, secret.segments, (path, parent, key) => {
      if (!Object.hasOwn(parent, key)) return;
      if (secret.writeOnly) {
        delete parent[key];
        return;
      }
      const value = parent[key];
      if (value === '' || value === null || value === undefined) return;
      if (kind.holdsSecret?.(path, live) === false) return;
      slots.push(path);
    });
  }
  if (!options.keepDefaults) attributes = stripDefaults(attributes, defaults);
  for (const path of slots) {
    const last = path[path.length - 1];
    let node: unknown = attributes;
    for (const segment of path.slice(0, -1)) node = Array.isArray(node) ? node[Number(segment)] : isPlainObject(node) ? node[segment] : undefined;
    if (last !== undefined && isPlainObject(node) && Object.hasOwn(node, last)) node[last] = new SecretSlot(false);
  }
  return attributes;
}

/** What {@link exportAttributes} reads of a kind's schema and defaults, per kind and variant. */
interface KindRules {
  /** The wire schema with ranges. */
  readonly schema: JsonSchema;
  /** The attributes marked secret, and whether each is write-only. */
  readonly secrets: readonly { readonly segments: readonly string[]; readonly writeOnly: boolean }[];
  readonly defaults: Readonly<Record<string, unknown>>;
}

const rulesCache = new Map<Key<'export rules'>, KindRules>();

/** The {@link KindRules} of `type` in `variant`, made once (the schema's conversion costs more than exporting an object). */
function kindRules(type: ResourceType, variant: Variant): KindRules {
  const key = joinKey<'export rules'>(type, variant);
  let rules = rulesCache.get(key);
  if (!rules) {
    const writeOnly = new Set(writeOnlyAttributes(type).map((p) => p.path));
    rules = {
      schema: wireSchema(type, variant, { keepRanges: true }),
      secrets: secretAttributes(type).map((p) => ({ segments: p.segments, writeOnly: writeOnly.has(p.path) })),
      defaults: defaultTree(type),
    };
    rulesCache.set(key, rules);
  }
  return rules;
}
