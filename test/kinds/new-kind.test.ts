/**
 * What a new resource kind needs (CONTRIBUTING.md "Adding a resource kind"), stated as
 * checks over the registry, so that the list stays true:
 *
 * 1. its folder `src/kinds/<type>/`: the module (`index.ts`, with its emulator hooks and
 *    whatever hooks it needs), its hand-written attribute schema (`attributes.schema.json`,
 *    which the module imports as data) and its example object for the tests
 *    (`example.ts`); nothing else under src/ names it;
 * 2. its line in `KIND_MODULES` (src/kinds/index.ts), from which `ResourceType` is read;
 * 3. the generated files: `npm run generate` (its schema, its template's, the manifest and
 *    project schemas, the precompiled validators and its manifest reference section).
 *
 * Everything else (schemas, dispatch, ownership, docs, the walkthrough, the conformance
 * resources) follows from those, as the last test shows for a made-up kind, and
 * test/drills/scratch-kind.test.ts for a real one added to a copy of the repository.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import type { KindDefinition, ResourceType } from '../../src/kinds/index.js';
import { manifestReference } from '../../tools/docs/manifest-reference.js';
import { PROJECT_SCHEMA_FILE, committedSchemaText, generatedSchemaFiles } from '../../src/schema/generate.js';
import type { JsonSchema } from '../../src/schema/index.js';
import { KIND_EXAMPLES } from '../support/kind-examples.js';

const KINDS_DIR = new URL('../../src/kinds/', import.meta.url);

/** The kind folders: the directories of src/kinds/. */
const folders = readdirSync(KINDS_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe('what a new kind needs', () => {
  it('1. one folder per registered kind, named by its type, with its module and attribute schema; no other folder', () => {
    expect(folders).toEqual(KINDS.map((k) => k.type).sort());
    for (const kind of KINDS) {
      const files = readdirSync(new URL(`${kind.type}/`, KINDS_DIR));
      expect(files, kind.type).toEqual(expect.arrayContaining(['index.ts', 'attributes.schema.json', 'example.ts']));
      const source = JSON.parse(readFileSync(new URL(`${kind.type}/attributes.schema.json`, KINDS_DIR), 'utf8')) as JsonSchema;
      expect(source.type, kind.type).toBe('object');
      expect(kind.attributes, kind.type).toEqual(source);
    }
  });

  it('2. one line in the registry, importing the kind\'s folder', () => {
    const registry = readFileSync(new URL('index.ts', KINDS_DIR), 'utf8');
    for (const kind of KINDS) expect(registry).toContain(`from './${kind.type}/index.js'`);
    expect(registry.match(/from '\.\/[a-z0-9-]+\/index\.js'/g)).toHaveLength(KINDS.length);
  });

  it('1. one example per registered kind, in its folder', () => {
    expectTypeOf<keyof typeof KIND_EXAMPLES>().toEqualTypeOf<ResourceType>();
    expect(Object.keys(KIND_EXAMPLES).sort()).toEqual(KINDS.map((k) => k.type).sort());
  });

  it('3. nothing else: a kind added to the registry gets its schema, its template\'s, dispatch, ownership and docs from the generators', () => {
    const base = KINDS.find((k) => k.identity.byName);
    if (!base) throw new Error('no kind identified by name');
    const extra: KindDefinition = {
      ...base,
      type: 'made-up-environment' as ResourceType,
      description: 'A made-up environment',
      collection: 'made-up-environments',
      template: 'made-up-environment-template',
      relationships: {},
    };
    const attributes: JsonSchema = { type: 'object', additionalProperties: false, properties: { name: { type: 'string' }, ips: { type: 'array', items: { type: 'string' } } } };
    const projectText = committedSchemaText(PROJECT_SCHEMA_FILE) ?? '';
    const files = generatedSchemaFiles([...KINDS, extra], projectText, (k) => (k === extra ? attributes : (k.attributes)));
    const text = (name: string): string => files.find((f) => f.fileName === name)?.text ?? '';
    expect(JSON.parse(text('made-up-environment.schema.json'))).toMatchObject({ properties: { kind: { const: 'made-up-environment' } }, $defs: { attributes } });
    expect(JSON.parse(text('made-up-environment-template.schema.json'))).toMatchObject({ properties: { kind: { const: 'made-up-environment-template' } } });
    expect(text('manifest.schema.json')).toContain('"$ref": "made-up-environment.schema.json"');
    expect(Object.keys((JSON.parse(text(PROJECT_SCHEMA_FILE)) as JsonSchema).properties?.ownership?.properties ?? {})).toContain('made-up-environment');
    const schemaOf = (kind: string): JsonSchema => JSON.parse(text(`${kind}.schema.json`)) as JsonSchema;
    const reference = manifestReference([...KINDS, extra], schemaOf);
    expect(reference).toContain('## made-up-environment\n');
    expect(reference).toContain('## made-up-environment-template\n');
  });
});
