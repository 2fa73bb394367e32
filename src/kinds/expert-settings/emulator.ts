import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `expert-settings`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'expert settings',
  // No recording and no attribute name known (docs/gateway-api.md "Singletons").
  defaults: { extra: {} },
};
