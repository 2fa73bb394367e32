/**
 * The generated parts of `schemas/` (src/schema/generate.ts): the committed files are the
 * generator's output byte for byte, and they follow the kind registry.
 */
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import type { KindDefinition, ResourceType } from '../../src/kinds/index.js';
import {
  MANIFEST_SCHEMA_FILE,
  PROJECT_SCHEMA_FILE,
  SCHEMAS_FOLDER,
  committedSchemaText,
  currentGeneratedFiles,
  generatedSchemaFiles,
  manifestSchema,
  projectSchema,
} from '../../src/schema/generate.js';
import { SCHEMA_KINDS } from '../../src/schema/index.js';
import { stalenessProblem } from '../../src/core/generated-files.js';
import type { JsonSchema } from '../../src/schema/index.js';

const projectText = (): string => {
  const text = committedSchemaText(PROJECT_SCHEMA_FILE);
  if (text === undefined) throw new Error(`schemas/${PROJECT_SCHEMA_FILE} is missing`);
  return text;
};

/** The attribute schema each kind module carries. */
const attributesOf = (kind: KindDefinition): JsonSchema => kind.attributes;

/** A made-up kind added to the registry, with a template kind. */
const base = KINDS[0];
if (!base) throw new Error('the registry is empty');
const extra: KindDefinition = { ...base, type: 'new-kind' as ResourceType, collection: 'new-kinds', template: 'new-kind-template' };

describe('generated schema files', () => {
  it.each(currentGeneratedFiles().map((f) => [f.fileName, f] as const))('schemas/%s is the generator\'s output', (_fileName, file) => {
    const problem = stalenessProblem(SCHEMAS_FOLDER, file, 'the hand-written parts');
    expect(problem === undefined, problem).toBe(true);
  });

  it('lists every document kind of the registry in the manifest schema', () => {
    const schema = manifestSchema(KINDS);
    expect(schema.properties?.kind?.enum).toEqual(SCHEMA_KINDS);
    expect(schema.$defs?.overlay?.properties?.kind?.enum).toEqual(SCHEMA_KINDS);
    const branches = (schema.allOf ?? []) as JsonSchema[];
    expect(branches.map((b) => (b.then as JsonSchema | undefined)?.$ref)).toEqual([...SCHEMA_KINDS.map((k) => `${k}.schema.json`), '#/$defs/overlay']);
  });

  it('gives every resource type, and no template, an ownership entry in the project schema', () => {
    const schema = projectSchema(JSON.parse(projectText()) as JsonSchema, KINDS);
    expect(Object.keys(schema.properties?.ownership?.properties ?? {}).sort()).toEqual(KINDS.map((k) => k.type).sort());
  });

  it('a kind added to the registry appears in both files, its template only in the manifest schema', () => {
    const manifest = manifestSchema([...KINDS, extra]);
    expect(manifest.properties?.kind?.enum).toContain('new-kind');
    expect(manifest.properties?.kind?.enum).toContain('new-kind-template');
    expect(JSON.stringify(manifest.allOf)).toContain('"$ref":"new-kind.schema.json"');
    expect(JSON.stringify(manifest.allOf)).toContain('"$ref":"new-kind-template.schema.json"');
    const ownership = projectSchema(JSON.parse(projectText()) as JsonSchema, [...KINDS, extra]).properties?.ownership?.properties;
    expect(Object.keys(ownership ?? {})).toContain('new-kind');
    expect(Object.keys(ownership ?? {})).not.toContain('new-kind-template');
  });

  it('is pure: the same text twice, the hand-written project schema left as it was', () => {
    const text = projectText();
    const handWritten = JSON.parse(text) as JsonSchema;
    const before = JSON.stringify(handWritten);
    projectSchema(handWritten, [...KINDS, extra]);
    expect(JSON.stringify(handWritten)).toBe(before);
    expect(generatedSchemaFiles(KINDS, text, attributesOf)).toEqual(generatedSchemaFiles(KINDS, text, attributesOf));
    expect(generatedSchemaFiles(KINDS, text, attributesOf).map((f) => f.fileName)).toEqual([
      ...SCHEMA_KINDS.map((k) => `${k}.schema.json`),
      MANIFEST_SCHEMA_FILE,
      PROJECT_SCHEMA_FILE,
    ]);
  });

  it('writes 2-space JSON with a trailing newline', () => {
    for (const file of generatedSchemaFiles(KINDS, projectText(), attributesOf)) {
      expect(file.text, file.fileName).toBe(JSON.stringify(JSON.parse(file.text), null, 2) + '\n');
    }
  });
});
