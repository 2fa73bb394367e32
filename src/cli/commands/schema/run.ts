/**
 * `gwops schema [kind]`: prints the JSON Schema the schema operation (src/operations/schema.ts)
 * gives, as pretty JSON.
 */
import { schemaDocument } from '../../../operations/schema.js';
import { EXIT } from '../../../core/exit-codes.js';
import type { CliIO } from '../../io.js';

/**
 * Writes the schema as pretty JSON to `io.stdout`.
 * @throws UsageError for a name that is not a kind, `project` or `manifest`
 */
export function runSchema(name: string | undefined, io: CliIO): number {
  io.stdout.write(JSON.stringify(schemaDocument(name), null, 2) + '\n');
  return EXIT.ok;
}
