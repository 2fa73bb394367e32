/**
 * The one escaping of names and messages (src/core/display.ts): invisible characters become
 * visible escapes, so two names that differ only by one never look alike, and gwops's own
 * colours and progress sequences pass only to a terminal.
 */
import { describe, expect, it } from 'vitest';
import { escapeInvisible, hasInvisible, messageText, safeOutput } from '../../src/core/display.js';
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

  it("with colours on, only gwops's own colour codes and the progress erase pass: no carriage return, hidden text or cursor move of the input", () => {
    expect(safeOutput('plan of x\r::error file=a.yaml::forged\n', true)).toBe('plan of x\\r::error file=a.yaml::forged\n');
    expect(safeOutput('Error: \x1b[8mhidden\x1b[28m \x1b[1m\x1b[2Abold\x1b[22m\n', true)).toBe('Error: \\u001b[8mhidden\\u001b[28m \x1b[1m\\u001b[2Abold\x1b[22m\n');
    expect(safeOutput('\r\x1b[Kplan: reading 1/2', true)).toBe('\r\x1b[Kplan: reading 1/2');
    expect(safeOutput('a\r\x1b[Kb', true), 'the erase only where progress puts it').toBe('a\\r\\u001b[Kb');
  });

  it('an error message keeps to its line whatever the colour mode: escape sequences of the gateway shown as escapes', () => {
    expect(messageText('rejected: \x1b[8mhidden\r::error::x\n  detail\tok')).toBe('rejected: \\u001b[8mhidden\\r::error::x\n  detail\tok');
  });
});
