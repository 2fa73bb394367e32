import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeVariables, substituteVariables } from '../../src/manifest/variables.js';

describe('substituteVariables', () => {
  it('replaces ${VAR} and ${VAR:-default} in strings only, never in keys', () => {
    const input = { '${K}': 'x-${A}-${B:-dflt}-${C:-}', list: ['${A}', 1, true, null], n: 5 };
    const result = substituteVariables(input, { A: 'a', B: '', K: 'k' });
    expect(result.value).toEqual({ '${K}': 'x-a-dflt-', list: ['a', 1, true, null], n: 5 });
    expect(result.unset).toEqual([]);
    expect([...result.substituted].sort()).toEqual(['${K}', 'list/0']);
  });

  it('reports every unset variable with the path that uses it', () => {
    const result = substituteVariables({ a: { b: ['${X}', '${Y} and ${X}'] } }, {});
    expect(result.unset).toEqual([
      { name: 'X', path: ['a', 'b', '0'] },
      { name: 'Y', path: ['a', 'b', '1'] },
      { name: 'X', path: ['a', 'b', '1'] },
    ]);
  });

  it('keeps $${...} as a literal ${...} and leaves the input untouched', () => {
    const input = { s: 'cost: $${PRICE}', t: '${P}' };
    const result = substituteVariables(input, { P: 'p', PRICE: 'no' });
    expect(result.value).toEqual({ s: 'cost: ${PRICE}', t: 'p' });
    expect(input).toEqual({ s: 'cost: $${PRICE}', t: '${P}' });
  });

  it('returns the same object when nothing is substituted', () => {
    const input = { a: ['x', { b: 'y' }] };
    expect(substituteVariables(input, {}).value).toBe(input);
  });

  it('$${ is a literal ${ whatever follows it', () => {
    expect(substituteVariables({ s: '$${1}/$${}/$${A' }, { A: 'a' }).value).toEqual({ s: '${1}/${}/${A' });
  });

  it('escapeVariables: any string, written escaped, reads back as itself and substitutes nothing', () => {
    const text = fc.string({ unit: fc.constantFrom('$', '{', '}', ':', '-', 'A', '1', '_', ' '), maxLength: 24 });
    fc.assert(
      fc.property(text, (s) => {
        const back = substituteVariables({ s: escapeVariables(s) }, { A: 'set', A1: 'set', _: 'set' });
        expect(back.value).toEqual({ s });
        expect(back.unset).toEqual([]);
        // Only strings that hold `${` change.
        expect(s.includes('${') || escapeVariables(s) === s).toBe(true);
      }),
      { numRuns: 2000, seed: 7 },
    );
  });
});

describe('escapeVariables', () => {
  it('writes ${ as $${ so that any string reads back as itself, whatever is set', () => {
    const piece = fc.constantFrom('$', '$$', '{', '}', '${', '$${', 'A', 'B_1', ':-', 'x', ' ', '1');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }).map((p) => p.join('')), fc.dictionary(fc.constantFrom('A', 'B_1', 'x'), fc.string({ maxLength: 4 })), (value, env) => {
        const read = substituteVariables({ value: escapeVariables(value) }, env);
        expect(read.value).toEqual({ value });
        expect(read.unset).toEqual([]);
      }),
      { numRuns: 500 },
    );
    expect(escapeVariables('key ${API_KEY}')).toBe('key $${API_KEY}');
    expect(escapeVariables('no reference')).toBe('no reference');
  });
});
