/**
 * Numbering the calls of a plan without a hidden class per object (the steps are numbered
 * in place, order.ts).
 *
 * `{ ...draft, index }` is the obvious way, but where drafts of many shapes meet (the calls
 * of every endpoint) V8's spread stops caching and gives each object it makes a hidden
 * class (and descriptor array) of its own: at 100,000 new mappings, 100,000 classes held
 * for the whole run. Objects built by adding their members in order share their classes.
 */

/** `T` without the member `K`, over each member of a union. */
type Without<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * A fresh object with `draft`'s own enumerable members but `omit`, in their order, then
 * `index`. `draft` is not changed.
 * @param index the number the object gets (from 1)
 * @param omit a member of `draft` left out (a sort key), if any
 */
export function withIndex<T extends object, K extends keyof T = never>(draft: T, index: number, omit?: K): Without<T, K> & { readonly index: number } {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(draft)) if (key !== omit) out[key] = (draft as Record<string, unknown>)[key];
  out.index = index;
  return out as Without<T, K> & { readonly index: number };
}
