import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `remote-json-web-key-set`: a JSON web key set the gateway fetches from `url` and keeps
 * current itself, which mappings use to verify tokens; `client-certificate` is the
 * ssl-certificate it presents to that server (docs/gateway-api.md "JSON web key sets").
 */
export const remoteJsonWebKeySet = {
  type: 'remote-json-web-key-set',
  attributes,
  description: 'A JSON web key set the gateway fetches from a URL (docs/gateway-api.md "JSON web key sets")',
  emulator,
  collection: 'json-web-key-sets/remotes',
  level: 0,
  identity: nameIdentity,
  variants: ['earliest', 'middle', 'latest'],
  relationships: {
    'client-certificate': {
      name: 'client-certificate',
      target: 'ssl-certificate',
      cardinality: 'one',
      inverse: 'remote-json-web-key-sets',
      canonical: true,
      description: 'Name of the ssl-certificate presented to the key set\'s server (to-one)',
    },
    mappings: { name: 'mappings', target: 'mapping', cardinality: 'many', inverse: 'remote-json-web-key-sets', canonical: false },
  },
} as const satisfies KindModule;
