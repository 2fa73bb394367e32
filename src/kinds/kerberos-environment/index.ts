import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `kerberos-environment`: the Kerberos realm settings a back-end group uses to pass
 * Kerberos credentials to its back ends (docs/gateway-api.md "Kerberos and ICAP
 * environments"). No source names an attribute besides `name`, so gwops manages its name
 * and its links only; the link is declared on the back-end group (`kerberos-environment`).
 */
export const kerberosEnvironment = {
  type: 'kerberos-environment',
  attributes,
  description: 'A Kerberos environment (docs/gateway-api.md "Kerberos and ICAP environments")',
  emulator,
  collection: 'kerberos-environments',
  level: 0,
  identity: nameIdentity,
  variants: ['earliest', 'middle', 'latest'],
  relationships: {
    'back-end-groups': {
      name: 'back-end-groups',
      target: 'back-end-group',
      cardinality: 'many',
      inverse: 'kerberos-environment',
      canonical: false,
      // One client library reads the GET key in the singular.
      aliases: ['back-end-group'],
      description: 'Names of the back-end groups that use this environment',
    },
  },
} as const satisfies KindModule;
