import type { CommandModule } from '../io.js';

/** Placeholder: registers `gwops emulator` once implemented. */
export const registerEmulator: CommandModule = (_program, _io, _done) => {};
