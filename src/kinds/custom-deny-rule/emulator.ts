import type { EmulatorHooks, JsonObject } from '../emulator-hooks.js';
import { isObject } from '../values.js';

const PATTERN: JsonObject = { enabled: false, name: '', pattern: '', caseIgnored: false, inverted: false, multipleSingleLineRegex: false };

/**
 * `stored` with a generated name (`{pattern key}-{rule id}`, e.g. `pathPattern-12`) for
 * every pattern of `restrictions` that the write `given` names and that has an empty name
 * (docs/gateway-api.md "Deny rules": the gateway names a pattern written without one).
 */
function namePatterns(stored: Readonly<JsonObject>, given: Readonly<JsonObject>, id: string): JsonObject {
  const written = given.restrictions;
  const restrictions = stored.restrictions;
  if (!isObject(written) || !isObject(restrictions)) return { ...stored };
  const named: JsonObject = { ...restrictions };
  for (const key of Object.keys(written)) {
    const pattern = named[key];
    if (isObject(pattern) && (pattern.name === '' || pattern.name === undefined)) named[key] = { ...pattern, name: `${key}-${id}` };
  }
  return { ...stored, restrictions: named };
}

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
  completeWrite: namePatterns,
};
