/**
 * Reading a JSON document line by line (src/core/json-lines.ts), as `apply --plan` reads a plan
 * file: for any document written in either layout of src/render/json-chunks.ts, the value
 * read is the value `JSON.parse` gives for the whole text; text the reader cannot follow
 * (cut short, another layout, not JSON) is never read as a value, so the caller parses it
 * whole and reports what `JSON.parse` says.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonLinesReader } from '../../src/core/json-lines.js';
import { jsonDocumentChunks } from '../../src/render/json-chunks.js';

/** Member names of any text, `__proto__` and JSON escapes included. */
const member = fc.oneof(fc.string(), fc.constant('__proto__'), fc.constant('a"b\\c\n'));
const body = fc.dictionary(member, fc.oneof(fc.jsonValue(), fc.array(fc.dictionary(member, fc.jsonValue(), { maxKeys: 3 }), { maxLength: 4 })), { maxKeys: 6 });
const layout = fc.constantFrom('lines' as const, 'indented' as const);

function read(text: string, eol = '\n'): { value: unknown } | undefined {
  const reader = new JsonLinesReader();
  for (const line of text.split(eol)) reader.line(line);
  return reader.end();
}

const textOf = (b: Record<string, unknown>, l: 'lines' | 'indented'): string => [...jsonDocumentChunks('1.0', b, l)].join('');

describe('JsonLinesReader', () => {
  it('reads a document of either layout as JSON.parse reads the whole text (own __proto__ members, escapes, empty containers)', () => {
    fc.assert(
      fc.property(body, layout, (b, l) => {
        const text = textOf(b, l);
        const parsed: unknown = JSON.parse(text);
        expect(read(text)).toStrictEqual({ value: parsed });
        // Lines ending in CRLF are the same JSON.
        expect(read(text.replaceAll('\n', '\r\n'))).toStrictEqual({ value: parsed });
      }),
      { numRuns: 200 },
    );
  });

  it('reads any JSON text it follows as JSON.parse does, and nothing from text JSON.parse refuses', () => {
    const texts = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.jsonValue().map((v) => JSON.stringify(v, null, 2)),
      fc.tuple(body, layout).map(([b, l]) => textOf(b, l)),
    );
    const edited = fc.tuple(texts, fc.nat(), fc.nat({ max: 3 }), fc.constantFrom('', ',', '}', ']', '{', '"', ':', 'x', '\n', ' ')).map(([t, at, cut, insert]) => {
      const i = t.length === 0 ? 0 : at % t.length;
      return t.slice(0, i) + insert + t.slice(i + cut);
    });
    fc.assert(
      fc.property(fc.oneof(texts, edited), (text) => {
        let parsed: { value: unknown } | undefined;
        try {
          parsed = { value: JSON.parse(text) as unknown };
        } catch {
          parsed = undefined;
        }
        const got = read(text);
        // Followed: the same value; not followed: nothing (the caller parses the whole text).
        expect(got === undefined || (parsed !== undefined && JSON.stringify(got.value) === JSON.stringify(parsed.value))).toBe(true);
        if (parsed === undefined) expect(got).toBeUndefined();
      }),
      { numRuns: 400 },
    );
  });

  it('never reads a document cut short at a line', () => {
    fc.assert(
      fc.property(body, layout, fc.nat(), (b, l, at) => {
        const lines = textOf(b, l).split('\n');
        const kept = 1 + (at % Math.max(1, lines.length - 2));
        fc.pre(lines.slice(kept).some((line) => line.trim() !== ''));
        expect(read(lines.slice(0, kept).join('\n'))).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });
});
