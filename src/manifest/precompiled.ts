/**
 * Validators of the document schemas compiled by `npm run build` (src/manifest/precompile.ts
 * writes them as CommonJS modules of ajv's standalone code, next to the compiled package:
 * `dist/validators/<kind>.cjs`), so that a run loads the code instead of compiling the
 * schemas. Each file records the digest of what it was made from; a file made from other
 * schemas (or missing, as when running from the sources) is not used.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import type { SchemaKind } from '../schema/index.js';

/** Where the precompiled validators are: `validators/` beside this module's folder (`dist/validators/`). */
export const PRECOMPILED_DIR = new URL('../validators/', import.meta.url);

/** The file of a kind's precompiled validator (in `dir`, a folder URL). */
export const precompiledFile = (kind: SchemaKind, dir: URL = PRECOMPILED_DIR): string => fileURLToPath(new URL(`${kind}.cjs`, dir));

/**
 * The module text of a precompiled validator: ajv's standalone code (which exports the
 * function) and the digest it was made from.
 */
export function precompiledModule(standaloneCode: string, digest: string): string {
  return `${standaloneCode}\nmodule.exports.gwopsDigest = ${JSON.stringify(digest)};\n`;
}

/**
 * The precompiled validator of a kind, or undefined when there is none or it was made from
 * other schemas than those of `digest` (called only when a file is there).
 */
export function precompiledValidator(kind: SchemaKind, digest: () => string, dir: URL = PRECOMPILED_DIR): ValidateFunction | undefined {
  const file = precompiledFile(kind, dir);
  if (!existsSync(file)) return undefined;
  const loaded = createRequire(import.meta.url)(file) as (ValidateFunction & { gwopsDigest?: unknown }) | undefined;
  return typeof loaded === 'function' && loaded.gwopsDigest === digest() ? loaded : undefined;
}
