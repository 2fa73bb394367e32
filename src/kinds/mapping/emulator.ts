import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `mapping`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'mapping',
};
