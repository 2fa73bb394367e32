import { SCHEMA_KINDS } from '../../schema/index.js';
import type { CliIO, CommandModule } from '../io.js';

/** Registers `gwops schema`. */
export const registerSchema: CommandModule = (program, io: CliIO, done) => {
  program
    .command('schema')
    .description('Print the JSON Schema of a manifest kind, of the project file, or (default) of any manifest document')
    .argument('[kind]', `one of ${[...SCHEMA_KINDS, 'project', 'manifest'].join(', ')}`)
    .action(async (kind: string | undefined) => {
      const { runSchema } = await import('./schema-run.js');
      done(runSchema(kind, io));
    });
};
