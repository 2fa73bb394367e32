/**
 * The use case `schema`: the JSON Schema of a manifest kind, of the project file
 * (`project`), or the manifest schema that dispatches by `kind` (`manifest`, the one the
 * editor line `# yaml-language-server: $schema=...` names).
 */
import { UsageError } from '../core/errors.js';
import { SCHEMA_KINDS } from '../schema/index.js';
import { loadSchemaFile } from '../schema/schema-files.js';
import { suggestion } from '../manifest/schema-check.js';

/** Names `gwops schema` accepts: the document kinds plus `project` and `manifest`. */
export const SCHEMA_NAMES: readonly string[] = [...SCHEMA_KINDS, 'project', 'manifest'];

/**
 * The schema named `name` (default `manifest`), as parsed JSON.
 * @throws UsageError for a name that is not a kind, `project` or `manifest` (with the closest name)
 */
export function schemaDocument(name: string | undefined): unknown {
  const chosen = name ?? 'manifest';
  if (!SCHEMA_NAMES.includes(chosen)) {
    throw new UsageError(`unknown schema '${chosen}'${suggestion(chosen, SCHEMA_NAMES)} (one of ${SCHEMA_NAMES.join(', ')})`);
  }
  return loadSchemaFile(`${chosen}.schema.json`);
}
