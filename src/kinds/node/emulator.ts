import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `node`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'node',
  // No recording: the host name is the only attribute any source names (docs/gateway-api.md "Nodes").
  defaults: { extra: { hostName: '' } },
  // `nodes/current`: the node the emulator answers as (docs/gateway-api.md "License and nodes").
  servesCurrent: true,
};
