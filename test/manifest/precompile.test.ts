/**
 * The validators `npm run build` precompiles (src/manifest/precompile.ts) must judge every
 * document and project file as the validators compiled at run time do, and a file made
 * from other schemas must not be used.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import { PROJECT_FILE_VALIDATOR, precompiledFile, precompiledValidator } from '../../src/manifest/precompiled.js';
import { projectSchemaDigest } from '../../src/manifest/project.js';
import { PACKAGE_SCHEMA_OPTIONS, documentAjv, documentSchemaId, documentSchemasDigest } from '../../src/manifest/schema-check.js';
import { precompiledModules } from '../../src/manifest/precompile.js';
import { SCHEMA_KINDS, attributesSchema } from '../../src/schema/index.js';
import { loadSchemaFile } from '../../src/schema/schema-files.js';
import type { SchemaKind } from '../../src/schema/index.js';
import { isResourceType } from '../../src/kinds/index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// Inside the package, so that the standalone code's `require('ajv/dist/runtime/...')` resolves.
const dir = mkdtempSync(path.join(ROOT, 'node_modules', '.precompile-test-'));
const dirUrl = pathToFileURL(dir + path.sep);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const modules = precompiledModules();
for (const [kind, text] of modules) writeFileSync(precompiledFile(kind, dirUrl), text);
const compiled = documentAjv();

function yamlFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    return statSync(full).isDirectory() ? yamlFiles(full) : /\.ya?ml$/.test(name) ? [full] : [];
  });
}

/** Every document of the corpus and the examples, by kind. */
const documents = [...yamlFiles(path.join(ROOT, 'test/manifest/corpus')), ...yamlFiles(path.join(ROOT, 'examples'))].flatMap((file) =>
  parseAllDocuments(readFileSync(file, 'utf8')).flatMap((d) => {
    if (Array.isArray(d) || d.errors.length > 0) return [];
    let value: unknown;
    try {
      value = d.toJS({ maxAliasCount: -1 });
    } catch {
      return []; // an alias the corpus breaks on purpose
    }
    const kind = typeof value === 'object' && value !== null ? (value as { kind?: unknown }).kind : undefined;
    return typeof kind === 'string' && (SCHEMA_KINDS).includes(kind) ? [{ kind: kind, value }] : [];
  }),
);

function judge(kind: SchemaKind, value: unknown, precompiled: boolean): { valid: boolean; errors: unknown } {
  const validate = precompiled ? precompiledValidator(kind, documentSchemasDigest, dirUrl) : compiled.getSchema(documentSchemaId(kind));
  if (!validate) throw new Error(`no validator of ${kind}`);
  const valid = validate(structuredClone(value));
  return { valid, errors: validate.errors ?? null };
}

describe('precompiled validators', () => {
  it('are made for every document kind and the project file', () => {
    expect([...modules.keys()].sort()).toEqual([...SCHEMA_KINDS, PROJECT_FILE_VALIDATOR].sort());
  });

  it('judge project files as the compiled one does (property)', () => {
    const precompiled = precompiledValidator(PROJECT_FILE_VALIDATOR, projectSchemaDigest, dirUrl);
    const compiledProject = new Ajv2020.default(PACKAGE_SCHEMA_OPTIONS).compile(loadSchemaFile('project.schema.json'));
    if (!precompiled) throw new Error('no precompiled project file validator');
    const names = Object.keys((loadSchemaFile('project.schema.json').properties ?? {}));
    const project = fc.dictionary(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 4 })), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 });
    fc.assert(
      fc.property(project, (value) => {
        const valid = precompiled(structuredClone(value));
        const expected = compiledProject(structuredClone(value));
        expect({ valid, errors: precompiled.errors ?? null }).toEqual({ valid: expected, errors: compiledProject.errors ?? null });
      }),
      { numRuns: 300 },
    );
  });

  it('judge the documents of the corpus and the examples as the compiled ones do', () => {
    expect(documents.length).toBeGreaterThan(50);
    for (const { kind, value } of documents) expect(judge(kind, value, true)).toEqual(judge(kind, value, false));
  });

  it('judge documents with any attributes of their kind as the compiled ones do (property)', () => {
    const kinds = SCHEMA_KINDS.filter(isResourceType);
    const document = fc.constantFrom(...kinds).chain((kind) => {
      const names = Object.keys(attributesSchema(kind).properties ?? {});
      const key = names.length > 0 ? fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 5 })) : fc.string({ maxLength: 5 });
      return fc.record({ kind: fc.constant(kind), attributes: fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }) });
    });
    fc.assert(
      fc.property(document, ({ kind, attributes }) => {
        const value = { apiVersion: 'gwops/v1', kind, name: 'n', attributes };
        expect(judge(kind, value, true)).toEqual(judge(kind, value, false));
      }),
      { numRuns: 300 },
    );
  });

  it('are not used when made from other schemas', () => {
    const kind = SCHEMA_KINDS[0];
    if (kind === undefined) throw new Error('no kinds');
    expect(precompiledValidator(kind, () => 'another digest', dirUrl)).toBeUndefined();
    expect(precompiledValidator(kind, documentSchemasDigest, pathToFileURL(path.join(dir, 'missing') + path.sep))).toBeUndefined();
  });
});
