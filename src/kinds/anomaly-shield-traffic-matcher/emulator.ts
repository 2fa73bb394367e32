import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `anomaly-shield-traffic-matcher`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'anomaly shield traffic matcher',
  // No recording: the name is the only attribute any source names (docs/gateway-api.md "Anomaly shield").
  defaults: { extra: { name: '' } },
};
