import type { CommandModule } from '../io.js';

/** Placeholder: registers `gwops schema` once implemented. */
export const registerSchema: CommandModule = (_program, _io, _done) => {};
