import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePoint, sortByCodePoint } from '../../src/engine/code-point.js';

describe('sortByCodePoint', () => {
  it('gives the order of the codePoint comparator for any strings (lone surrogates, astral characters, duplicates and prefixes included) (property)', () => {
    const text = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.string({ unit: fc.constantFrom('a', 'A', '\uD800', '\uDFFF', '\uE000', '\uFFFF', '😀', '') }));
    fc.assert(
      fc.property(fc.array(text, { maxLength: 40 }), (strings) => {
        const expected = [...strings].sort(codePoint);
        expect(sortByCodePoint([...strings])).toEqual(expected);
      }),
      { seed: 25, numRuns: 500 },
    );
  });
});
