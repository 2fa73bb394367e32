/**
 * Validators of the package's schemas compiled by `npm run build` (src/manifest/precompile.ts
 * writes them as CommonJS modules of ajv's standalone code, next to the compiled package:
 * `dist/validators/<kind>.cjs` for the document kinds, `dist/validators/project-file.cjs`
 * for `gwops.yaml`), so that a run loads the code instead of compiling the schemas. Each
 * file records the digest of what it was made from; a file made from other schemas (or
 * missing, as when running from the sources) is not used.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';

/** Where the precompiled validators are: `validators/` beside this module's folder (`dist/validators/`). */
export const PRECOMPILED_DIR = new URL('../validators/', import.meta.url);

/** The name of the project file's precompiled validator (document kinds go by their kind). */
export const PROJECT_FILE_VALIDATOR = 'project-file' as const;

/** The file of a precompiled validator (a kind, or {@link PROJECT_FILE_VALIDATOR}) in `dir`, a folder URL. */
export const precompiledFile = (name: string, dir: URL = PRECOMPILED_DIR): string => fileURLToPath(new URL(`${name}.cjs`, dir));

/**
 * What a validator is compiled from (ajv's version, its options, the schemas), as a SHA-256
 * hex digest: a precompiled validator is used only when it was made from the same.
 */
export function validatorDigest(options: object, schemas: readonly unknown[]): string {
  const ajv = (createRequire(import.meta.url)('ajv/package.json') as { version: string }).version;
  return createHash('sha256').update(JSON.stringify({ ajv, options, schemas })).digest('hex');
}

/**
 * The module text of a precompiled validator: ajv's standalone code (which exports the
 * function) and the digest it was made from.
 */
export function precompiledModule(standaloneCode: string, digest: string): string {
  return `${standaloneCode}\nmodule.exports.gwopsDigest = ${JSON.stringify(digest)};\n`;
}

/**
 * The precompiled validator of `name`, or undefined when there is none or it was made from
 * other schemas than those of `digest` (called only when a file is there).
 */
export function precompiledValidator(name: string, digest: () => string, dir: URL = PRECOMPILED_DIR): ValidateFunction | undefined {
  const file = precompiledFile(name, dir);
  if (!existsSync(file)) return undefined;
  const loaded = createRequire(import.meta.url)(file) as (ValidateFunction & { gwopsDigest?: unknown }) | undefined;
  return typeof loaded === 'function' && loaded.gwopsDigest === digest() ? loaded : undefined;
}
