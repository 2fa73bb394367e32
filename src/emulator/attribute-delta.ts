/**
 * An object's attributes as their difference from its kind's server defaults, and back
 * (the emulator's state file stores them so; docs/gateway-api.md "Attributes and server
 * defaults"). Rebuilt attributes share every untouched default subtree.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ResourceType, Variant } from '../kinds/index.js';
import { isJsonObject, mergeAttributes } from './attributes.js';
import { defaultAttributes } from './defaults.js';
import type { Json, JsonObject } from './model.js';
import { setOwnMember } from '../core/own-member.js';

/** A member whose value equals the default's. */
export const SAME = Symbol('same');


/**
 * What of `value` differs from `base`: {@link SAME}, the value whole, or, where both are
 * objects, an object of the differing members; the paths of `base` members that `value`
 * lacks are pushed to `absent`.
 */
export function difference(value: Json, base: Json, path: readonly string[], absent: string[][]): Json | typeof SAME {
  if (value === base) return SAME;
  if (!isJsonObject(value) || !isJsonObject(base)) return isDeepStrictEqual(value, base) ? SAME : value;
  const out: JsonObject = {};
  let differs = false;
  for (const key of Object.keys(value)) {
    const member = value[key] as Json;
    const d = Object.hasOwn(base, key) ? difference(member, base[key] as Json, [...path, key], absent) : member;
    if (d === SAME) continue;
    setOwnMember(out, key, d);
    differs = true;
  }
  for (const key of Object.keys(base)) {
    if (Object.hasOwn(value, key)) continue;
    absent.push([...path, key]);
    differs = true;
  }
  return differs ? out : SAME;
}

/**
 * `attributes` rebuilt from {@link difference}'s output over `base`: untouched subtrees are
 * `base`'s own (shared). Every object on an `absent` path is a copy made by the merge (its
 * ancestors all differ), so members are removed in place.
 */
export function rebuilt(base: Readonly<JsonObject>, delta: JsonObject, absent: readonly (readonly string[])[]): JsonObject {
  const out = mergeAttributes(base, delta);
  for (const path of absent) {
    let node: Json | undefined = out;
    for (const key of path.slice(0, -1)) node = isJsonObject(node) && Object.hasOwn(node, key) ? node[key] : undefined;
    const last = path[path.length - 1];
    if (isJsonObject(node) && last !== undefined && !Object.isFrozen(node)) delete node[last];
  }
  return out;
}

/**
 * `attributes` of an object of `type` rebuilt over `variant`'s server defaults: equal, but
 * sharing every untouched default subtree again (for objects read with full attributes,
 * e.g. from an export archive: 100,000 mappings then hold a few hundred bytes each, not
 * 9 kB).
 */
export function withSharedDefaults(type: ResourceType, variant: Variant, attributes: JsonObject): JsonObject {
  const base = defaultAttributes(type, variant);
  const absent: string[][] = [];
  const delta = difference(attributes, base, [], absent);
  return rebuilt(base, isJsonObject(delta) ? delta : {}, absent);
}
