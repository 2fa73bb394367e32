import type { EmulatorHooks } from '../emulator-hooks.js';

/** The emulator's hooks for `custom-deny-rule-group`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'custom deny rule group',
  // No recording: the name is the only attribute.
  defaults: { extra: { name: '' } },
  mappingUsage: { type: 'mapping-custom-deny-rule-group' },
};
