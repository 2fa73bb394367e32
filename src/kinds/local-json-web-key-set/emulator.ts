import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `local-json-web-key-set`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'local JSON web key set',
  // No recording: the defaults public clients record (docs/gateway-api.md "JSON web key sets").
  defaults: { extra: { name: '', issuer: '' } },
};
