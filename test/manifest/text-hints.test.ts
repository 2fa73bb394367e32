/**
 * textHints lets variable substitution and the `fromEnv` scan skip documents whose text
 * cannot hold what they look for: it must never say "cannot" for a text whose values do.
 */
import fc from 'fast-check';
import { parseAllDocuments, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { textHints } from '../../src/manifest/positions.js';

/** Every string and every key of a value. */
function stringsOf(value: unknown, strings: string[] = [], keys: string[] = []): { strings: string[]; keys: string[] } {
  if (typeof value === 'string') strings.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, strings, keys);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, item] of Object.entries(value)) {
      keys.push(k);
      stringsOf(item, strings, keys);
    }
  }
  return { strings, keys };
}

function read(text: string): unknown[] {
  return parseAllDocuments(text).flatMap((d) => (Array.isArray(d) || d.errors.length > 0 ? [] : [d.toJS({ maxAliasCount: -1 }) as unknown]));
}

describe('textHints', () => {
  it('says a text may hold a reference or a fromEnv key whenever a value or key of it does (property)', () => {
    const piece = fc.constantFrom('$', '{', '}', '${', 'A', ' ', '\n', '\\', '"', "'", 'from', 'Env', 'fromEnv', 'x24', 'u0024', '#', ':');
    const text = fc.array(piece, { maxLength: 12 }).map((p) => p.join(''));
    const style = fc.constantFrom<'PLAIN' | 'QUOTE_DOUBLE' | 'QUOTE_SINGLE' | 'BLOCK_FOLDED' | 'BLOCK_LITERAL'>('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_FOLDED', 'BLOCK_LITERAL');
    fc.assert(
      fc.property(fc.dictionary(text, fc.oneof(text, fc.array(text, { maxLength: 3 })), { maxKeys: 3 }), style, fc.integer({ min: 0, max: 20 }), (value, defaultStringType, lineWidth) => {
        // Narrow lines make the writer fold long strings over several lines.
        const written = stringify(value, { defaultStringType, defaultKeyType: 'PLAIN', lineWidth, minContentWidth: 0 });
        const hints = textHints(written);
        for (const doc of read(written)) {
          const { strings, keys } = stringsOf(doc);
          if (strings.some((s) => s.includes('${'))) expect(hints.references).toBe(true);
          if (keys.includes('fromEnv')) expect(hints.fromEnv).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('counts escapes of double-quoted scalars and line joins as possible references and fromEnv keys', () => {
    for (const text of ['a: "\\x24{A}"', 'a: "$\\\n  {A}"', '"from\\x45nv": A', 'a: "\\u0024{A}"']) {
      expect(textHints(text)).toEqual({ references: true, fromEnv: true });
    }
    expect(textHints('a: $ {A}\nb: "from Env"')).toEqual({ references: false, fromEnv: false });
  });
});
