import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `session`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'session',
  // No recording and no attribute name known (docs/gateway-api.md "Singletons").
  defaults: { extra: {} },
};
