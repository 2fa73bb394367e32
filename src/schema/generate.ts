/**
 * The schema files made from the kind registry, so that a new kind needs only its module
 * folder (`src/kinds/<kind>/`, with its attribute schema) and its line in `KINDS`:
 * - `schemas/<kind>.schema.json` of every resource type, all of it: the document envelope,
 *   relationships and variants from the kind module, `$defs.attributes` from the
 *   hand-written `src/kinds/<kind>/attributes.schema.json`, and the shared `$defs` it refers
 *   to (src/schema/kind-schema.ts);
 * - `schemas/<template>.schema.json` of every template kind;
 * - `schemas/manifest.schema.json`, all of it: the `kind` enums and one `if`/`then` branch
 *   per document kind that dispatches to `schemas/<kind>.schema.json`, plus the overlay
 *   documents;
 * - the `ownership` properties of `schemas/project.schema.json`, one per resource type (the
 *   rest of that file is written by hand and kept as it is).
 *
 * `npm run schemas` writes them (`node dist/schema/generate.js --write`; without `--write`
 * it only reports the files that are out of date). All are 2-space JSON with a trailing
 * newline, keys in a fixed order, and `test/schema/generated.test.ts` fails when a
 * committed file differs from what {@link generatedSchemaFiles} makes.
 */
import { pathToFileURL } from 'node:url';
import { KINDS } from '../kinds/index.js';
import type { KindDefinition } from '../kinds/index.js';
import { documentKinds, schemaFileName } from './index.js';
import { schemaFileUrl } from './schema-files.js';
import type { JsonSchema } from './index.js';
import { SCHEMA_BASE, kindDocumentSchema, templateDocumentSchema } from './kind-schema.js';
import { committedText, runGenerator } from '../core/generated-files.js';
import type { GeneratedFile, GeneratedFolder } from '../core/generated-files.js';

export type { GeneratedFile } from '../core/generated-files.js';

export const MANIFEST_SCHEMA_FILE = 'manifest.schema.json';
export const PROJECT_SCHEMA_FILE = 'project.schema.json';

/** The command that regenerates the files, as named in messages. */
export const REGENERATE_COMMAND = 'npm run schemas';

/** The generated files of `schemas/`. */
export const SCHEMAS_FOLDER: GeneratedFolder = { dir: schemaFileUrl('./'), label: 'schemas', command: REGENERATE_COMMAND };

/** The text of a schema file: 2-space JSON with a trailing newline. */
export function schemaText(schema: JsonSchema): string {
  return JSON.stringify(schema, null, 2) + '\n';
}

/**
 * `schemas/manifest.schema.json` for the registry `kinds`: a document with `apiVersion` is
 * checked against the schema of its kind, one without is an overlay (a target's patch of a
 * base document).
 */
export function manifestSchema(kinds: readonly KindDefinition[]): JsonSchema {
  const documents = documentKinds(kinds);
  const templates = kinds.flatMap((k) => (k.template === undefined ? [] : [k.template]));
  const branch = (kind: string): JsonSchema => ({
    if: { required: ['apiVersion', 'kind'], properties: { kind: { const: kind } } },
    then: { $ref: schemaFileName(kind) },
  });
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${SCHEMA_BASE}${MANIFEST_SCHEMA_FILE}`,
    title: 'gwops manifest document',
    description:
      'Any gwops manifest document: dispatches by `kind` to schemas/<kind>.schema.json. A document without `apiVersion` is read as an overlay (a target\'s patch of a base document: JSON merge patch with attributes/relationships/extends, or RFC 6902 operations under `patch`). For editors: `# yaml-language-server: $schema=../schemas/manifest.schema.json`.',
    type: 'object',
    required: ['kind', 'name'],
    properties: {
      kind: {
        enum: documents,
        description: templates.length === 0 ? "The API's resource type" : `The API's resource type, or ${templates.join(', or ')}`,
      },
    },
    allOf: [...documents.map(branch), { if: { not: { required: ['apiVersion'] } }, then: { $ref: '#/$defs/overlay' } }],
    $defs: { overlay: overlaySchema(documents) },
  };
}

/** An overlay document of a target, for the document kinds `documents`. */
function overlaySchema(documents: readonly string[]): JsonSchema {
  return {
    description:
      'An overlay document of a target (gwops.yaml `targets.<name>.overlays`): merge patch (attributes, relationships, extends) or JSON Patch (patch), never both',
    type: 'object',
    additionalProperties: false,
    required: ['kind', 'name'],
    properties: {
      kind: { enum: [...documents] },
      name: { type: 'string', minLength: 1, description: 'The base document this overlay patches' },
      attributes: {
        type: 'object',
        description: "JSON merge patch (RFC 7386) of the base document's attributes; null removes a key",
      },
      relationships: { type: 'object', description: "JSON merge patch of the base document's relationships" },
      extends: { type: ['string', 'null'] },
      patch: {
        type: 'array',
        description:
          'RFC 6902 JSON Patch operations against the base document (paths under /attributes, /relationships or /extends)',
        items: {
          type: 'object',
          required: ['op', 'path'],
          properties: {
            op: { enum: ['add', 'remove', 'replace', 'move', 'copy', 'test'] },
            path: { type: 'string', pattern: '^/(attributes|relationships|extends)(/|$)' },
            from: { type: 'string' },
            value: {},
          },
          additionalProperties: false,
        },
      },
    },
    not: { required: ['patch', 'attributes'] },
  };
}

/**
 * `schemas/project.schema.json`: `handWritten` (the committed file) with the `ownership`
 * properties made from the registry `kinds`, one `#/$defs/filters` per resource type in the
 * order of {@link documentKinds}. Every other part, key order included, is kept.
 * @throws Error when `handWritten` has no `properties.ownership` or no `$defs.filters`
 */
export function projectSchema(handWritten: JsonSchema, kinds: readonly KindDefinition[]): JsonSchema {
  const schema = structuredClone(handWritten);
  const ownership = schema.properties?.ownership;
  if (!ownership) throw new Error(`schemas/${PROJECT_SCHEMA_FILE} has no properties.ownership`);
  if (!schema.$defs?.filters) throw new Error(`schemas/${PROJECT_SCHEMA_FILE} has no $defs.filters`);
  const types = new Set<string>(kinds.map((k) => k.type));
  ownership.properties = Object.fromEntries(
    documentKinds(kinds)
      .filter((kind) => types.has(kind))
      .map((type): [string, JsonSchema] => [type, { $ref: '#/$defs/filters' }]),
  );
  return schema;
}

/**
 * Every generated file for the registry `kinds`, given the committed project file's text
 * and the attribute schema of each resource type (pure: the caller reads and writes the
 * files). The document kinds come first, in the order of {@link documentKinds}.
 * @throws SyntaxError when `projectText` is not JSON; Error as {@link projectSchema} and
 *   `kindDocumentSchema` (src/schema/kind-schema.ts)
 */
export function generatedSchemaFiles(kinds: readonly KindDefinition[], projectText: string, attributesOf: (kind: KindDefinition) => JsonSchema): GeneratedFile[] {
  const documents = [...kinds].reverse().map((kind) => ({ fileName: schemaFileName(kind.type), text: schemaText(kindDocumentSchema(kind, attributesOf(kind))) }));
  const templates = kinds.flatMap((kind) => (kind.template === undefined ? [] : [{ fileName: schemaFileName(kind.template), text: schemaText(templateDocumentSchema(kind)) }]));
  return [
    ...documents,
    ...templates,
    { fileName: MANIFEST_SCHEMA_FILE, text: schemaText(manifestSchema(kinds)) },
    { fileName: PROJECT_SCHEMA_FILE, text: schemaText(projectSchema(JSON.parse(projectText) as JsonSchema, kinds)) },
  ];
}

/** The text of `schemas/<fileName>` as it is on disk now (not cached), or undefined when missing. */
export function committedSchemaText(fileName: string): string | undefined {
  return committedText(SCHEMAS_FOLDER, fileName);
}

/** The generated files for the registry (`KINDS`), the attribute schemas its modules carry and the project file on disk now. */
export function currentGeneratedFiles(): GeneratedFile[] {
  const projectText = committedSchemaText(PROJECT_SCHEMA_FILE);
  if (projectText === undefined) throw new Error(`schemas/${PROJECT_SCHEMA_FILE} is missing`);
  return generatedSchemaFiles(KINDS, projectText, (kind) => kind.attributes);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = await runGenerator(SCHEMAS_FOLDER, 'dist/schema/generate.js', currentGeneratedFiles, process.argv.slice(2));
