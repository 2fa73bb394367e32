/**
 * The stable key order of plan JSON (src/render/json.ts `planJson`): the same value gives the
 * same text whatever order its objects' keys were made in, nothing is lost or changed, and
 * the plan itself is left as it was, however much of it was in order already.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/engine/plan-types.js';
import { planJson } from '../../src/render/json.js';

/** Keys the plan's own objects use (ranked first), keys that sort among the rest, and `__proto__`, a name like any other in JSON. */
const key = fc.oneof(fc.constantFrom('formatVersion', 'index', 'action', 'kind', 'name', 'path', 'body', 'data', 'type', 'attributes', 'after', 'sensitive', '__proto__'), fc.string({ maxLength: 4 }));

/** JSON values whose objects are made with their keys in any order. */
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.boolean(), fc.constant(null)),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.uniqueArray(fc.tuple(key, tie('value')), { maxLength: 5, selector: ([k]) => k }).map((members) => {
      const object: Record<string, unknown> = {};
      for (const [k, v] of members) Object.defineProperty(object, k, { value: v, enumerable: true, writable: true, configurable: true });
      return object;
    }),
  ),
}));

/** `value` with the keys of every object made in the reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (typeof value !== 'object' || value === null) return value;
  const object: Record<string, unknown> = {};
  for (const k of Object.keys(value).reverse()) Object.defineProperty(object, k, { value: reversed((value as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
  return object;
}

const text = (v: unknown): string => JSON.stringify(planJson({ member: v } as unknown as Plan));

describe('planJson key order', () => {
  it('gives the same text whatever order the keys were made in, keeps every member, and leaves the plan as it was (property)', () => {
    fc.assert(
      fc.property(value, (v) => {
        const before = JSON.stringify(v);
        expect(text(reversed(v))).toBe(text(v));
        expect(JSON.parse(text(v))).toEqual(JSON.parse(JSON.stringify({ member: v })));
        expect(JSON.stringify(v)).toBe(before);
        // In order already, it stays in that order.
        expect(text(planJson({ member: v } as unknown as Plan).member)).toBe(text(v));
      }),
      { numRuns: 300 },
    );
  });

  it('puts the ranked keys first in their order and the others after them by code unit', () => {
    expect(Object.keys(planJson({ zeta: 1, body: 2, alpha: 3, index: 4, name: 5 } as unknown as Plan))).toEqual(['index', 'name', 'body', 'alpha', 'zeta']);
  });

  it('keeps a __proto__ member as a member, before and after a member it reorders', () => {
    const attributes = JSON.parse('{"__proto__": {"polluted": true}, "zz": {"b": 1, "a": 2}, "~": 3}') as unknown;
    const out = planJson({ attributes } as unknown as Plan).attributes as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['__proto__', 'zz', '~']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":true},"zz":{"a":2,"b":1},"~":3}');
  });
});
