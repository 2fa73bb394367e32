/**
 * Writes the precompiled validators (src/manifest/precompiled.ts): ajv's standalone code of
 * each kind's schema and of the project file's, as `dist/validators/<name>.cjs`. Run by
 * `npm run build` after `tsc` (`node dist/manifest/precompile.js`).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { PRECOMPILED_DIR, PROJECT_FILE_VALIDATOR, precompiledFile, precompiledModule } from './precompiled.js';
import { PACKAGE_SCHEMA_OPTIONS, documentAjv, documentSchemaId, documentSchemasDigest, newAjv } from './schema-check.js';
import { projectSchemaDigest } from './project.js';
import { SCHEMA_KINDS } from '../schema/index.js';
import { loadSchemaFile } from '../schema/schema-files.js';

/** The module text of every precompiled validator, by name: each document kind's, and the project file's ({@link PROJECT_FILE_VALIDATOR}). */
export function precompiledModules(): Map<string, string> {
  const ajv = documentAjv(true);
  const digest = documentSchemasDigest();
  const modules = new Map<string, string>();
  for (const kind of SCHEMA_KINDS) {
    const validate = ajv.getSchema(documentSchemaId(kind));
    if (!validate) throw new Error(`schema of ${kind} did not compile`);
    modules.set(kind, precompiledModule(standaloneCode.default(ajv, validate), digest));
  }
  const projectAjv = newAjv({ ...PACKAGE_SCHEMA_OPTIONS, code: { source: true } });
  const project = projectAjv.compile(loadSchemaFile('project.schema.json'));
  modules.set(PROJECT_FILE_VALIDATOR, precompiledModule(standaloneCode.default(projectAjv, project), projectSchemaDigest()));
  return modules;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  rmSync(PRECOMPILED_DIR, { recursive: true, force: true });
  mkdirSync(PRECOMPILED_DIR, { recursive: true });
  for (const [kind, text] of precompiledModules()) writeFileSync(precompiledFile(kind), text);
}
