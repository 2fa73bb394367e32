/** How the loader builds the attributes of a document: the same as a spread, faster. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withName } from '../../src/manifest/entries.js';

/** An object with these own keys, in this order (`__proto__` included, as YAML reads it). */
function objectOf(pairs: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of pairs) Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  return object;
}

describe('withName', () => {
  it('gives what { ...attributes, name } gives: same keys in the same order, same values, a plain object (property)', () => {
    const key = fc.oneof(fc.constantFrom('name', '__proto__', 'constructor', 'labels', '0', '1'), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(key, fc.jsonValue({ maxDepth: 2 })), { selector: ([k]) => k, maxLength: 6 }), fc.string(), (pairs, name) => {
        const attributes = objectOf(pairs);
        const before = Object.keys(attributes);
        const copy = withName(attributes, name);
        const spread = { ...attributes, name };
        expect(Object.keys(copy)).toEqual(Object.keys(spread));
        expect(copy).toStrictEqual(spread);
        expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
        expect(Object.keys(attributes)).toEqual(before); // the input is left as it is
      }),
      { numRuns: 500 },
    );
  });
});
