import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `reporting`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'reporting',
  // No recording and no attribute name known (docs/gateway-api.md "Singletons").
  defaults: { extra: {} },
};
