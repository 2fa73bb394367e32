import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `dynamic-ip-address-blacklist`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'dynamic IP address blacklist',
  // No recording and no attribute name known (docs/gateway-api.md "Singletons").
  defaults: { extra: {} },
};
