/**
 * mapSecrets replaces each secret leaf and shares everything else with its input. Property,
 * for every kind and any attribute tree its schema admits: the result equals a full copy
 * with the secrets replaced (the behaviour before sharing), every top-level subtree in
 * which nothing was replaced is the input's own object, and a tree without secrets comes
 * back as itself.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSecretPath, mapSecrets } from '../../src/engine/diff.js';
import { KINDS, kindExistsIn } from '../../src/kinds/index.js';
import type { ResourceType } from '../../src/kinds/index.js';
import { attributesArbitrary } from '../drills/convergence/schema-arbitrary.js';

/** The full copy mapSecrets made before it shared: every object and array rebuilt. */
function copied(type: ResourceType, value: unknown, segments: readonly string[], replace: (value: unknown, at: readonly string[]) => unknown): unknown {
  if (segments.length > 0 && isSecretPath(type, segments)) return replace(value, segments);
  if (Array.isArray(value)) return value.map((item: unknown, i) => copied(type, item, [...segments, String(i)], replace));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copied(type, v, [...segments, k], replace)]));
  return value;
}

const replace = (_value: unknown, at: readonly string[]): string => `(secret at ${at.join('.')})`;

describe('mapSecrets', () => {
  for (const kind of KINDS.filter((k) => kindExistsIn(k, 'latest'))) {
    it(`replaces the secrets of a ${kind.type} and shares every subtree without one (property)`, () => {
      fc.assert(
        fc.property(attributesArbitrary(kind.type, 'latest', { skip: [], secretVariable: () => 'SECRET', maxDepth: 4 }), (attributes) => {
          const result = mapSecrets(kind.type, attributes, [], replace) as Record<string, unknown>;
          const expected = copied(kind.type, attributes, [], replace) as Record<string, unknown>;
          expect(result).toEqual(expected);
          let replacedAny = false;
          for (const [key, value] of Object.entries(attributes)) {
            const untouched = JSON.stringify(copied(kind.type, value, [key], replace)) === JSON.stringify(value);
            if (untouched) expect(result[key]).toBe(value);
            else replacedAny = true;
          }
          if (!replacedAny) expect(result).toBe(attributes);
        }),
        { numRuns: 15 },
      );
    });
  }
});
