/**
 * The schema files of the package, `schemas/*.schema.json`, read from disk: the written-out
 * copies of the kinds' document schemas (src/schema/index.ts makes the same ones in
 * memory), `manifest.schema.json` and `project.schema.json` (partly hand-written). Only
 * what reads the package's files uses this module; the engine never does.
 */
import { fileURLToPath } from 'node:url';
import { FILE_LIMITS, readTextBounded } from '../core/files.js';
import type { JsonSchema } from './index.js';

const SCHEMA_DIR = new URL('../../schemas/', import.meta.url);
const cache = new Map<string, JsonSchema>();

/** Absolute file URL of a schema file in `schemas/`. */
export function schemaFileUrl(fileName: string): URL {
  return new URL(fileName, SCHEMA_DIR);
}

/**
 * The schema file `schemas/<fileName>`, parsed once and cached. Callers must not mutate it.
 * @throws Error when the file is missing or not JSON (a packaging error).
 */
export function loadSchemaFile(fileName: string): JsonSchema {
  let schema = cache.get(fileName);
  if (!schema) {
    schema = JSON.parse(readTextBounded(fileURLToPath(schemaFileUrl(fileName)), FILE_LIMITS.bundled)) as JsonSchema;
    cache.set(fileName, schema);
  }
  return schema;
}
