import fc from 'fast-check';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { yamlText } from '../../src/export/yaml-text.js';

/** Zero-width, bidi and other invisible characters, beside ordinary text and YAML's own punctuation. */
const PIECES = ['\u202e', '\u200b', '\u2066', '\u2069', '\ufeff', '\u061c', '\u0085', '\x01', '\t', '\n', '"', "'", '\\', '\\x01', ':', '#', 'a', 'é', ' ', 'x01', '\\u'];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((parts) => parts.join(''));

describe('yamlText', () => {
  it('reads back as the value and holds no zero-width or bidi character raw, in values and keys (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(text, fc.oneof(text, fc.array(text, { maxLength: 3 })), { maxKeys: 4 }), (value) => {
        const written = yamlText({ name: 'n', attributes: value });
        expect(load(written)).toEqual({ name: 'n', attributes: value });
        expect(written).not.toMatch(/[\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/);
      }),
      { seed: 42, numRuns: 300 },
    );
  });

  it('writes a value without invisible characters as before, and a bidi override as its escape', () => {
    expect(yamlText({ a: 'plain', b: 'yes' })).toBe('a: plain\nb: "yes"\n');
    expect(yamlText({ a: 'x\u202ey' })).toBe('a: "x\\u202Ey"\n');
  });
});
