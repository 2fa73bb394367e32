/**
 * The one column table of the CLI (src/render/table.ts): whatever the cells hold (CJK,
 * emoji, combining marks, invisible characters, empty cells), every row reaches its last
 * column at the same display width, so the columns line up on a terminal.
 */
import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { escapeInvisible } from '../../src/core/display.js';
import { renderTable } from '../../src/render/table.js';

/** Characters of every display width: wide (CJK, Hangul, fullwidth, emoji), narrow, combining, invisible. */
const SPECIAL = ['日', '本', '語', '한', '국', 'Ａ', 'ｶ', '😀', '👍🏽', '🇨🇭', '✅', 'é', 'e\u0301', 'ß', '\u200b', '\t', '\n', '-', ' '];
const text = fc
  .array(fc.oneof(fc.constantFrom(...SPECIAL), fc.string({ unit: 'grapheme', maxLength: 4 }), fc.string({ unit: 'grapheme-ascii', maxLength: 6 })), { maxLength: 5 })
  .map((parts) => parts.join(''));
/** A last cell that the table keeps whole: not empty and not ending in a space. */
const lastCell = text.map((t) => `${t}x`);

describe('renderTable', () => {
  it('every row has the same display width up to its last column, for any cells', () => {
    const tables = fc.integer({ min: 1, max: 4 }).chain((columns) =>
      fc.array(fc.tuple(fc.array(text, { minLength: columns - 1, maxLength: columns - 1 }), lastCell), { minLength: 1, maxLength: 6 }),
    );
    fc.assert(
      fc.property(tables, fc.boolean(), (rows, rule) => {
        const table = rows.map(([first, last]) => [...first, last]);
        const lines = renderTable(table, { rule }).split('\n');
        expect(lines.pop()).toBe('');
        if (rule) lines.splice(1, 1);
        expect(lines).toHaveLength(table.length);
        const prefixes = lines.map((line, i) => {
          const last = escapeInvisible(table[i]?.at(-1) ?? '');
          expect(line.endsWith(last)).toBe(true);
          return stringWidth(line.slice(0, line.length - last.length));
        });
        expect(new Set(prefixes).size).toBe(1);
      }),
      { numRuns: 200 },
    );
  });

  it('aligns CJK and emoji by display width, and draws the rule as wide as each column', () => {
    expect(renderTable([['NAME', 'URL'], ['日本', 'https://a'], ['😀', 'https://b']], { rule: true })).toBe(
      ['NAME  URL', '----  ---------', '日本  https://a', '😀    https://b', ''].join('\n'),
    );
  });

  it('shows invisible characters as escapes, measured as shown', () => {
    expect(renderTable([['a\u200bb', 'x'], ['c', 'y']])).toBe('a\\u200bb  x\nc         y\n');
  });
});
