/**
 * `gwops schema [kind]`: prints the JSON Schema of a manifest kind, of the project file
 * (`project`), or with no argument the manifest schema that dispatches by `kind` (the one
 * the editor line `# yaml-language-server: $schema=...` names).
 */
import { UsageError } from '../../errors.js';
import { SCHEMA_KINDS } from '../../schema/index.js';
import { loadSchemaFile } from '../../schema/schema-files.js';
import { suggestion } from '../../manifest/schema-check.js';
import { EXIT } from '../../exit-codes.js';
import type { CliIO } from '../io.js';

/** Names `gwops schema` accepts: the document kinds plus `project` and `manifest`. */
export const SCHEMA_NAMES: readonly string[] = [...SCHEMA_KINDS, 'project', 'manifest'];

/**
 * Writes the schema as pretty JSON to `io.stdout`.
 * @throws UsageError for a name that is not a kind, `project` or `manifest`
 */
export function runSchema(name: string | undefined, io: CliIO): number {
  const chosen = name ?? 'manifest';
  if (!SCHEMA_NAMES.includes(chosen)) {
    throw new UsageError(`unknown schema '${chosen}'${suggestion(chosen, SCHEMA_NAMES)} (one of ${SCHEMA_NAMES.join(', ')})`);
  }
  io.stdout.write(JSON.stringify(loadSchemaFile(`${chosen}.schema.json`), null, 2) + '\n');
  return EXIT.ok;
}
