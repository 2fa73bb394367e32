import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `openapi-document`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'OpenAPI document',
  // No recording: the name is the only attribute (docs/gateway-api.md "OpenAPI and GraphQL documents").
  defaults: {
    extra: { name: '' },
  },
};
