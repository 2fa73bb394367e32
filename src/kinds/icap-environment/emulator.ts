import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `icap-environment`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'ICAP environment',
  // No recording; `failOpen` defaults to false (docs/gateway-api.md "Kerberos and ICAP
  // environments").
  defaults: { extra: { name: '', failOpen: false } },
};
