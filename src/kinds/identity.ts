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

/**
 * The identity of a singleton kind (KindDefinition `singleton`): the one object of the kind
 * on a gateway, named by the kind's type in the state model (a manifest document of it has
 * no name). Never looked up by name, never deleted.
 */
export function singletonIdentity(type: string): IdentityHooks {
  return {
    byName: false,
    attributes: [],
    ignoredInDiff: [],
    declared: () => undefined,
    live: () => ({ name: type }),
    lookup: () => ({ matches: () => true }),
    deleteWhenOrphaned: false,
  };
}
