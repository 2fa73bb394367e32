import type { CommandModule } from '../io.js';

/** Registers `gwops demo`: the whole story on an embedded emulator (see src/demo). */
export const registerDemo: CommandModule = (program, io, done) => {
  program
    .command('demo')
    .description('Run the example configuration against an embedded gateway emulator: plan, apply, drift, heal')
    .action(async () => {
      const [{ runDemo }, { main }] = await Promise.all([import('../../demo/index.js'), import('../main.js')]);
      done(await runDemo(io, main));
    });
};
