import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `network-services`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'network services',
  // No recording and no attribute name known (docs/gateway-api.md "Singletons").
  defaults: { extra: {} },
};
