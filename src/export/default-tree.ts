/**
 * The server default tree of a kind (docs/gateway-api.md "Attributes and server defaults"):
 * the recording under `server-defaults/` over the kind's `defaults.extra`, and a value
 * without what equals it.
 */
import type { ResourceType } from '../kinds/index.js';
import { kindOf } from '../kinds/index.js';
import { recordedDefaults } from '../kinds/server-defaults.js';
import { isPlainObject, jsonEqual } from './values.js';
import { ownMember, setOwnMember } from '../core/own-member.js';

/** `over` merged onto `under`: objects deeply, everything else (lists included) replaced. */
function merge(under: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...under };
  for (const [key, value] of Object.entries(over)) {
    const below = ownMember(out, key);
    setOwnMember(out, key, isPlainObject(below) && isPlainObject(value) ? merge(below, value) : value);
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
  for (const key of Object.keys(value)) {
    const child = value[key];
    if (!Object.hasOwn(defaults, key)) {
      setOwnMember(out, key, child);
      continue;
    }
    const fallback = defaults[key];
    if (jsonEqual(child, fallback)) continue;
    if (isPlainObject(child) && isPlainObject(fallback)) {
      const stripped = stripDefaults(child, fallback);
      if (Object.keys(stripped).length > 0) setOwnMember(out, key, stripped);
      continue;
    }
    setOwnMember(out, key, child);
  }
  return out;
}
