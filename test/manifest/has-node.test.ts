/**
 * Whether a document's YAML holds a node at a pointer is answered from the value for
 * documents the fast path read (no syntax tree parsed): the answer must be the syntax
 * tree's, for any document and any pointer, or "ask the tree".
 */
import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseFile } from '../../src/manifest/parse.js';
import { hasNode } from '../../src/manifest/positions.js';
import type { ParsedDocument } from '../../src/manifest/positions.js';

/** Every path of `value` (its containers' keys and indexes), and a few that are not there. */
function pathsOf(value: unknown, prefix: string[] = []): string[][] {
  const out: string[][] = [prefix, [...prefix, 'missing'], [...prefix, '0'], [...prefix, '7']];
  if (Array.isArray(value)) value.forEach((item, i) => out.push(...pathsOf(item, [...prefix, String(i)])));
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...prefix, k]));
  return out;
}

// Not `<<`: that is YAML's merge key, whose value must be a mapping; a document with one is read by the `yaml`
// package (test/manifest/fast-yaml.test.ts), and written here with any value it would be refused, not read.
const key = fc.oneof(fc.constantFrom('a', 'b', '1', '01', 'true', 'null', '~', '1.50', '0x10', 'a b', '__proto__'), fc.string({ maxLength: 3 }).filter((k) => k !== '<<'));
const leaf = fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean(), fc.constant(null), fc.constantFrom('${X}', 'a${X}'));
const tree = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(key, tie('node'), { maxKeys: 3 })),
})).node;

/** The text of `value` with some keys written unquoted as other scalars would be (`1:`, `true:`, `~:`), and null list items written empty. */
function yamlText(value: unknown, flow: boolean): string {
  return stringify({ kind: 'mapping', name: 'm', attributes: value }, { collectionStyle: flow ? 'flow' : 'block' })
    .replace(/^(\s*)'(1|01|true|null|~|1\.50|0x10)':/gm, '$1$2:')
    .replace(/^(\s*)- null$/gm, '$1-');
}

describe('hasNode of a fast-read document', () => {
  it('gives what the syntax tree gives, or leaves it to the tree, for every pointer of any document', () => {
    let answered = 0;
    fc.assert(
      fc.property(tree, fc.boolean(), (value, flow) => {
        const text = yamlText(value, flow);
        const [doc] = parseFile({ file: 't.yaml', dir: '/', text }, []);
        expect(doc).toBeDefined();
        if (!doc) return;
        // Variables substituted as loading does, so that whole references are known.
        doc.wholeReferences = new Set(
          pathsOf(doc.value)
            .filter((p) => {
              let v: unknown = doc.value;
              for (const s of p) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[s] : undefined;
              return v === '${X}';
            })
            .map((p) => p.join('/')),
        );
        const byTree = { ast: () => doc.ast() } as unknown as ParsedDocument;
        for (const segments of pathsOf(doc.value)) {
          const fast = doc.hasNode?.(segments);
          if (fast === undefined) continue;
          answered += 1;
          expect(fast, JSON.stringify({ text, segments })).toBe(hasNode(byTree, segments));
        }
      }),
      { numRuns: 300 },
    );
    // Most pointers are answered from the value: the comparison above is not vacuous.
    expect(answered).toBeGreaterThan(1000);
  });

  it('answers from the value, without parsing a syntax tree, for a plain document', () => {
    const [doc] = parseFile({ file: 't.yaml', dir: '/', text: 'kind: mapping\nname: m\nattributes:\n  entryPath: { value: /a/ }\n  labels: [x]\n' }, []);
    expect(doc?.hasNode?.(['attributes', 'entryPath', 'value'])).toBe(true);
    expect(doc?.hasNode?.(['attributes', 'labels', '1'])).toBe(false);
    expect(doc?.hasNode?.(['attributes', 'backendPath'])).toBe(false);
  });
});
