/**
 * The convergence drill's generator writes attributes that name another object (schema mark
 * `x-gwops-reference`, e.g. a path whitelist's `ipAddressListIds`) the way manifests do: as
 * names of objects of the target kind that the same set declares (or the mark's "none"
 * number). Sets with such values must pass the manifest schema, or the drill's trials count
 * them as not applicable and the attributes get no coverage. No emulator: the generator alone.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KINDS, VARIANTS } from '../../src/kinds/index.js';
import { validatorFor } from '../../src/manifest/schema-check.js';
import { referenceAttributes } from '../../src/schema/index.js';
import type { Json } from './convergence/schema-arbitrary.js';
import { manifestSetArbitrary } from './convergence/manifest-set.js';
import type { GenObject } from './convergence/manifest-set.js';
import { drillSeed } from './record.js';

/** The values found under `segments` (`*` = every array item) of `value`. */
function valuesAt(value: Json | undefined, segments: readonly string[]): Json[] {
  if (value === undefined) return [];
  const [head, ...rest] = segments;
  if (head === undefined) return [value];
  if (head === '*') return Array.isArray(value) ? value.flatMap((v) => valuesAt(v, rest)) : [];
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, head)) return [];
  return valuesAt(value[head], rest);
}

/** Every reference value of an object: the target kind, the none number and the value. */
function referencesOf(o: GenObject): { target: string; none: unknown; value: Json }[] {
  return referenceAttributes(o.kind).flatMap((p) =>
    valuesAt(o.attributes, p.segments).flatMap((v) => (Array.isArray(v) ? v : [v]).map((value) => ({ target: String(p.schema['x-gwops-reference']), none: p.schema['x-gwops-reference-none'], value }))),
  );
}

const kindsWithReferences = KINDS.filter((k) => referenceAttributes(k.type).length > 0);

describe('convergence generator: reference attributes', () => {
  it('some kind has a reference attribute (else this test checks nothing)', () => {
    expect(kindsWithReferences.length).toBeGreaterThan(0);
  });

  for (const variant of VARIANTS) {
    it(`names only objects of the target kind in the same set, and the sets pass the schema (${variant})`, () => {
      const sets = fc.sample(manifestSetArbitrary(variant, []), { numRuns: 40, seed: drillSeed(20261126) });
      let named = 0;
      for (const set of sets) {
        for (const o of set.objects) {
          for (const ref of referencesOf(o)) {
            if (ref.value === ref.none) continue;
            expect(typeof ref.value, `${o.kind} ${o.name}: ${JSON.stringify(ref.value)}`).toBe('string');
            expect(set.objects.some((t) => t.kind === ref.target && t.name === ref.value), `${o.kind} ${o.name} names ${JSON.stringify(ref.value)}`).toBe(true);
            named++;
          }
          const doc = { apiVersion: 'gwops/v1', kind: o.kind, name: o.name, attributes: o.attributes };
          const validate = validatorFor(o.kind);
          expect(validate(doc) ? [] : validate.errors?.filter((e) => referenceAttributes(o.kind).some((p) => e.instancePath.includes(p.segments.at(-1) ?? '\0')))).toEqual([]);
        }
      }
      expect(named, 'sets that name a referenced object').toBeGreaterThan(0);
    });
  }
});
