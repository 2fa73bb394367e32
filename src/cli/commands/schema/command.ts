import { SCHEMA_KINDS } from '../../../schema/index.js';
import { EXIT } from '../../../core/exit-codes.js';
import type { CommandHelp } from '../../help.js';
import { helpText } from '../../help.js';
import type { CliIO, CommandModule } from '../../io.js';

/** The examples and exit codes of `gwops schema --help`. */
export const SCHEMA_HELP: CommandHelp = {
  examples: [
    { run: 'gwops schema mapping', does: 'the JSON Schema of a mapping manifest' },
    { run: 'gwops schema > gwops.schema.json', does: 'the schema of any manifest document, e.g. for an editor' },
  ],
  exitCodes: [
    [EXIT.ok, 'the schema was printed'],
    [EXIT.error, 'no schema of that name, or a usage error'],
  ],
};

/** Registers `gwops schema`. */
export const registerSchema: CommandModule = (program, io: CliIO, done) => {
  program
    .command('schema')
    .addHelpText('after', helpText(SCHEMA_HELP))
    .description('Print the JSON Schema of a manifest kind, of the project file, or (default) of any manifest document')
    .argument('[kind]', `one of ${[...SCHEMA_KINDS, 'project', 'manifest'].join(', ')}`)
    .action(async (kind: string | undefined) => {
      const { runSchema } = await import('./run.js');
      done(runSchema(kind, io));
    });
};
