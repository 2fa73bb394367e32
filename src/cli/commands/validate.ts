import type { CommandModule } from '../io.js';

/** Placeholder: registers `gwops validate` once implemented. */
export const registerValidate: CommandModule = (_program, _io, _done) => {};
