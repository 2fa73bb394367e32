import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `virtual-host`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'virtual host',
};
