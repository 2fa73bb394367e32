import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `allowed-network-endpoint`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'allowed network endpoint',
  // No recording, and every attribute but the name is assumed
  // (docs/gateway-api.md "Hosts, routes and allowed network endpoints").
  defaults: { extra: { name: '', address: '', port: 0 } },
};
