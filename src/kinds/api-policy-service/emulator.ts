import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `api-policy-service`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'API policy service',
  // No recording; the endpoint's default is the one public clients record
  // (docs/gateway-api.md "API policy services").
  defaults: { extra: { name: '', endpoint: '/auth-api-policy-service/rest/resolve-tech-client' } },
};
