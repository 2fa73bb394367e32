import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `back-end-group`: docs/gateway-api.md "Attributes and server defaults" and
 * "Relationships"; its `client-certificate` is the ssl-certificate it presents to back ends
 * (mutual TLS), its `kerberos-environment` the Kerberos settings it uses towards them.
 */
export const backEndGroup = {
  type: 'back-end-group',
  attributes,
  description: 'A back-end group (docs/gateway-api.md "Attributes and server defaults")',
  emulator,
  collection: 'back-end-groups',
  level: 0,
  identity: nameIdentity,
  variants: ['earliest', 'middle', 'latest'],
  relationships: {
    'client-certificate': {
      name: 'client-certificate',
      target: 'ssl-certificate',
      cardinality: 'one',
      inverse: 'back-end-groups',
      canonical: true,
      description: 'Name of the ssl-certificate presented to the back ends (to-one)',
    },
    'kerberos-environment': {
      name: 'kerberos-environment',
      target: 'kerberos-environment',
      cardinality: 'one',
      inverse: 'back-end-groups',
      canonical: true,
      description: 'Name of the kerberos-environment the group uses for Kerberos credentials towards its back ends (to-one)',
    },
    mappings: { name: 'mappings', target: 'mapping', cardinality: 'many', inverse: 'back-end-groups', canonical: false },
  },
} as const satisfies KindModule;
