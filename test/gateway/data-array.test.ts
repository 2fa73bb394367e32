import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DataArraySplitter } from '../../src/gateway/data-array.js';
import { DocumentShapeError } from '../../src/api/documents.js';

/** Splits `text` into chunks at the given cut points and runs the splitter over them. */
function split(text: string, cuts: readonly number[]): unknown[] {
  const bytes = Buffer.from(text, 'utf8');
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: unknown[] = [];
  const splitter = new DataArraySplitter((e) => out.push(e));
  let start = 0;
  for (const p of [...points, bytes.length]) {
    splitter.write(bytes.subarray(start, p));
    start = p;
  }
  splitter.end();
  return out;
}

const resource = fc.record({
  type: fc.constantFrom('mapping', 'virtual-host'),
  id: fc.string(),
  attributes: fc.dictionary(fc.string(), fc.jsonValue()),
});

describe('DataArraySplitter', () => {
  it('yields exactly the elements JSON.parse finds in data[], however the body is chunked', () => {
    fc.assert(
      fc.property(
        fc.array(resource, { maxLength: 8 }),
        fc.jsonValue(),
        fc.array(fc.nat(), { maxLength: 12 }),
        (data, meta, cuts) => {
          const text = JSON.stringify({ meta: { type: 'jsonapi.metadata.document', extra: meta }, data });
          const parsed = JSON.parse(text) as { data: unknown[] };
          expect(split(text, cuts)).toEqual(parsed.data);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('handles keys and strings that look like structure, and multi-byte characters cut in half', () => {
    const text = '{"meta":{"data":"[{"},"note":"data","data":[{"a":"}]\\"{","b":"€ü😀"},{"c":[1,{"d":"]"}]}]}';
    const bytes = Buffer.from(text, 'utf8');
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(split(text, [cut])).toEqual((JSON.parse(text) as { data: unknown[] }).data);
    }
  });

  it('reports a document without data[] or a truncated one', () => {
    expect(() => split('{"meta":{}}', [])).toThrow(DocumentShapeError);
    const s = new DataArraySplitter(() => undefined);
    s.write(Buffer.from('{"data":[{"a":1},{"b":'));
    expect(() => s.end()).toThrow(DocumentShapeError);
  });
});
