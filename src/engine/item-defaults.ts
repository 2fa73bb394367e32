/**
 * List items as the gateway will hold them. A list is replaced whole (docs/gateway-api.md
 * "Rules for PATCH", rule 3), so a declared item means the whole item: the members it
 * declares, and the gateway's item defaults for the members it leaves out, nested objects
 * and lists inside items included (docs/gateway-api.md "Attributes and server defaults",
 * list items; the schema `default` of each list's `items`, {@link itemDefaultsRules}). The
 * differ compares a declared list after filling them in, a PATCH sends the filled list,
 * and both sides of a change are rendered with their keys sorted, so that changing one
 * member of one item shows that member only (docs/architecture.md "Decisions").
 */
import type { ResourceType } from '../kinds/index.js';
import type { AttributeObject } from '../manifest/types.js';
import type { ItemDefaultsRule } from '../schema/index.js';
import { itemDefaultsRules } from '../schema/index.js';
import { ownMember, setOwnMember } from '../core/own-member.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The rule of the list at `segments` (array indexes as decimal strings), if its items have defaults. */
function ruleAt(type: ResourceType, segments: readonly string[]): ItemDefaultsRule | undefined {
  return itemDefaultsRules(type).find((r) => r.segments.length === segments.length && r.segments.every((s, i) => s === '*' || s === segments[i]));
}

/** `defaults` cut down to the members `live` holds (recursively in nested objects). */
function heldDefault(defaults: unknown, live: unknown): unknown {
  if (!isPlainObject(defaults) || !isPlainObject(live)) return defaults;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(defaults)) if (Object.hasOwn(live, key)) setOwnMember(out, key, heldDefault(value, live[key]));
  return out;
}

/**
 * `declared` (an object at attribute path `segments`) with `defaults` filled in for the
 * members it leaves out and the live object holds, nested objects merged, and the lists
 * inside it filled by their own rules.
 */
function fillObject(type: ResourceType, segments: readonly string[], declared: Record<string, unknown>, defaults: unknown, live: unknown): Record<string, unknown> {
  const liveObject = isPlainObject(live) ? live : {};
  const out: Record<string, unknown> = {};
  if (isPlainObject(defaults)) {
    for (const [key, value] of Object.entries(defaults)) if (!Object.hasOwn(declared, key) && Object.hasOwn(liveObject, key)) setOwnMember(out, key, heldDefault(value, liveObject[key]));
  }
  for (const [key, value] of Object.entries(declared)) {
    const childSegments = [...segments, key];
    const childDefault = isPlainObject(defaults) ? ownMember(defaults, key) : undefined;
    const liveChild = ownMember(liveObject, key);
    if (Array.isArray(value)) setOwnMember(out, key, withItemDefaults(type, childSegments, value, liveChild));
    else if (isPlainObject(value) && isPlainObject(childDefault)) setOwnMember(out, key, fillObject(type, childSegments, value, childDefault, liveChild));
    else setOwnMember(out, key, value);
  }
  return out;
}

/**
 * `value`, the declared attribute at `segments` of a `type` object, with the item defaults
 * filled into each object item, when `segments` is the path of a list whose items have
 * defaults (recursively for lists inside its items); else `value` itself. A default is
 * filled in only where the live item at the same index (`live[i]`) holds that member too,
 * so a gateway that does not report a member never causes a difference, and a PATCH never
 * sends a member the gateway did not show. Pure.
 */
export function withItemDefaults(type: ResourceType, segments: readonly string[], value: unknown, live: unknown): unknown {
  if (!Array.isArray(value)) return value;
  const rule = ruleAt(type, segments);
  const liveItems: readonly unknown[] = Array.isArray(live) ? live : [];
  return value.map((item: unknown, i) => {
    if (!isPlainObject(item)) return item;
    const itemSegments = [...segments, String(i)];
    return fillObject(type, itemSegments, item, rule?.defaults, liveItems[i]);
  });
}

/**
 * The top-level attribute `key` of `declared` as a PATCH sends it: every declared list in
 * it with its item defaults filled in against `live` ({@link withItemDefaults}), so that the
 * gateway ends holding exactly the declared items plus their defaults. Pure.
 */
export function declaredWithItemDefaults(type: ResourceType, key: string, declared: AttributeObject, live: AttributeObject): unknown {
  const value = ownMember(declared, key);
  if (Array.isArray(value)) return withItemDefaults(type, [key], value, ownMember(live, key));
  if (!isPlainObject(value)) return value;
  const walk = (node: Record<string, unknown>, liveNode: unknown, segments: readonly string[]): Record<string, unknown> => {
    const liveObject = isPlainObject(liveNode) ? liveNode : {};
    const out: Record<string, unknown> = {};
    for (const [k, child] of Object.entries(node)) {
      const childSegments = [...segments, k];
      // Keys are data here (sub-resource keys are object names, `__proto__` included).
      if (Array.isArray(child)) setOwnMember(out, k, withItemDefaults(type, childSegments, child, ownMember(liveObject, k)));
      else if (isPlainObject(child)) setOwnMember(out, k, walk(child, ownMember(liveObject, k), childSegments));
      else setOwnMember(out, k, child);
    }
    return out;
  };
  return walk(value, ownMember(live, key), [key]);
}

/** `value` with the keys of every object in it sorted, recursively (arrays keep their order). Pure. */
export function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) setOwnMember(out, key, sortedKeys(value[key]));
  return out;
}
