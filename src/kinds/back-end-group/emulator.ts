import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `back-end-group`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'back-end group',
};
