import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `host`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'host',
  // No recording, and every attribute but the name is assumed
  // (docs/gateway-api.md "Hosts, routes and allowed network endpoints").
  defaults: { extra: { name: '', hostName: '', ipAddress: '', aliases: [] } },
};
