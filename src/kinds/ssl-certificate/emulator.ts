import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `ssl-certificate`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'SSL certificate',
  // No recording: every default is here (a certificate has no `name`).
  defaults: {
    extra: { certType: 'SERVER_CERT', certificate: '', certificateChain: [], rootCaCertificate: '' },
  },
};
