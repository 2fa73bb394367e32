import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `route-ipv6-source`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'IPv6 source route',
  // No recording, and every attribute but the name is assumed
  // (docs/gateway-api.md "Hosts, routes and allowed network endpoints").
  defaults: { extra: { name: '', source: '', gateway: '' } },
};
