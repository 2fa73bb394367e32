/**
 * What `gwops init` appends to a `.gitignore` of the team's own (src/init/gitignore.ts),
 * over any text: the file only grows at its end, in its own line ending; afterwards it has
 * every pattern gwops needs; a second addition is empty.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gitignoreAddition, ignorePatterns, lineEndingOf } from '../../src/init/gitignore.js';
import { ROOT } from '../ci/action-runner.js';

const TEMPLATE = readFileSync(join(ROOT, 'templates/init/gitignore'), 'utf8');
const NEEDED = ignorePatterns(TEMPLATE);

const line = fc.oneof(fc.constantFrom(...NEEDED, 'node_modules', '!*.env.example', '*.env ', '# *.key', '\uFEFF.env', ''), fc.string({ maxLength: 16 }).map((l) => l.replace(/\n/g, '')));
const text = fc
  .record({ lines: fc.array(line, { maxLength: 14 }), eol: fc.constantFrom('\n', '\r\n'), ends: fc.boolean() })
  .map(({ lines, eol, ends }) => `${lines.join(eol)}${ends && lines.length > 0 ? eol : ''}`);

describe('gitignoreAddition', () => {
  it('appends, in the file\'s line ending, exactly what makes every needed pattern present, and nothing the second time', () => {
    fc.assert(
      fc.property(text, (existing) => {
        const { added, text: addition } = gitignoreAddition(existing, TEMPLATE);
        const after = existing + addition;
        const present = new Set(ignorePatterns(after));
        expect(NEEDED.filter((p) => !present.has(p) && !present.has(p.replace(/\/$/, '')))).toEqual([]);
        expect(ignorePatterns(addition)).toEqual(added);
        const eol = lineEndingOf(existing);
        expect(addition === '' || addition.endsWith(eol)).toBe(true);
        expect(addition.split(eol).join('')).not.toMatch(/[\r\n]/);
        // The negation comes after the patterns it excepts, as Git reads the last match.
        const patterns = ignorePatterns(after);
        expect(patterns.lastIndexOf('!*.env.example')).toBeGreaterThan(patterns.lastIndexOf('*.env'));
        expect(gitignoreAddition(after, TEMPLATE)).toEqual({ added: [], text: '' });
      }),
      { numRuns: 1000 },
    );
  });

  it('adds under a comment after a blank line, and a last line without its line ending gets one first', () => {
    expect(gitignoreAddition('dist', TEMPLATE).text.startsWith('\n\n# Added by `gwops init`')).toBe(true);
    expect(gitignoreAddition('dist\r\n', TEMPLATE).text.startsWith('\r\n# Added by `gwops init`')).toBe(true);
    expect(gitignoreAddition('', TEMPLATE).text.startsWith('# Added by `gwops init`')).toBe(true);
    expect(gitignoreAddition('node_modules\n.env\n', TEMPLATE).added).not.toContain('node_modules/');
  });
});

describe('ignorePatterns', () => {
  it("reads a line as Git does: without its CR and its unescaped trailing spaces, an escaped one kept (in linear time)", () => {
    const lines = fc.array(fc.constantFrom('a', ' ', '\\', '#', '\r'), { maxLength: 12 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(lines, (raw) => {
        const line = raw.replace(/\r(?!$)/g, '');
        // Git's rule, spelt as the regular expression it replaces (quadratic on long runs of spaces, fine on 12 characters).
        const expected = line.replace(/\r$/, '').replace(/(?<!\\) +$/, '');
        const patterns = ignorePatterns(`${line}\n`);
        expect(patterns).toEqual(expected.trim() === '' || expected.startsWith('#') ? [] : [expected]);
      }),
      { numRuns: 2000, seed: 5 },
    );
    expect(ignorePatterns('a\\   \n')).toEqual(['a\\ ']);
  });
});
