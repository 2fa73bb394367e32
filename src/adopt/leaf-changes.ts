/**
 * The smallest changes that turn a declared attribute value into the live one, for
 * `drift --adopt`: a changed scalar inside a list item is one change of that scalar, not of
 * the list. Members the gateway fills into list items with its defaults (the `default` of a
 * list's `items` schema, docs/gateway-api.md "Attributes and server defaults") are not
 * written unless the live value differs from the default, and members a manifest leaves
 * out of an object are never added (docs/architecture.md "Decisions": only what is
 * declared is managed). Pure.
 */
import type { PublicKeyTools } from '../crypto/port.js';
import type { ResourceType } from '../kinds/index.js';
import { itemDefaultsRules } from '../schema/index.js';
import { isPlainObject, isWriteOnlyPath, matchesDeclared } from '../engine/diff.js';
import { setOwnMember } from '../core/own-member.js';

/** One change at an attribute path (segments below `attributes`; list items by index). */
export type LeafChange =
  /** Set the value (an index one past the end of a list appends an item). */
  | { readonly op: 'set'; readonly path: readonly string[]; readonly value: unknown }
  /** Remove the member or list item. */
  | { readonly op: 'delete'; readonly path: readonly string[] };

/** The item defaults of the list at `segments` (list indices in it match the rules' `*`). */
function itemDefaults(type: ResourceType, segments: readonly string[]): Readonly<Record<string, unknown>> | undefined {
  const rule = itemDefaultsRules(type).find(
    (r) => r.segments.length === segments.length && r.segments.every((s, i) => s === segments[i] || (s === '*' && /^\d+$/.test(segments[i] ?? ''))),
  );
  return rule?.defaults;
}

/** A live list item without the members that hold the gateway's default. */
function withoutDefaults(type: ResourceType, item: unknown, defaults: Readonly<Record<string, unknown>> | undefined, keys: PublicKeyTools): unknown {
  if (!defaults || !isPlainObject(item)) return item;
  return Object.fromEntries(Object.entries(item).filter(([key, value]) => !Object.hasOwn(defaults, key) || !matchesDeclared(type, defaults[key], value, keys)));
}

/**
 * The changes from `declared` to `live` at attribute path `segments` of a `type` object, in
 * the order to apply them (list items appended in index order, removed from the last).
 * Public keys compare by the RFC 7638 thumbprint `keys` reads (src/engine/diff.ts `matchesDeclared`).
 */
export function leafChanges(type: ResourceType, segments: readonly string[], declared: unknown, live: unknown, keys: PublicKeyTools): LeafChange[] {
  const out: LeafChange[] = [];
  const walk = (d: unknown, l: unknown, at: readonly string[], defaults: Readonly<Record<string, unknown>> | undefined): void => {
    if (matchesDeclared(type, d, l, keys, at) && !defaults) return;
    if (l === undefined) {
      out.push({ op: 'delete', path: at });
    } else if (isPlainObject(d) && isPlainObject(l)) {
      for (const key of Object.keys(d)) {
        const child = [...at, key];
        if (!isWriteOnlyPath(type, child)) walk(d[key], l[key], child, undefined);
      }
      // A member the gateway fills with its default is drift when the live value is another.
      for (const key of Object.keys(defaults ?? {})) {
        if (!Object.hasOwn(d, key) && Object.hasOwn(l, key) && !matchesDeclared(type, defaults?.[key], l[key], keys)) out.push({ op: 'set', path: [...at, key], value: l[key] });
      }
    } else if (Array.isArray(d) && Array.isArray(l)) {
      const rule = itemDefaults(type, at);
      const common = Math.min(d.length, l.length);
      for (let i = 0; i < common; i++) walk(d[i], l[i], [...at, String(i)], rule);
      for (let i = d.length; i < l.length; i++) out.push({ op: 'set', path: [...at, String(i)], value: withoutDefaults(type, l[i], rule, keys) });
      for (let i = d.length - 1; i >= l.length; i--) out.push({ op: 'delete', path: [...at, String(i)] });
    } else if (!matchesDeclared(type, d, l, keys, at)) {
      out.push({ op: 'set', path: at, value: l });
    }
  };
  walk(declared, live, segments, undefined);
  return out;
}

/** The value at `segments` of `root`, or undefined. */
export function valueAt(root: unknown, segments: readonly string[]): unknown {
  let node = root;
  for (const segment of segments) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isPlainObject(node)) node = node[segment];
    else return undefined;
  }
  return node;
}

/** `root` (a copy) with `changes` applied. */
export function applyLeafChanges(root: Record<string, unknown>, changes: readonly LeafChange[]): Record<string, unknown> {
  const copy = structuredClone(root);
  for (const change of changes) {
    const parent = valueAt(copy, change.path.slice(0, -1));
    const key = change.path[change.path.length - 1] ?? '';
    if (Array.isArray(parent)) {
      if (change.op === 'set') parent[Number(key)] = change.value;
      else parent.splice(Number(key), 1);
    } else if (isPlainObject(parent)) {
      if (change.op === 'set') setOwnMember(parent, key, change.value);
      else delete parent[key];
    }
  }
  return copy;
}
