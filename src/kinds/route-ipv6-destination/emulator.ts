import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `route-ipv6-destination`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'IPv6 destination route',
  // No recording, and every attribute but the name is assumed
  // (docs/gateway-api.md "Hosts, routes and allowed network endpoints").
  defaults: { extra: { name: '', destination: '', gateway: '' } },
};
