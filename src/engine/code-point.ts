/**
 * The one order of names and keys in the engine: by UTF-16 code unit, the same on every
 * machine and locale (`localeCompare` is not), so plans, digests and step orders are
 * reproducible byte for byte.
 */

/** Negative when `a` sorts before `b`, positive after, 0 when equal (a comparator for `Array.prototype.sort`). */
export function codePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Arrays up to this long are put in order by insertion; longer ones by the native sort. */
const INSERTION_SORT_MAX = 16;

/**
 * `strings` sorted in {@link codePoint} order, in place, and returned: that is the order
 * `Array.prototype.sort` gives strings without a comparator, made natively (a JS
 * comparator costs a call per comparison: a tenth of a second for 100,000 names). A short
 * array (the keys of one object, sorted for every object planned) is put in order by
 * insertion instead, which allocates nothing (the native sort allocates a work copy).
 */
export function sortByCodePoint(strings: string[]): string[] {
  if (strings.length > INSERTION_SORT_MAX) return strings.sort();
  for (let i = 1; i < strings.length; i++) {
    const s = strings[i] as string;
    let j = i - 1;
    for (; j >= 0 && (strings[j] as string) > s; j--) strings[j + 1] = strings[j] as string;
    strings[j + 1] = s;
  }
  return strings;
}
