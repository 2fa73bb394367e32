import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `anomaly-shield`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'anomaly shield',
  // No recording from a real gateway (docs/gateway-api.md "Singletons").
  defaults: { extra: { enabled: false } },
};
