import attributes from './attributes.schema.json' with { type: 'json' };
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';
import { nodeIdentity } from './identity.js';

/**
 * `node`: one node of the gateway's cluster (docs/gateway-api.md "Nodes"). It has no `name`
 * attribute, so it is matched by its `hostName`; it presents one ssl-certificate through
 * `ssl-certificate` (to-one), which the certificate lists under `nodes` (added by the registry).
 */
export const node = {
  type: 'node',
  attributes,
  description: 'A node of the gateway cluster (docs/gateway-api.md "Nodes"); matched by its `hostName`: `name` is a local handle',
  emulator,
  collection: 'nodes',
  level: 0,
  identity: nodeIdentity,
  variants: ['earliest', 'middle', 'latest'],
  relationships: {
    'ssl-certificate': {
      name: 'ssl-certificate',
      target: 'ssl-certificate',
      cardinality: 'one',
      inverse: 'nodes',
      inverseCardinality: 'many',
      canonical: true,
      description: 'Local handle of the ssl-certificate the node presents (to-one; probably its management certificate)',
    },
  },
} as const satisfies KindModule;
