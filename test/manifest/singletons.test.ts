/**
 * Singleton documents (docs/manifest-reference.md "Singletons"), for every singleton kind of
 * the registry: a document has no name; a `name` on one, or a second document of the kind,
 * is an error at file:line that says what would be right.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import { loadManifests } from '../../src/manifest/index.js';
import { project } from './fixture.js';

const SINGLETONS = KINDS.filter((k) => k.singleton !== undefined).map((k) => k.type);

const doc = (kind: string, extra = ''): string => `apiVersion: gwops/v1\nkind: ${kind}\n${extra}`;

describe.each(SINGLETONS)('singleton %s in manifests', (kind) => {
  it('loads a document without name, named by its kind', async () => {
    const dir = project({ 'gwops.yaml': 'manifests: [settings.yaml]\n', 'settings.yaml': doc(kind) });
    const result = await loadManifests({ paths: [], cwd: dir, env: {} });
    expect(result.diagnostics).toEqual([]);
    expect(result.documents.map((d) => [d.kind, d.name])).toEqual([[kind, kind]]);
  });

  it('refuses a name at its line, saying to remove it', async () => {
    const dir = project({ 'gwops.yaml': 'manifests: [settings.yaml]\n', 'settings.yaml': `# settings\n${doc(kind, 'name: main\n')}` });
    const result = await loadManifests({ paths: [], cwd: dir, env: {} });
    const found = result.diagnostics;
    expect(found.map((d) => d.code)).toEqual(['singleton-name']);
    expect(found[0]).toMatchObject({ severity: 'error', file: 'settings.yaml', line: 4, column: 1 });
    expect(found[0]?.message).toContain(`remove 'name:'`);
  });

  it('refuses a second document of the kind at its line, naming the first one', async () => {
    const dir = project({ 'gwops.yaml': 'manifests: [a.yaml, b.yaml]\n', 'a.yaml': doc(kind), 'b.yaml': `# more\n---\n${doc(kind)}` });
    const result = await loadManifests({ paths: [], cwd: dir, env: {} });
    const found = result.diagnostics;
    expect(found.map((d) => d.code)).toEqual(['duplicate-object']);
    expect(found[0]).toMatchObject({ severity: 'error', file: 'b.yaml', line: 4 });
    expect(found[0]?.message).toContain('first at a.yaml:1:1');
    expect(found[0]?.message).toContain('singleton');
  });
});

describe('singleton manifest errors, generated', () => {
  it('a name, or a second document, of any singleton kind is reported at its own file and line, whatever comes before it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...SINGLETONS),
        fc.constantFrom('name', 'duplicate'),
        fc.constantFrom('settings.yaml', 'system/log settings.yml', 'a-b.yaml'),
        fc.nat({ max: 4 }),
        async (kind, mode, file, comments) => {
          const lead = '# a comment\n'.repeat(comments);
          const text = mode === 'name' ? `${lead}${doc(kind, 'name: x\n')}` : `${doc(kind)}---\n${lead}${doc(kind)}`;
          const dir = project({ 'gwops.yaml': `manifests: ['${file}']\n`, [file]: text });
          const result = await loadManifests({ paths: [], cwd: dir, env: {} });
          const [only, ...more] = result.diagnostics;
          expect(more).toEqual([]);
          expect(only).toMatchObject(
            mode === 'name'
              ? { code: 'singleton-name', file, line: comments + 3, column: 1 }
              : { code: 'duplicate-object', file, line: comments + 5 },
          );
        },
      ),
      { seed: 45, numRuns: 30 },
    );
  });
});
