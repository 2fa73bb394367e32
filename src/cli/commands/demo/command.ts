import { EXIT } from '../../../core/exit-codes.js';
import type { CommandHelp } from '../../help.js';
import { INTERRUPTED, helpText } from '../../help.js';
import type { CliIO, CommandModule } from '../../io.js';
import { colorEnabled } from '../../color.js';

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

/** The CLI's entry point (src/cli/main.ts `main`), which the demo runs for each step. */
export type CliEntry = (argv: readonly string[], io: CliIO) => Promise<number>;

/**
 * Registers `gwops demo`: the whole story on an embedded emulator (see src/demo). The
 * program that registers it gives its own entry point (`run`), so that this command never
 * imports the program back.
 */
export const demoCommand = (run: CliEntry): CommandModule => (program, io, done) => {
  program
    .command('demo')
    .addHelpText('after', helpText(DEMO_HELP))
    .description('Run the example configuration against an embedded gateway emulator: plan, apply, drift, heal')
    .action(async () => {
      const { runDemo } = await import('../../../demo/index.js');
      // No progress lines: they would land between the steps' folded outputs.
      done(await runDemo(io, (argv, step) => run(argv, { ...io, ...step, progress: false }), colorEnabled(io)));
    });
};
