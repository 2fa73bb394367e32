import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toResource } from '../../src/api/documents.js';

/** What a relationship member's `data` should become: identifiers with string ids, anything else left out (to-many) or null (to-one). */
function expectedData(data: unknown): unknown {
  const ident = (value: unknown): { type: string; id: string } | undefined => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const { type, id } = value as { type?: unknown; id?: unknown };
    if (typeof type !== 'string') return undefined;
    if (typeof id === 'string') return { type, id };
    if (typeof id === 'number' && Number.isFinite(id)) return { type, id: String(id) };
    return undefined;
  };
  if (Array.isArray(data)) return data.flatMap((item) => ident(item) ?? []);
  return ident(data) ?? null;
}

describe('toResource', () => {
  it('keeps every relationship member, under any name (__proto__ and numbers included), its identifiers checked one by one (property)', () => {
    const identifierLike = fc.oneof(
      fc.record({ type: fc.constantFrom('mapping', 'virtual-host'), id: fc.oneof(fc.integer().map(String), fc.integer(), fc.constant(Number.NaN)) }),
      fc.record({ type: fc.integer(), id: fc.string() }),
      fc.constant(null),
      fc.string(),
    );
    const member = fc.oneof(fc.record({ data: fc.oneof(identifierLike, fc.array(identifierLike, { maxLength: 4 })) }), fc.constant(null), fc.constant(7));
    const name = fc.oneof(fc.constantFrom('__proto__', 'back-end-groups', '0', '12', 'constructor', 'toString'), fc.string());
    fc.assert(
      fc.property(fc.array(fc.tuple(name, member), { maxLength: 8 }), (members) => {
        // Written as text and parsed, as a list element arrives: names are own members, `__proto__` too.
        const text = `{"type":"mapping","id":"1","attributes":{},"relationships":{${members.map(([n, m]) => `${JSON.stringify(n)}:${JSON.stringify(m) ?? 'null'}`).join(',')}}}`;
        const raw = JSON.parse(text) as { relationships: object };
        const resource = toResource(raw);
        const expected = Object.entries(raw.relationships)
          .filter(([, m]) => typeof m === 'object' && m !== null && !Array.isArray(m))
          .map(([n, m]) => [n, expectedData((m as { data?: unknown }).data)]);
        expect(Object.getPrototypeOf(resource.relationships)).toBe(Object.prototype);
        expect(Object.entries(resource.relationships).map(([n, m]) => [n, m.data])).toEqual(expected);
      }),
      { seed: 27, numRuns: 400 },
    );
  });
});
