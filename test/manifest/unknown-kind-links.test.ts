/**
 * A kind typo (`virtual-hots`) is one error with the kind it likely means, not a cascade of
 * link errors from every document that links to the mistyped object's name (each
 * suggesting another object): for every relationship of every kind, and typos made by
 * dropping, doubling, swapping or changing one letter.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import { loadManifests } from '../../src/manifest/index.js';
import { SCHEMA_KINDS } from '../../src/schema/index.js';
import { project } from './fixture.js';

/** Every relationship of every kind, as (kind, relationship, target kind, cardinality). */
const LINKS = KINDS.flatMap((k) => Object.values(k.relationships).map((r) => ({ kind: k.type, relationship: r.name, target: r.target, one: r.cardinality === 'one' })));

/** One edit of `word`: drop, double, swap with the next, or change the letter at `at`. */
function typo(word: string, edit: number, at: number): string {
  const i = at % word.length;
  switch (edit % 4) {
    case 0:
      return word.slice(0, i) + word.slice(i + 1);
    case 1:
      return word.slice(0, i) + (word[i] ?? '') + word.slice(i);
    case 2:
      return i + 1 < word.length ? word.slice(0, i) + (word[i + 1] ?? '') + (word[i] ?? '') + word.slice(i + 2) : `${word}s`;
    default:
      return word.slice(0, i) + (word[i] === 'x' ? 'y' : 'x') + word.slice(i + 1);
  }
}

describe('a kind typo', () => {
  it('is one error with did-you-mean, without link errors from the documents that link to its name', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...LINKS), fc.nat(3), fc.nat(40), async (link, edit, at) => {
        const mistyped = typo(link.target, edit, at);
        fc.pre(!(SCHEMA_KINDS).includes(mistyped) && mistyped.length > 0);
        const linking = Array.from({ length: 4 }, (_, i) =>
          `apiVersion: gwops/v1\nkind: ${link.kind}\nname: linking-${i}\nrelationships:\n  ${link.relationship}: ${link.one ? 'the-target' : '[the-target]'}\n`,
        );
        const dir = project({ 'm.yaml': [`apiVersion: gwops/v1\nkind: ${mistyped}\nname: the-target\n`, ...linking].join('---\n') });
        const result = await loadManifests({ paths: ['m.yaml'], cwd: dir, env: {}, resolveSecrets: false });
        const errors = result.diagnostics.filter((d) => d.code === 'unknown-kind' || d.code === 'unresolved-link');
        expect(errors.map((d) => `${d.line} ${d.code}`)).toEqual(['2 unknown-kind']);
        expect(errors[0]?.message).toContain(`unknown kind '${mistyped}'`);
      }),
      { numRuns: 40 },
    );
  });

  it('the example: virtual-hots with ten mappings linking to it', async () => {
    const mappings = Array.from({ length: 10 }, (_, i) => `apiVersion: gwops/v1\nkind: mapping\nname: m${i}\nattributes: { entryPath: { value: /m${i}/ } }\nrelationships:\n  virtual-hosts: [shop]\n`);
    const dir = project({ 'm.yaml': ['apiVersion: gwops/v1\nkind: virtual-hots\nname: shop\n', ...mappings].join('---\n') });
    const result = await loadManifests({ paths: ['m.yaml'], cwd: dir, env: {}, resolveSecrets: false });
    expect(result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message)).toEqual(["unknown kind 'virtual-hots': did you mean 'virtual-host'?"]);
  });
});
