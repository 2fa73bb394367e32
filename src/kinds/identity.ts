/**
 * The identity of every kind whose objects carry a `name` attribute: the name is the
 * identity on the gateway (docs/architecture.md "Decisions": identity is the name).
 */
import type { IdentityHooks } from './kind.js';

export const nameIdentity: IdentityHooks = {
  byName: true,
  attributes: ['name'],
  ignoredInDiff: [],
  declared: () => undefined,
  live: (attributes) => {
    const name = attributes.name;
    return { name: typeof name === 'string' && name !== '' ? name : undefined };
  },
  lookup: (name) => ({ name }),
  deleteWhenOrphaned: false,
};
