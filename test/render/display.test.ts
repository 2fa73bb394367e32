/**
 * The one escaping of names and messages (src/display.ts): invisible characters become
 * visible escapes, so two names that differ only by one never look alike, and gwops's own
 * colours and progress sequences pass only to a terminal.
 */
import { describe, expect, it } from 'vitest';
import { escapeInvisible, hasInvisible, messageText, safeOutput } from '../../src/display.js';
import { objectTitle } from '../../src/render/values.js';

describe('display escaping', () => {
  it('two names that differ by a zero-width space or a bidi control look different', () => {
    const plain = objectTitle({ kind: 'mapping', name: 'shop-beg' });
    expect(objectTitle({ kind: 'mapping', name: 'shop-beg\u200b' })).toBe('mapping "shop-beg\\u200b"');
    expect(objectTitle({ kind: 'mapping', name: 'shop-\u202egeb' })).not.toBe(plain);
    expect(hasInvisible('shop-beg')).toBe(false);
    expect(hasInvisible('shop-beg\u200b')).toBe(true);
  });

  it('a name keeps to its line: line breaks and escapes become visible', () => {
    expect(escapeInvisible('a\n::warning::x\x1b[2J')).toBe('a\\n::warning::x\\u001b[2J');
    expect(messageText("mapping 'a\n::warning::x' failed\n  second line")).toBe("mapping 'a\\n::warning::x' failed\n  second line");
  });

  it('the output filter keeps line feeds, and colours only on a terminal', () => {
    const coloured = '\x1b[31mred\x1b[39m\nnext\t\u200b\x1b[2J';
    expect(safeOutput(coloured, true)).toBe('\x1b[31mred\x1b[39m\nnext\t\\u200b\\u001b[2J');
    expect(safeOutput(coloured, false)).toBe('\\u001b[31mred\\u001b[39m\nnext\t\\u200b\\u001b[2J');
    expect(safeOutput('{"name": "a\u2066b"}', false)).toBe('{"name": "a\\u2066b"}');
  });
});
