/**
 * The fast YAML reader must agree with the `yaml` package on everything it accepts, and
 * refuse (return undefined) whatever it does not handle.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { LineCounter, parseAllDocuments, stringify, visit } from 'yaml';
import { describe, expect, it } from 'vitest';
import { fastParse, mayHoldAlias } from '../../src/manifest/fast-yaml.js';
import { nestsTooDeep } from '../../src/manifest/yaml-guards.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What the `yaml` package reads: values and start positions of the non-empty documents, or undefined on errors. */
function reference(text: string): { value: unknown; line: number; column: number }[] | undefined {
  const lineCounter = new LineCounter();
  const all = parseAllDocuments(text, { lineCounter, uniqueKeys: true });
  const docs = Array.isArray(all) ? all : [];
  if (docs.some((d) => d.errors.length > 0)) return undefined;
  return docs
    .map((d) => {
      const { line, col } = lineCounter.linePos(d.contents?.range[0] ?? 0);
      return { value: d.toJS() as unknown, line, column: col };
    })
    .filter((d) => d.value !== null && d.value !== undefined);
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return yamlFiles(full);
    return /\.ya?ml$/.test(name) ? [full] : [];
  });
}

describe('fastParse', () => {
  const files = [...yamlFiles(path.join(ROOT, 'test/manifest')), ...yamlFiles(path.join(ROOT, 'examples'))];

  it.each(files.map((f) => [path.relative(ROOT, f)]))('agrees with the yaml package on %s', (file) => {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const fast = fastParse(text);
    if (fast === undefined) return; // falls back to yaml: nothing to compare
    expect(fast).toEqual(reference(text));
  });

  it('takes the fast path for most files of the corpus and the examples', () => {
    const fast = files.filter((f) => fastParse(readFileSync(f, 'utf8')) !== undefined);
    expect(fast.length / files.length).toBeGreaterThan(0.7);
  });

  it('reads block scalars, quoted scalars, flow collections and nested sequences like yaml does', () => {
    const text = [
      'a: |',
      '  line 1',
      '',
      '  line 2',
      'b: |-',
      '  kept',
      'c: |+',
      '  keep',
      '',
      'd: >',
      '  folded',
      '  text',
      '',
      '  para',
      'e: "tab\\there \\u00e9 \\"q\\""',
      "f: 'it''s'",
      'g: { x: [1, 2.5, -3, 0x1F, 0o17, .inf, ~, true, "s"], y: {} }',
      'h:',
      '- - inner',
      '  - { k: v }',
      '- key: value',
      '  other: 2   # comment',
      'i: http://example.com/#frag',
      "'quoted key': 1e3",
      '---',
      '# comment only',
      '---',
      'plain',
    ].join('\n');
    const fast = fastParse(text);
    expect(fast).toBeDefined();
    expect(fast).toEqual(reference(text));
  });

  it.each([
    ['merge keys', 'a: { x: 1 }\nb:\n  <<: { x: 2 }\n'],
    ['duplicate keys', 'a: 1\na: 2\n'],
    ['tabs', 'a:\n\tb: 1\n'],
    ['an unclosed flow collection', 'a: { b: 1\n'],
    ['over-indented keys', 'a: 1\n  b: 2\n'],
    // js-yaml does not bound what aliases expand to: parseFile checks it on yaml's tree.
    ['anchors and aliases', 'a: &x 1\nb: *x\n'],
    ['aliases in flow collections', 'a: &x [1]\nb: [*x,*x]\nc: {k: *x}\nd: {"k":*x}\n'],
    ['an alias at the start of a line', 'a: &x 1\n---\n*x\n'],
    ['a billion laughs', 'a: &a [x,x]\nb: &b [*a,*a]\nc: &c [*b,*b]\n'],
  ])('falls back to yaml for %s', (_what, text) => {
    expect(fastParse(text)).toBeUndefined();
  });

  it('still reads anchors without aliases, and stars that are no alias', () => {
    const text = 'a: &x 1\nb: ".*"\nc: [a*b, "*x"]\nd: \'^/a/*\'\ne: 2 * 3\n';
    expect(mayHoldAlias(text)).toBe(false);
    expect(fastParse(text)).toEqual(reference(text));
    expect(mayHoldAlias('a: ".*"\nb: [*x]\n')).toBe(false); // no anchor: js-yaml refuses the alias itself
    expect(fastParse('a: ".*"\nb: [*x]\n')).toBeUndefined();
  });

  it('never reads a text with an alias (property)', () => {
    const piece = fc.constantFrom('a', '&x', '*x', ' ', '\n', '- ', ': ', '[', ']', '{', '}', ',', '"', "'", '.*', '#');
    let aliases = 0;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = pieces.join('');
        const docs = parseAllDocuments(text);
        const hasAlias = (Array.isArray(docs) ? docs : []).some((d) => {
          let found = false;
          visit(d, { Alias: () => void (found = true) });
          return found && d.errors.length === 0;
        });
        if (hasAlias) {
          aliases++;
          expect(fastParse(text)).toBeUndefined();
        }
      }),
      { numRuns: 2000 },
    );
    expect(aliases).toBeGreaterThan(10);
  });

  it.each([
    ['tags', 'a: !!str 1\n'],
    ['multi-line plain scalars', 'a: one\n  two\n'],
    ['multi-line flow collections', 'a: [1,\n  2]\n'],
    ['directives', '%YAML 1.2\n---\na: 1\n'],
    ['complex keys', '? a\n: 1\n'],
  ])('reads %s as the yaml package does', (_what, text) => {
    expect(fastParse(text)).toEqual(reference(text));
  });

  it('resolves plain scalars by the YAML 1.2 core schema', () => {
    expect(fastParse('a: 010\nb: yes\nc: 1_000\nd: -.5\ne: Null\nf: 2024-01-01\n')?.[0]?.value).toEqual({
      a: 10,
      b: 'yes',
      c: '1_000',
      d: -0.5,
      e: null,
      f: '2024-01-01',
    });
  });

  it('resolves every plain scalar as the yaml package does, whatever its characters (property)', () => {
    // Characters of the core schema's patterns (null, booleans, ints, floats) and a few others.
    const scalar = fc.stringMatching(/^[0-9a-fA-FxoeEnNuUlLtTrRsS.+~_-]{1,8}$/);
    fc.assert(
      fc.property(scalar, (text) => {
        const yamlText = `k: ${text}\n`;
        const fast = fastParse(yamlText);
        if (fast === undefined) return;
        expect(fast[0]?.value).toEqual(reference(yamlText)?.[0]?.value);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a text whose values nest deeper than maxNesting, and reads one that nests less deep (property)', () => {
    const key = fc.stringMatching(/^[a-z]{1,3}$/);
    const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
      tree: fc.oneof({ depthSize: 'medium' }, fc.integer(), fc.array(tie('tree'), { maxLength: 3 }), fc.dictionary(key, tie('tree'), { maxKeys: 3 })),
    }));
    fc.assert(
      fc.property(fc.array(tree, { minLength: 1, maxLength: 3 }), fc.boolean(), fc.integer({ min: 1, max: 6 }), (values, flow, limit) => {
        const text = values.map((v) => stringify(v, flow ? { collectionStyle: 'flow' } : {})).join('---\n');
        const unlimited = fastParse(text);
        if (unlimited === undefined) return;
        const limited = fastParse(text, { maxNesting: limit });
        // Never too lenient; strict by one level at most (a node js-yaml first tries as a key).
        if (unlimited.some((d) => nestsTooDeep(d.value, limit))) expect(limited).toBeUndefined();
        if (!unlimited.some((d) => nestsTooDeep(d.value, limit - 1))) expect(limited).toEqual(unlimited);
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with yaml on generated documents (property)', () => {
    const key = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,8}$/);
    const scalar = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.integer({ min: -1000, max: 1000 }),
      fc.boolean(),
      fc.constant(null),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
    );
    const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small' },
        scalar,
        fc.array(tie('tree'), { maxLength: 4 }),
        fc.dictionary(key, tie('tree'), { maxKeys: 4 }),
      ),
    }));
    let fastCount = 0;
    fc.assert(
      fc.property(tree, fc.boolean(), fc.boolean(), (value, flow, empty) => {
        // Null items and values written empty (`-`, `key:`), as people write them, or as `null`.
        const written = stringify({ root: value }, flow ? { collectionStyle: 'flow' } : {});
        const text = empty ? written.replace(/^(\s*(?:- )*-) null$/gm, '$1').replace(/: null$/gm, ':') : written;
        const fast = fastParse(text);
        if (fast === undefined) return;
        fastCount++;
        expect(fast.map((d) => d.value)).toEqual(reference(text)?.map((d) => d.value));
      }),
      { numRuns: 400 },
    );
    expect(fastCount).toBeGreaterThan(100);
  });
});
