/**
 * Code spans for text gwops did not write (src/render/markdown-text.ts): whatever the text,
 * one inline code span that holds it whole, on one line, with table pipes escaped in cells.
 */
import { describe, expect, it } from 'vitest';
import { codeCell, codeSpan } from '../../src/render/markdown-text.js';
import { liveMarkdown } from '../drills/output-oracle.js';

describe('codeSpan', () => {
  it('fences backticks with a longer run, padded where the text starts or ends with one', () => {
    expect(codeSpan('plain')).toBe('`plain`');
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('`x`')).toBe('`` `x` ``');
    expect(codeSpan('```')).toBe('```` ``` ````');
    expect(codeSpan('')).toBe('');
  });

  it('keeps a name on its line and makes no link, mention or HTML of it', () => {
    expect(codeSpan('a\nb\r::error::x')).toBe('`a\\nb\\r::error::x`');
    const hostile = '[FORGED](https://evil.example/x) @octo-victim <img src=x onerror=alert(1)> ``` `';
    expect(liveMarkdown(`| ${codeCell(hostile)} |`)).toEqual([]);
    expect(liveMarkdown(`| ${hostile} |`)).not.toEqual([]);
  });

  it('escapes pipes in table cells only', () => {
    expect(codeCell('a|b')).toBe('`a\\|b`');
    expect(codeSpan('a|b')).toBe('`a|b`');
  });
});
