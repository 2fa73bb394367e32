/** Small readers of attribute trees for the kinds' rules. */

/** True for a JSON object (not an array, not null). */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value at `keys` below `root`, or undefined when a step is missing or not an object. */
export function valueAt(root: unknown, ...keys: string[]): unknown {
  let node = root;
  for (const key of keys) node = isObject(node) ? node[key] : undefined;
  return node;
}
