import { Option } from 'commander';
import { EXIT } from '../../../core/exit-codes.js';
import type { CommandHelp } from '../../help.js';
import { INTERRUPTED, helpText } from '../../help.js';
import type { CliIO, CommandModule } from '../../io.js';
import type { DoctorFlags } from './run.js';
import { addConnectionOptions } from '../reconcile/command.js';

/** The examples and exit codes of `gwops doctor --help`. */
export const DOCTOR_HELP: CommandHelp = {
  examples: [
    { run: 'gwops doctor --target prod', does: "the gateway's version and variant, whether the key may write, every kind's collection, and how its own API description differs from gwops's schemas" },
    { run: 'gwops doctor --url https://gw:443/airlock/rest --format markdown', does: 'the same report as markdown, for a job summary or an issue' },
  ],
  exitCodes: [
    [EXIT.ok, 'gwops fits the gateway: every collection answers, and gwops sends no attribute the gateway does not describe'],
    [
      EXIT.error,
      "a problem: a collection that does not answer, an attribute gwops would send that the gateway's description does not know or types differently, " +
        'a declared variant the version contradicts; or an error: the gateway could not be reached, a bad project file, or a usage error',
    ],
    ...INTERRUPTED,
  ],
};

/** Registers `gwops doctor`. */
export const registerDoctor: CommandModule = (program, io: CliIO, done) => {
  addConnectionOptions(
    program
      .command('doctor')
      .addHelpText('after', helpText(DOCTOR_HELP))
      .description("Check a gateway against gwops: version and variant, write access, every kind's collection, and its own API description against gwops's schemas (read-only)"),
  )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'markdown', 'json']).default('text'))
    .action(async (flags: DoctorFlags) => {
      const { doctorAction } = await import('./run.js');
      done(await doctorAction(flags, io));
    });
};
