/**
 * Export writes each manifest document with `js-yaml` (src/export/write.ts
 * `renderDocument`): whatever the values, the manifest loader reads back exactly the
 * document exported, with `${` kept literal.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderDocument } from '../../src/export/write.js';
import { loadManifests } from '../../src/manifest/index.js';

// Strings and keys from pieces that sit on both sides of every rule of plain scalars.
const piece = fc.constantFrom('a', 'Z', '_', '0', '9', '-', '.', '/', ':', ' ', '#', '?', '@', '$', '${', '{', '}', '[', ']', ',', '"', "'", '!', '&', '*', '%', '|', '>', '~', '=', '+', '(', '^', '\\', '\t', '\n', 'é', 'true', 'null', 'yes', 'on', '1e3', '0x1F', '.inf', '---', '2026-01-01');
const text = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(''));
const leaf = fc.oneof(text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)), fc.boolean(), fc.constant(null));
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(text, tie('node'), { maxKeys: 4 })),
})).node;

describe('renderDocument', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gwops-export-yaml-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes YAML that reads back as the document, for any attribute values', async () => {
    const file = join(dir, 'mapping.yaml');
    await fc.assert(
      fc.asyncProperty(fc.dictionary(text, value, { maxKeys: 5 }), async (attributes) => {
        await writeFile(file, renderDocument({ kind: 'mapping', name: 'n', attributes: { settings: attributes }, relationships: {} }));
        const read = await loadManifests({ paths: [file], cwd: dir, env: {} });
        const yamlProblems = read.diagnostics.filter((d) => ['yaml-syntax', 'duplicate-key', 'unset-variable'].includes(d.code));
        expect(yamlProblems).toEqual([]);
        expect(read.documents[0]?.attributes.settings).toEqual(attributes);
      }),
      { numRuns: 300, seed: 42 },
    );
  });

  it('writes a typical exported mapping in block style, quoting only what needs it', () => {
    const text = renderDocument({
      kind: 'mapping',
      name: 'shop',
      attributes: { entryPath: { value: '/shop/', priority: 0 }, labels: ['team-a', 'yes'], backendPath: '/' },
      relationships: { 'back-end-groups': ['shop-backend'] },
    });
    expect(text).toBe(
      'apiVersion: gwops/v1\nkind: mapping\nname: shop\nattributes:\n  entryPath:\n    value: /shop/\n    priority: 0\n  labels:\n    - team-a\n    - "yes"\n  backendPath: /\n' +
        'relationships:\n  back-end-groups:\n    - shop-backend\n',
    );
  });
});
