import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `local-json-web-key-set`: a JSON web key set stored on the gateway, which mappings use to
 * verify tokens (docs/gateway-api.md "JSON web key sets").
 */
export const localJsonWebKeySet = {
  type: 'local-json-web-key-set',
  attributes,
  description: 'A JSON web key set stored on the gateway (docs/gateway-api.md "JSON web key sets")',
  emulator,
  collection: 'json-web-key-sets/locals',
  level: 0,
  identity: nameIdentity,
  variants: ['earliest', 'middle', 'latest'],
  relationships: {
    mappings: { name: 'mappings', target: 'mapping', cardinality: 'many', inverse: 'local-json-web-key-sets', canonical: false },
  },
} as const satisfies KindModule;
