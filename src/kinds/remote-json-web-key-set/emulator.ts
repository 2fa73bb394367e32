import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `remote-json-web-key-set`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'remote JSON web key set',
  // No recording: the defaults public clients record (docs/gateway-api.md "JSON web key sets");
  // `url` is the emulator's own.
  defaults: {
    extra: {
      name: '',
      issuer: '',
      url: '',
      tls: { cipherSuite: 'DEFAULT', forceNewSession: false, protocol: 'DEFAULT', serverCertificateValidation: { enabled: false, verifyHost: true } },
    },
  },
};
