/**
 * The compiled check that a live value equals a default (src/export/default-equals.ts)
 * answers as `jsonEqual` does, for any JSON default and any value: the default itself, a
 * copy with its members in another order, one changed in one place, or anything else.
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonEqual } from '../../src/export/values.js';
import { compileEquals } from '../../src/export/default-equals.js';
import { REPO } from '../e2e/harness.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// Keys that name members of Object.prototype, besides ordinary ones.
const key = fc.constantFrom('a', 'b', 'c', 'name', 'constructor', 'toString', 'hasOwnProperty', 'length', '0', '');
const leaf = fc.oneof(fc.constantFrom<Json>(null, true, false, 0, -0, 1, 1.5, '', '0', 'a', 'true', 'null', "'", '"', '\\', '\u2028', '${x}'), fc.string({ maxLength: 3 }), fc.integer());
const json: fc.Arbitrary<Json> = fc.letrec<{ node: Json }>((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(key, tie('node'), { maxKeys: 4 })),
})).node;

/** The same value with every object's members in reverse order. */
function reordered(value: Json): Json {
  if (Array.isArray(value)) return value.map(reordered);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reordered(v)]));
}

/** Every place of `value` (a path of keys and indexes). */
function places(value: Json, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(value)) value.forEach((item, i) => out.push(...places(item, [...at, i])));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...places(v, [...at, k]));
  return out;
}

/** `value` changed at one place: replaced, a member added or removed, an item added. */
function changed(value: Json, path: readonly (string | number)[], how: number, replacement: Json): Json {
  const [head, ...rest] = path;
  if (head === undefined) {
    if (Array.isArray(value) && how === 1) return [...value, replacement];
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const keys = Object.keys(value);
      if (how === 1) return { ...value, extra: replacement };
      if (how === 2 && keys.length > 0) return Object.fromEntries(Object.entries(value).slice(1));
    }
    return replacement;
  }
  if (Array.isArray(value)) return value.map((item, i) => (i === head ? changed(item, rest, how, replacement) : item));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === head ? changed(v, rest, how, replacement) : v]));
  return value;
}

describe('compileEquals', () => {
  it('answers as jsonEqual for any default and the default, a reordered copy, a changed copy or any value (property)', () => {
    fc.assert(
      fc.property(json, json, fc.nat(), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 3 }), (expected, other, at, how, pick) => {
        const equals = compileEquals(expected);
        expect(equals).toBeDefined();
        const all = places(expected);
        const candidates = [structuredClone(expected), reordered(expected), changed(expected, all[at % all.length] ?? [], how, other), other];
        const value = candidates[pick];
        expect(equals?.(value)).toBe(jsonEqual(value, expected));
      }),
      { numRuns: 2000, seed: 11 },
    );
  });

  it('compiles nothing, and export leaves defaults out all the same, in a process that may not generate code (the compiled dist/)', () => {
    const script = [
      "const { compileEquals } = await import('./dist/export/default-equals.js');",
      "const { exportAttributes } = await import('./dist/export/attributes.js');",
      "const { defaultTree } = await import('./dist/export/default-tree.js');",
      "const live = { ...defaultTree('mapping'), name: 'shop' };",
      "const kept = exportAttributes('mapping', live, { variant: 'latest', keepDefaults: false, unknown: () => {} });",
      'console.log(JSON.stringify([compileEquals({ a: 1 }) === undefined, kept]));',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--disallow-code-generation-from-strings', '--input-type=module', '-e', script], { cwd: REPO, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([true, { name: 'shop' }]);
  });

  it('compiles nothing for a value that is not plain JSON or has a member named __proto__', () => {
    expect(compileEquals({ a: undefined })).toBeUndefined();
    expect(compileEquals([Number.NaN])).toBeUndefined();
    expect(compileEquals(JSON.parse('{"__proto__": 1}'))).toBeUndefined();
    expect(compileEquals(new Date(0))).toBeUndefined();
  });
});
