/**
 * The linear scans of src/core/linear-text.ts (and the reference scanner of src/manifest/variables.ts)
 * answer exactly what the backtracking regular expressions they replace answered, on random
 * text made of the characters those expressions look at.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { delimitedSections, trimEdges, trimTrailing, withoutDelimited, withoutTrailingLineBreaks } from '../../src/core/linear-text.js';
import { substituteVariables } from '../../src/manifest/variables.js';
import { withoutVersionTrailer } from '../../src/engine/secret-versions.js';
import { certificateFingerprint } from '../../src/kinds/ssl-certificate/identity.js';
import { createHash } from 'node:crypto';

const text = (chars: string): fc.Arbitrary<string> => fc.array(fc.constantFrom(...chars.split('')), { maxLength: 40 }).map((a) => a.join(''));
const tokens = (parts: readonly string[]): fc.Arbitrary<string> => fc.array(fc.constantFrom(...parts), { maxLength: 16 }).map((a) => a.join(''));

describe('linear text scans equal the expressions they replace', () => {
  it('trims', () => {
    fc.assert(
      fc.property(text('/a. _-\t\r\n'), (s) => {
        expect(trimTrailing(s, '/')).toBe(s.replace(/\/+$/, ''));
        expect(trimEdges(s, ' \t\r')).toBe(s.replace(/^[ \t\r]+|[ \t\r]+$/g, ''));
        expect(trimEdges(s, '-.')).toBe(s.replace(/^[-.]+|[-.]+$/g, ''));
        expect(withoutTrailingLineBreaks(s)).toBe(s.replace(/(\r?\n)+$/, ''));
      }),
      { numRuns: 500 },
    );
  });

  it('delimited sections', () => {
    fc.assert(
      fc.property(tokens(['<?', '?>', '<!--', '-->', '<', '>', '-', '?', 'x', '!']), (s) => {
        expect(withoutDelimited(s, [['<?', '?>'], ['<!--', '-->']])).toBe(s.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->/g, ''));
        expect(delimitedSections(s, '<!--', '-->')).toEqual(s.match(/<!--[\s\S]*?-->/g) ?? []);
      }),
      { numRuns: 500 },
    );
  });

  it('${VAR} references', () => {
    const REFERENCE = /(\$\$\{)|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
    const env = { A: 'va', B: '' };
    fc.assert(
      fc.property(tokens(['$', '{', '}', ':-', 'A', 'B', 'C', '1', 'x', '${', '$${', '${A', '${B:-']), (s) => {
        const expected = s.replace(REFERENCE, (_m, escaped: string | undefined, name: string, fallback: string | undefined) => {
          if (escaped) return '${';
          const v = (env as Record<string, string | undefined>)[name];
          if (fallback !== undefined) return v === undefined || v === '' ? fallback : v;
          return v ?? '';
        });
        expect(substituteVariables({ s }, env).value).toEqual({ s: expected });
      }),
      { numRuns: 500 },
    );
  });

  it('the secret-version trailer and the first PEM block', () => {
    fc.assert(
      fc.property(tokens([' gwops-secret-versions=', '{', '}', 'x', ' ', '\n']), (s) => {
        expect(withoutVersionTrailer(s)).toBe(s.replace(/ gwops-secret-versions=(\{.*\})$/su, ''));
      }),
      { numRuns: 500 },
    );
    const old = (pem: string): string | undefined => {
      const body = /-----BEGIN [A-Z0-9 ]+-----([\s\S]*?)-----END [A-Z0-9 ]+-----/.exec(pem)?.[1];
      return body === undefined ? undefined : createHash('sha256').update(Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64')).digest('hex');
    };
    fc.assert(
      fc.property(tokens(['-----BEGIN ', '-----END ', '-----', 'CERT', ' ', 'QUJD', '\n', '-', 'x']), (s) => {
        expect(certificateFingerprint(s)).toBe(old(s));
      }),
      { numRuns: 500 },
    );
  });
});
