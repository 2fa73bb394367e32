import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `acme-service`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'ACME service',
  // No recording: every default is here.
  defaults: {
    extra: {
      name: '',
      tenant: '',
      serverUrl: '',
      contactEmailAddress: '',
      termsOfServiceAccepted: false,
      externalAccountBinding: { enabled: false, keyId: '' },
    },
  },
};
