import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `log`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'log',
  // No recording from a real gateway (docs/gateway-api.md "Singletons").
  defaults: { extra: { level: 'INFO' } },
};
