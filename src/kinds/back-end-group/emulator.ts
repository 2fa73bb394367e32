import type { EmulatorHooks, Emit, RuleContext, StoredObject, ValidatorRules } from '../emulator-hooks.js';
import { member } from '../emulator-hooks.js';

const TITLES = {
  BACKEND_GROUP_WITHOUT_HOSTS: 'Back-end group without hosts',
} as const;

/**
 * `BACKEND_GROUP_WITHOUT_HOSTS` (ERROR): `backendHosts` empty, or every entry has an empty
 * `hostName` (the server default of a new group).
 */
function check(groups: ReadonlyMap<string, StoredObject>, { label }: RuleContext, emit: Emit<keyof typeof TITLES>): void {
  for (const group of groups.values()) {
    const hosts = group.attributes.backendHosts;
    const hasHost =
      Array.isArray(hosts) && hosts.some((h) => typeof member(h, 'hostName') === 'string' && (member(h, 'hostName') as string).trim() !== '');
    if (!hasHost) emit('ERROR', 'BACKEND_GROUP_WITHOUT_HOSTS', group, `The ${label(group)} has no back-end host with a host name.`);
  }
}

const validator: ValidatorRules<keyof typeof TITLES> = { titles: TITLES, check };

/** The emulator's hooks for `back-end-group`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'back-end group',
  defaults: {
    recorded: 'back-end-group.yaml',
    extra: { name: '' },
  },
  validator,
};
