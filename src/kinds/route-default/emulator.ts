import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `route-default`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'default route',
  // No recording from a real gateway (docs/gateway-api.md "Singletons").
  defaults: { extra: { ipv4: { gateway: '' } } },
};
