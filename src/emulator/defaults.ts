/**
 * Server defaults of new objects: a new object gets the gateway's full default tree, so GET
 * returns every attribute (docs/gateway-api.md "Attributes and server defaults").
 *
 * The default tree of each (type, variant) is built once, deep-frozen, and shared by every
 * object created from it: `mergeAttributes` copies only the paths a request sets, so 20,000
 * mappings hold one copy of the ~400 default values, not 20,000. The trees are registered
 * as shared (json-text.ts), so their JSON text is made once too.
 */
import { kindOf } from '../kinds/index.js';
import type { ResourceType, Variant } from '../kinds/index.js';
import { recordedDefaults } from '../kinds/server-defaults.js';
import type { Key } from '../core/object-key.js';
import { joinKey } from '../core/object-key.js';
import type { ItemDefaultsRule, JsonSchema } from '../schema/index.js';
import { itemDefaultsRules, wireSchema } from '../schema/index.js';
import { isJsonObject, mergeAttributes } from './attributes.js';
import { shareTree } from './json-text.js';
import type { Json, JsonObject } from './model.js';


/** Keeps only the members that `schema` (a wire schema: other variants already removed) knows. */
function filterToSchema(value: Json, schema: JsonSchema | undefined): Json | undefined {
  if (!schema) return undefined;
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!items) return value;
    return value.map((item) => filterToSchema(item, items)).filter((item): item is Json => item !== undefined);
  }
  if (isJsonObject(value)) {
    const props = schema.properties;
    if (!props) return value;
    const out: JsonObject = {};
    for (const [key, child] of Object.entries(value)) {
      if (!Object.hasOwn(props, key)) continue;
      const kept = filterToSchema(child, props[key]);
      if (kept !== undefined) out[key] = kept;
    }
    return out;
  }
  return value;
}

const defaultsCache = new Map<Key<'server defaults'>, Readonly<JsonObject>>();

/**
 * The deep-frozen default attribute tree of a new object of `type` in `variant`: the
 * recorded server defaults (the file the kind's hooks name under `server-defaults/`) over
 * the hooks' `extra` defaults, filtered to the variant's schema. Built once per (type,
 * variant).
 * @throws Error when a server-defaults file is missing or malformed (a packaging error).
 */
export function defaultAttributes(type: ResourceType, variant: Variant): Readonly<JsonObject> {
  const key = joinKey<'server defaults'>(type, variant);
  let tree = defaultsCache.get(key);
  if (!tree) {
    const defaults = kindOf(type).emulator.defaults;
    const recorded = defaults.recorded === undefined ? {} : structuredClone(recordedDefaults(defaults.recorded));
    // A copy: the tree is frozen below, and the kind's own data is left as it is.
    const merged = mergeAttributes(structuredClone(defaults.extra), recorded);
    const filtered = filterToSchema(merged, wireSchema(type, variant, { keepRanges: false }));
    tree = shareTree(isJsonObject(filtered) ? filtered : {});
    defaultsCache.set(key, tree);
  }
  return tree;
}

/**
 * Full attribute tree of a new object (docs/gateway-api.md "Attributes and server
 * defaults"): the kind's server defaults (its hooks' `defaults`: the recorded tree under
 * `server-defaults/`, plus the defaults the recording lacks, such as variant-only
 * attributes, or all of them for a kind without recording) filtered to what exists in
 * `variant` (schema `x-gwops-variants`). Then `given` is merged over them ({@link mergeAttributes}: objects deeply, lists
 * replaced) and list items get their item defaults ({@link fillItemDefaults}).
 *
 * `given` must already be checked ({@link checkAttributes}). The default subtrees are
 * deep-frozen and shared between all objects created from them; never mutate the result
 * in place (edits go through `mergeAttributes`, which copies along the changed path).
 * @throws Error when a server-defaults file is missing or malformed (a packaging error).
 */
export function newObjectAttributes(type: ResourceType, variant: Variant, given: Readonly<JsonObject>): JsonObject {
  return fillItemDefaults(type, mergeAttributes(defaultAttributes(type, variant), given));
}

/** True when `item` holds every member of `defaults`, nested objects included. */
function complete(item: Readonly<JsonObject>, defaults: Readonly<JsonObject>): boolean {
  return Object.entries(defaults).every(([key, value]) => {
    if (!Object.hasOwn(item, key)) return false;
    const member = item[key] as Json;
    return !isJsonObject(value) || !isJsonObject(member) || complete(member, value);
  });
}

function fillList(list: Json, defaults: Readonly<JsonObject>): Json {
  if (!Array.isArray(list)) return list;
  let out: Json[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const item = list[i] as Json;
    if (!isJsonObject(item) || complete(item, defaults)) continue;
    out ??= list.slice();
    out[i] = mergeAttributes(defaults, item);
  }
  return out ?? list;
}

/** `value` with the list at `path` (from `index` on; `*` = every array element) filled, copy-on-write. */
function fillAt(value: Json, path: readonly string[], index: number, defaults: Readonly<JsonObject>): Json {
  const seg = path[index];
  if (seg === undefined) return fillList(value, defaults);
  if (seg === '*') {
    if (!Array.isArray(value)) return value;
    let out: Json[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const child = value[i] as Json;
      const next = fillAt(child, path, index + 1, defaults);
      if (next === child) continue;
      out ??= value.slice();
      out[i] = next;
    }
    return out ?? value;
  }
  if (!isJsonObject(value) || !Object.hasOwn(value, seg)) return value;
  const child = value[seg] as Json;
  const next = fillAt(child, path, index + 1, defaults);
  return next === child ? value : { ...value, [seg]: next };
}

const itemDefaultsCache = new Map<ResourceType, readonly ItemDefaultsRule[]>();

/** The type's list-item defaults (schema `default` of each list's `items`), deep-frozen copies, built once per type. */
function itemDefaults(type: ResourceType): readonly ItemDefaultsRule[] {
  let rules = itemDefaultsCache.get(type);
  if (!rules) {
    rules = itemDefaultsRules(type).map((rule) => ({
      segments: rule.segments,
      defaults: shareTree(structuredClone(rule.defaults) as JsonObject),
    }));
    itemDefaultsCache.set(type, rules);
  }
  return rules;
}

/**
 * Applies the list-item defaults of `type` (the schema `default` of each list's `items`,
 * e.g. a back-end group's `backendHosts[]`: mode ENABLED, spare false, weight 100,
 * protocol HTTP, port 80; an allow rule's patterns with `inverted: false`;
 * docs/gateway-api.md "Attributes and server defaults") to items that lack them, nested
 * objects and lists inside items included, as after a PATCH replaced a list. Members an
 * item has are kept.
 *
 * Copy-on-write: returns `attributes` itself when every item is complete (typed mutable
 * for the caller's convenience: treat it as read-only).
 */
export function fillItemDefaults(type: ResourceType, attributes: Readonly<JsonObject>): JsonObject {
  let out = attributes as JsonObject;
  for (const rule of itemDefaults(type)) out = fillAt(out, rule.segments, 0, rule.defaults as JsonObject) as JsonObject;
  return out;
}
