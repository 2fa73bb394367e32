/**
 * redactAttributes (src/engine/diff.ts), the body of a create step: for every kind, any
 * attribute tree with or without its kind's secrets, each secret is masked and its pointer
 * listed, the declared tree is never changed, and every list or object holding no secret is
 * the declared one itself (a plan of 100,000 new mappings held a second copy of every
 * attribute tree); a member named `__proto__` stays a member.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import { redactAttributes } from '../../src/engine/diff.js';
import { SENSITIVE_MASK } from '../../src/engine/plan-types.js';
import type { AttributeObject } from '../../src/manifest/types.js';
import { secretAttributes } from '../../src/schema/index.js';

const key = fc.oneof(fc.constantFrom('__proto__', 'name', 'labels'), fc.string({ minLength: 1, maxLength: 6 }));
const tree = fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }) as fc.Arbitrary<AttributeObject>;

/** `attributes` with each of `paths` set to a string (objects on the way made), as a manifest could declare it. */
function withSecrets(attributes: AttributeObject, paths: readonly (readonly string[])[]): AttributeObject {
  const out = structuredClone(attributes) as Record<string, unknown>;
  for (const segments of paths) {
    let at = out;
    for (const [i, segment] of segments.entries()) {
      if (i === segments.length - 1) Object.defineProperty(at, segment, { value: `secret-${segment}`, enumerable: true, writable: true, configurable: true });
      else {
        const next = at[segment];
        const child = typeof next === 'object' && next !== null && !Array.isArray(next) ? (next as Record<string, unknown>) : {};
        Object.defineProperty(at, segment, { value: child, enumerable: true, writable: true, configurable: true });
        at = child;
      }
    }
  }
  return out;
}

/** True when `redacted` shares every list and object of `declared` that holds no masked value. */
function sharesClean(declared: unknown, redacted: unknown): boolean {
  if (typeof declared !== 'object' || declared === null) return true;
  const masked = JSON.stringify(redacted).includes(JSON.stringify(SENSITIVE_MASK));
  if (!masked) return declared === redacted;
  return Object.keys(declared).every((k) => sharesClean((declared as Record<string, unknown>)[k], (redacted as Record<string, unknown>)[k]));
}

describe('redactAttributes', () => {
  it('masks each secret of every kind, changes nothing declared and shares every subtree without a secret (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...KINDS), tree, fc.boolean(), (kind, base, addSecrets) => {
        const paths = addSecrets ? secretAttributes(kind.type).map((a) => a.segments) : [];
        const declared = withSecrets(base, paths);
        const before = JSON.stringify(declared);
        const { attributes, secretPaths } = redactAttributes(kind.type, declared, '/data/attributes');
        expect(JSON.stringify(declared)).toBe(before);
        for (const segments of paths) {
          let at: unknown = attributes;
          for (const segment of segments) at = Object.hasOwn(at as object, segment) ? (at as Record<string, unknown>)[segment] : undefined;
          expect(at).toBe(SENSITIVE_MASK);
          expect(secretPaths).toContain(`/data/attributes/${segments.join('/')}`);
        }
        expect(sharesClean(declared, attributes)).toBe(true);
        if (secretPaths.length === 0) expect(attributes).toBe(declared);
        expect(Object.getPrototypeOf(attributes)).toBe(Object.prototype);
      }),
    );
  });
});
