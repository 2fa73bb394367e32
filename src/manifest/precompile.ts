/**
 * Writes the precompiled validators of the document schemas (src/manifest/precompiled.ts):
 * ajv's standalone code of each kind's schema, as `dist/validators/<kind>.cjs`. Run by
 * `npm run build` after `tsc` (`node dist/manifest/precompile.js`).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { PRECOMPILED_DIR, precompiledFile, precompiledModule } from './precompiled.js';
import { documentAjv, documentSchemaId, documentSchemasDigest } from './schema-check.js';
import { SCHEMA_KINDS } from '../schema/index.js';
import type { SchemaKind } from '../schema/index.js';

/** The module text of every kind's precompiled validator, by kind. */
export function precompiledModules(): Map<SchemaKind, string> {
  const ajv = documentAjv(true);
  const digest = documentSchemasDigest();
  const modules = new Map<SchemaKind, string>();
  for (const kind of SCHEMA_KINDS) {
    const validate = ajv.getSchema(documentSchemaId(kind));
    if (!validate) throw new Error(`schema of ${kind} did not compile`);
    modules.set(kind, precompiledModule(standaloneCode.default(ajv, validate), digest));
  }
  return modules;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  rmSync(PRECOMPILED_DIR, { recursive: true, force: true });
  mkdirSync(PRECOMPILED_DIR, { recursive: true });
  for (const [kind, text] of precompiledModules()) writeFileSync(precompiledFile(kind), text);
}
