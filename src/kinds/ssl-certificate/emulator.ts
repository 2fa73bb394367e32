import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `ssl-certificate`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'SSL certificate',
};
