import { EXIT } from '../../../exit-codes.js';
import type { CommandHelp } from '../../help.js';
import { INTERRUPTED, helpText } from '../../help.js';
import type { CommandModule } from '../../io.js';

/** The examples and exit codes of `gwops demo --help`. */
export const DEMO_HELP: CommandHelp = {
  examples: [
    { run: 'gwops demo', does: 'validate, plan, apply, drift and heal the example configuration on an embedded emulator' },
    { run: 'NO_COLOR=1 gwops demo > demo.txt', does: 'the same story without colours, into a file' },
  ],
  exitCodes: [
    [EXIT.ok, 'every step ended with the exit code it should'],
    [EXIT.error, 'a step ended otherwise, or a usage error'],
    ...INTERRUPTED,
  ],
};

/** Registers `gwops demo`: the whole story on an embedded emulator (see src/demo). */
export const registerDemo: CommandModule = (program, io, done) => {
  program
    .command('demo')
    .addHelpText('after', helpText(DEMO_HELP))
    .description('Run the example configuration against an embedded gateway emulator: plan, apply, drift, heal')
    .action(async () => {
      const [{ runDemo }, { main }] = await Promise.all([import('../../../demo/index.js'), import('../../main.js')]);
      done(await runDemo(io, main));
    });
};
