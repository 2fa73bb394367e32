import type { CommandModule } from '../io.js';

/** Placeholder: registers `gwops demo` once implemented. */
export const registerDemo: CommandModule = (_program, _io, _done) => {};
