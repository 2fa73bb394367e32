import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `kerberos-environment`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'Kerberos environment',
  // No recording, and no attribute but the name is known
  // (docs/gateway-api.md "Kerberos and ICAP environments").
  defaults: { extra: { name: '' } },
};
