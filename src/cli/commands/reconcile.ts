import type { CommandModule } from '../io.js';

/** Placeholder: registers `gwops reconcile` once implemented. */
export const registerReconcile: CommandModule = (_program, _io, _done) => {};
