/**
 * List items as the gateway will hold them: the server fills members an item lacks with
 * its defaults (docs/gateway-api.md "Attributes and server defaults", list items; the
 * kinds' hooks `emulator.defaults.items`). The differ compares a declared list after
 * filling them in, and renders both sides with their keys sorted, so that changing one
 * member of one item shows that member only (docs/architecture.md "Decisions").
 */
import type { ResourceType } from '../kinds/index.js';
import { kindOf } from '../kinds/index.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `value`, the declared attribute at `segments` of a `type` object, with the kind's item
 * defaults filled into each object item that lacks them, when `segments` is the path of
 * such a list; else `value` itself. A default is filled in only where the live item at
 * the same index (`live[i]`) holds that member too, so a gateway that does not report a
 * member never causes a difference. Pure.
 */
export function withItemDefaults(type: ResourceType, segments: readonly string[], value: unknown, live: unknown): unknown {
  if (!Array.isArray(value)) return value;
  const rule = (kindOf(type).emulator.defaults.items ?? []).find(
    (r) => r.path.length === segments.length && r.path.every((s, i) => s === segments[i]),
  );
  if (!rule) return value;
  const liveItems: readonly unknown[] = Array.isArray(live) ? live : [];
  return value.map((item: unknown, i) => {
    const liveItem = liveItems[i];
    if (!isPlainObject(item) || !isPlainObject(liveItem)) return item;
    const defaults = Object.fromEntries(Object.entries(rule.defaults).filter(([key]) => key in liveItem));
    return { ...defaults, ...item };
  });
}

/** `value` with the keys of every object in it sorted, recursively (arrays keep their order). Pure. */
export function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortedKeys(value[key]);
  return out;
}
