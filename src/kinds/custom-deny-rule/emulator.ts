import type { EmulatorHooks, JsonObject } from '../emulator-hooks.js';

const PATTERN: JsonObject = { enabled: false, name: '', pattern: '', caseIgnored: false, inverted: false, multipleSingleLineRegex: false };

/** The emulator's hooks for `custom-deny-rule`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'custom deny rule',
  // No recording: every pattern of the restrictions exists, disabled and empty, until set.
  defaults: {
    extra: {
      name: '',
      logOnly: false,
      restrictions: Object.fromEntries(
        ['httpMethodPattern', 'pathPattern', 'parameterNamePattern', 'parameterValuePattern', 'contentTypePattern', 'httpHeaderNamePattern', 'httpHeaderValuePattern'].map((k) => [k, PATTERN]),
      ),
    },
  },
  mappingUsage: { type: 'mapping-custom-deny-rule' },
};
