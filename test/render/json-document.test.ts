/**
 * The one serialiser of gwops's JSON documents (src/core/json-document.ts): `formatVersion`
 * first, whatever the body holds, so every document names the version of its shape.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonDocument } from '../../src/core/json-document.js';

describe('jsonDocument', () => {
  it('puts formatVersion first and keeps the members of the body (named as gwops names members) in their order', () => {
    fc.assert(
      fc.property(fc.string(), fc.dictionary(fc.stringMatching(/^[a-z][A-Za-z]{0,8}$/), fc.jsonValue()), (version, body) => {
        const text = jsonDocument(version, body);
        expect(text.endsWith('}\n')).toBe(true);
        const parsed = JSON.parse(text) as Record<string, unknown>;
        expect(Object.keys(parsed)).toEqual(['formatVersion', ...Object.keys(body).filter((k) => k !== 'formatVersion')]);
        expect(parsed.formatVersion).toBe(version);
      }),
      { numRuns: 200 },
    );
  });

  it("the document's version replaces one the body carries, in the first place", () => {
    expect(jsonDocument('5.0', { summary: 1, formatVersion: 'old' })).toBe('{\n  "formatVersion": "5.0",\n  "summary": 1\n}\n');
  });
});
