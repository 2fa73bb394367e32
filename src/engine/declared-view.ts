/**
 * The two sides of a changed attribute cut down to what a reader needs: the members the
 * manifests declare, and every member whose values differ. A list is compared with the
 * gateway's item defaults filled into its declared items (item-defaults.ts), so both sides
 * of its change carry members no manifest wrote (`mode`, `spare`, `weight` of each back-end
 * host); equal on both sides, those say nothing about the change and are left out of what
 * the drift report shows (src/render/drift.ts). Pure.
 */
import { sameValue } from './drift-base.js';
import { isPlainObject } from './diff.js';
import { ownMember, setOwnMember } from '../core/own-member.js';


/** One side's value, or absent. */
type Side = { readonly value: unknown } | undefined;

/**
 * `declared` and `live` (the two sides of one change, as compared) cut to the members
 * `written` holds (the attribute as the manifests write it: the shape only is read, never
 * a value) and the members whose values differ, in objects at any depth and in list items
 * index by index. An item or member only one side has is kept whole on that side; values
 * that are no object on both sides are kept as they are.
 * @returns the cut sides; a side absent in the input stays absent
 */
export function declaredView(written: unknown, declared: Side, live: Side): { declared: Side; live: Side } {
  if (declared === undefined || live === undefined) return { declared, live };
  const d = declared.value;
  const l = live.value;
  if (Array.isArray(d) && Array.isArray(l)) {
    const outD: unknown[] = [];
    const outL: unknown[] = [];
    for (let i = 0; i < Math.max(d.length, l.length); i++) {
      const cut = declaredView(Array.isArray(written) ? written[i] : undefined, i < d.length ? { value: d[i] } : undefined, i < l.length ? { value: l[i] } : undefined);
      if (cut.declared) outD.push(cut.declared.value);
      if (cut.live) outL.push(cut.live.value);
    }
    return { declared: { value: outD }, live: { value: outL } };
  }
  if (isPlainObject(d) && isPlainObject(l)) {
    const shape = isPlainObject(written) ? written : {};
    const outD: Record<string, unknown> = {};
    const outL: Record<string, unknown> = {};
    for (const key of new Set([...Object.keys(d), ...Object.keys(l)])) {
      const dHas = Object.hasOwn(d, key);
      const lHas = Object.hasOwn(l, key);
      if (!Object.hasOwn(shape, key) && dHas && lHas && sameValue(d[key], l[key])) continue;
      const cut = declaredView(ownMember(shape, key), dHas ? { value: d[key] } : undefined, lHas ? { value: l[key] } : undefined);
      if (cut.declared) setOwnMember(outD, key, cut.declared.value);
      if (cut.live) setOwnMember(outL, key, cut.live.value);
    }
    return { declared: { value: outD }, live: { value: outL } };
  }
  return { declared, live };
}
