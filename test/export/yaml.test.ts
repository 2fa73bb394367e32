import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { renderDocument } from '../../src/export/write.js';
import { plainYaml } from '../../src/export/yaml.js';
import { escapeVariables } from '../../src/manifest/variables.js';

const YAML_OPTIONS = { lineWidth: 0, minContentWidth: 0 } as const;

/** What `yaml` writes of `value` with every string escaped: the text export must write. */
function reference(value: unknown): string {
  const escape = (v: unknown): unknown =>
    typeof v === 'string' ? escapeVariables(v) : Array.isArray(v) ? v.map(escape) : typeof v === 'object' && v !== null ? Object.fromEntries(Object.entries(v).map(([k, c]) => [k, escape(c)])) : v;
  return stringify(escape(value), YAML_OPTIONS);
}

// Strings and keys from pieces that sit on both sides of every rule of plain scalars.
const piece = fc.constantFrom('a', 'Z', '_', '0', '9', '-', '.', '/', ':', ' ', '#', '?', '@', '$', '${', '{', '}', '[', ']', ',', '"', "'", '!', '&', '*', '%', '|', '>', '~', '=', '+', '(', '^', '\\', '\t', '\n', 'é', 'true', 'null', 'yes', '1e3', '0x1F', '.inf', '---');
const text = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(''));
const leaf = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(-0));
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(text, tie('node'), { maxKeys: 4 })),
})).node;

describe('plainYaml', () => {
  it('writes what yaml writes, or leaves the document to yaml', () => {
    fc.assert(
      fc.property(fc.dictionary(text, value, { maxKeys: 5 }), (document) => {
        const fast = plainYaml(document, escapeVariables);
        if (fast !== undefined) expect(fast).toBe(reference(document));
        expect(renderDocument({ kind: 'mapping', name: 'n', attributes: document, relationships: {} })).toBe(
          reference({ apiVersion: 'gwops/v1', kind: 'mapping', name: 'n', ...(Object.keys(document).length > 0 ? { attributes: document } : {}) }),
        );
      }),
      { numRuns: 2000, seed: 42 },
    );
  });

  it('writes a typical exported mapping itself', () => {
    const document = {
      apiVersion: 'gwops/v1',
      kind: 'mapping',
      name: 'shop-api',
      attributes: { entryPath: { value: '/shop/api/', priority: 10 }, labels: ['team-shop', 'managed-by-gwops'], backendPath: '/api/${VERSION}/', accessToken: { enabled: true, claims: [] }, allow: [{ path: '/x', methods: ['GET', 'POST'] }] },
      relationships: { 'back-end-groups': ['shop-backend'], 'virtual-hosts': ['shop.example.com'] },
    };
    expect(plainYaml(document, escapeVariables)).toBe(reference(document));
  });
});
