import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `ip-address-list`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'IP address list',
  // No recording: every default is here.
  defaults: { extra: { name: '', ips: [] } },
};
