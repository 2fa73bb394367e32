/**
 * The lookup of declared relationship keys (src/engine/model.ts `declaredRelationshipsOf`)
 * answers as a search of the list itself would, for every kind, name and relationship, and
 * is made once per state.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import type { ObjectRef, State } from '../../src/engine/model.js';
import { declaredRelationshipsOf } from '../../src/engine/model.js';

const kind = fc.constantFrom(...KINDS.map((k) => k.type));
// Few names and relationships, so that asked keys are often declared; any string, `__proto__` and separators included.
const name = fc.oneof(fc.constantFrom('a', 'b', '__proto__', 'a\u0000b', ''), fc.string({ maxLength: 6 }));
const relationship = fc.oneof(fc.constantFrom('mappings', 'back-end-groups', 'constructor'), fc.string({ maxLength: 6 }));
const ref = fc.record({ kind, name }) as fc.Arbitrary<ObjectRef>;
const declared = fc.array(fc.record({ object: ref, relationship }), { maxLength: 40 });

describe('declaredRelationshipsOf', () => {
  it('says an object declares a relationship exactly when the list holds that pair', () => {
    fc.assert(
      fc.property(declared, fc.array(fc.record({ object: ref, relationship }), { maxLength: 20 }), (list, asked) => {
        const state: State = { objects: new Map(), links: [], declaredRelationships: list };
        const lookup = declaredRelationshipsOf(state);
        const pairs = [...list, ...asked];
        for (const { object, relationship: r } of pairs) {
          const expected = list.some((d) => d.object.kind === object.kind && d.object.name === object.name && d.relationship === r);
          expect(lookup(object, r)).toBe(expected);
        }
      }),
    );
  });

  it('is made once per state', () => {
    const state: State = { objects: new Map(), links: [], declaredRelationships: [{ object: { kind: 'mapping', name: 'm' }, relationship: 'back-end-groups' }] };
    expect(declaredRelationshipsOf(state)).toBe(declaredRelationshipsOf(state));
    expect(declaredRelationshipsOf(state)({ kind: 'mapping', name: 'm' }, 'back-end-groups')).toBe(true);
  });
});
