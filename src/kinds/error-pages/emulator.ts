import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `error-pages`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'error pages',
  // No recording and no attribute name known (docs/gateway-api.md "Singletons").
  defaults: { extra: {} },
};
