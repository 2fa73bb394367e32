import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DataArraySplitter } from '../../src/gateway/data-array.js';
import { DocumentShapeError } from '../../src/api/documents.js';

/**
 * Splits `text` into chunks at the given cut points and runs the splitter over them, with a
 * sparse fieldset when `fields` is given, plain when told (or with the options given).
 */
function split(text: string, cuts: readonly number[], fields?: readonly string[], options: boolean | SplitterOptions = false): unknown[] {
  const bytes = Buffer.from(text, 'utf8');
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: unknown[] = [];
  const splitter = new DataArraySplitter((e) => out.push(e), 'data', fields, typeof options === 'boolean' ? { plain: options } : options);
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

/**
 * JSON text of `value` written the way other servers may write it: every string (member
 * names included) with some characters escaped as `\uXXXX` (decided by `seed`), and
 * optional white space around the punctuation.
 */
function writeJson(value: unknown, seed: number, spaced: boolean): string {
  let state = seed >>> 0 || 1;
  const next = (): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % 4;
  };
  const gap = (): string => (spaced && next() === 0 ? ' \n' : '');
  const text = (s: string): string => {
    const plain = JSON.stringify(s);
    if (next() !== 0) return plain;
    // Escape the first character that is written plainly.
    const first = s.codePointAt(0);
    if (first === undefined || first > 0xffff || s[0] === '"' || s[0] === '\\') return plain;
    return `"\\u${first.toString(16).padStart(4, '0')}${plain.slice(2)}`;
  };
  const write = (v: unknown): string => {
    if (Array.isArray(v)) return `[${gap()}${v.map(write).join(`${gap()},${gap()}`)}${gap()}]`;
    if (typeof v === 'object' && v !== null) {
      return `{${gap()}${Object.entries(v)
        .map(([k, m]) => `${text(k)}${gap()}:${gap()}${write(m)}`)
        .join(`${gap()},${gap()}`)}${gap()}}`;
    }
    return typeof v === 'string' ? text(v) : JSON.stringify(v);
  };
  return write(value);
}

/** The element with its attributes restricted to `fields`. */
function restricted(element: unknown, fields: ReadonlySet<string>): unknown {
  const { attributes, ...rest } = element as { attributes?: unknown };
  if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes)) return element;
  return { ...rest, attributes: Object.fromEntries(Object.entries(attributes).filter(([k]) => fields.has(k))) };
}

// Member names and values drawn from small pools, so that elements repeat each other's
// members at the same places (what the framing remembers), differ from them, or hold them
// in another order; values long enough to be remembered, with strings that look like JSON.
const NAMES = ['name', 'labels', 'entryPath', 'access', 'a"b', 'c\\d', '{', 'é', 'attributes', 'data', '__proto__', '7'];
const longString = fc.constantFrom('x'.repeat(80), '"},{"type":"m"'.repeat(6), '\\"'.repeat(40), 'ü€😀'.repeat(20));
const memberValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  longString,
  fc.record({ nested: longString, list: fc.array(longString, { maxLength: 2 }) }),
);
const pooledResource = fc.record({
  type: fc.constantFrom('mapping', 'virtual-host'),
  id: fc.string({ maxLength: 3 }),
  attributes: fc.array(fc.tuple(fc.constantFrom(...NAMES), memberValue), { maxLength: 6 }).map((pairs) => Object.fromEntries(pairs)),
  relationships: fc.dictionary(fc.constantFrom('virtual-hosts', 'attributes'), fc.record({ data: fc.array(fc.record({ type: fc.string(), id: fc.string() }), { maxLength: 2 }) })),
});

describe('DataArraySplitter remembering repeated members', () => {
  it('keeps every asked-for attribute whole and every other member as it is, and without a fieldset gives what JSON.parse gives, however the body is written and chunked', () => {
    fc.assert(
      fc.property(
        // Elements that repeat: a few shapes, each used several times.
        fc.array(pooledResource, { minLength: 1, maxLength: 4 }).chain((shapes) => fc.array(fc.nat(shapes.length - 1), { maxLength: 10 }).map((picks) => picks.map((k) => shapes[k]))),
        fc.subarray(NAMES),
        fc.option(fc.constant(undefined), { nil: null }),
        fc.integer(),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 12 }),
        (data, fields, whole, seed, spaced, cuts) => {
          const text = writeJson({ meta: { type: 'jsonapi.metadata.document' }, data }, seed, spaced);
          const parsed = (JSON.parse(text) as { data: unknown[] }).data;
          if (whole === undefined) {
            // Without a fieldset every element is whole, reused members or not, plain or not.
            expect(split(text, cuts, undefined)).toStrictEqual(parsed);
            expect(split(text, cuts, undefined, true)).toStrictEqual(parsed);
            return;
          }
          const asked = new Set(fields);
          const got = split(text, cuts, fields);
          expect(got.map((e) => restricted(e, asked))).toEqual(parsed.map((e) => restricted(e, asked)));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('shares one frozen value of a member repeated from element to element, and nothing when plain', () => {
    const element = { type: 'mapping', id: '1', attributes: { name: 'a', access: { big: 'x'.repeat(100) } } };
    const text = JSON.stringify({ data: [element, { ...element, id: '2' }, { ...element, id: '3' }] });
    const [, second, third] = split(text, [], undefined) as { attributes: { access: object } }[];
    expect(second?.attributes.access).toBe(third?.attributes.access);
    expect(Object.isFrozen(third?.attributes.access)).toBe(true);
    const [, plainSecond, plainThird] = split(text, [], undefined, true) as { attributes: { access: object } }[];
    expect(plainSecond?.attributes.access).not.toBe(plainThird?.attributes.access);
    expect(plainThird?.attributes.access).toEqual(element.attributes.access);
  });

  it('cuts the members not asked for out of a body written plainly in one chunk', () => {
    const element = { type: 'mapping', id: '1', attributes: { name: 'a', access: { big: 'x'.repeat(100) }, labels: ['l'] }, relationships: { 'virtual-hosts': { data: [] } } };
    const text = JSON.stringify({ data: [element, element] });
    expect(split(text, [], ['name', 'labels'])).toEqual([
      { ...element, attributes: { name: 'a', labels: ['l'] } },
      { ...element, attributes: { name: 'a', labels: ['l'] } },
    ]);
  });
});

type SplitterOptions = NonNullable<ConstructorParameters<typeof DataArraySplitter>[3]>;

/** {@link split} with a splitter told that `data` holds one object, remembering into `memory`. */
function splitSingle(text: string, cuts: readonly number[], fields: readonly string[], memory: SplitterOptions['memory']): unknown[] {
  return split(text, cuts, fields, { single: true, memory });
}

describe('DataArraySplitter reading a single-resource document', () => {
  it('gives the one resource object of each document of a run, with a memory shared across the run, however each is written and chunked', () => {
    fc.assert(
      fc.property(
        fc.array(pooledResource, { minLength: 1, maxLength: 3 }).chain((shapes) => fc.array(fc.nat(shapes.length - 1), { minLength: 1, maxLength: 6 }).map((picks) => picks.map((k) => shapes[k]))),
        fc.subarray(NAMES),
        fc.array(fc.tuple(fc.integer(), fc.boolean(), fc.array(fc.nat(), { maxLength: 6 })), { minLength: 6, maxLength: 6 }),
        (documents, fields, writings) => {
          const memory: NonNullable<SplitterOptions['memory']> = [];
          const asked = new Set(fields);
          for (const [i, data] of documents.entries()) {
            const [seed, spaced, cuts] = writings[i] ?? [0, false, []];
            const text = writeJson({ meta: { type: 'jsonapi.metadata.document', data: [1] }, data }, seed, spaced);
            const parsed = (JSON.parse(text) as { data: unknown }).data;
            expect(splitSingle(text, cuts, fields, memory).map((e) => restricted(e, asked))).toEqual([restricted(parsed, asked)]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reports a document whose data is not an object, or that is truncated', () => {
    for (const text of ['{"data":[{"type":"m","id":"1"}]}', '{"data":null}', '{"data":"x"}', '{"meta":{"data":{}}}', '', '{"data":{"type":"m","id":"1"']) {
      expect(() => splitSingle(text, [], [], [])).toThrow(DocumentShapeError);
    }
  });
});
