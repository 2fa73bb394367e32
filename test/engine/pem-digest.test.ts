/**
 * A readable PEM secret (a certificate's `privateKey`) compares by the digest of its PEM
 * lines (src/engine/diff.ts): for every key text, its line endings, final line break and
 * indentation are no difference; any other change of a character is one.
 */
import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_PUBLIC_KEYS, matchesDeclared, pemTextDigest } from '../../src/engine/diff.js';

const KEYS = [
  generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'sec1', format: 'pem' }).toString(),
  generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' }).toString(),
];

/** `pem` with each line indented and ended as `layout` says. */
function relaid(pem: string, layout: { crlf: boolean; indent: string; final: string }): string {
  const lines = pem.trimEnd().split('\n');
  return lines.map((l) => layout.indent + l).join(layout.crlf ? '\r\n' : '\n') + layout.final;
}

const layout = fc.record({ crlf: fc.boolean(), indent: fc.constantFrom('', ' ', '  ', '\t'), final: fc.constantFrom('', '\n', '\r\n', '\n\n') });

describe('pemTextDigest', () => {
  it('is the same for every layout of the same PEM text, and matchesDeclared agrees', () => {
    fc.assert(
      fc.property(fc.constantFrom(...KEYS), layout, layout, (key, a, b) => {
        expect(pemTextDigest(relaid(key, a))).toBe(pemTextDigest(relaid(key, b)));
        expect(matchesDeclared('ssl-certificate', { privateKey: relaid(key, a) }, { privateKey: relaid(key, b) }, NO_PUBLIC_KEYS)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('differs when any character of the key body changes, and for another key or encoding', () => {
    fc.assert(
      fc.property(fc.constantFrom(...KEYS), fc.nat(), fc.constantFrom('A', 'B', '+', '/'), (key, at, replacement) => {
        const lines = key.trimEnd().split('\n');
        const bodyIndexes = lines.flatMap((l, i) => (l.startsWith('-----') || l.includes(':') ? [] : [i]));
        const line = bodyIndexes[at % bodyIndexes.length] ?? 1;
        const text = lines[line] ?? '';
        const column = at % text.length;
        fc.pre(text[column] !== replacement);
        const changed = [...lines.slice(0, line), text.slice(0, column) + replacement + text.slice(column + 1), ...lines.slice(line + 1)].join('\n');
        expect(pemTextDigest(changed)).not.toBe(pemTextDigest(key));
        expect(matchesDeclared('ssl-certificate', { privateKey: key }, { privateKey: changed }, NO_PUBLIC_KEYS)).toBe(false);
      }),
      { numRuns: 100 },
    );
    for (const [i, key] of KEYS.entries()) for (const other of KEYS.slice(i + 1)) expect(matchesDeclared('ssl-certificate', { privateKey: key }, { privateKey: other }, NO_PUBLIC_KEYS)).toBe(false);
  });

  it('is undefined for text that is no PEM: such a secret compares exactly', () => {
    expect(pemTextDigest('correct horse battery staple')).toBeUndefined();
    expect(matchesDeclared('ssl-certificate', { privateKey: 'secret' }, { privateKey: 'secret\n' }, NO_PUBLIC_KEYS)).toBe(false);
    expect(matchesDeclared('ssl-certificate', { privateKey: 'secret' }, { privateKey: 'secret' }, NO_PUBLIC_KEYS)).toBe(true);
  });
});
