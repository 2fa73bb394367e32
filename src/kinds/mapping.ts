import type { KindDefinition } from './kind.js';

/** `mapping`: gateway-config-api.md "Resource: mapping"; relationships from real-clients.md. */
export const mapping: KindDefinition = {
  type: 'mapping',
  collection: 'mappings',
  level: 1,
  identity: 'name',
  variants: ['earliest', 'middle', 'latest'],
  relationships: {
    'virtual-hosts': { name: 'virtual-hosts', target: 'virtual-host', cardinality: 'many', inverse: 'mappings', canonical: false },
    'back-end-groups': { name: 'back-end-groups', target: 'back-end-group', cardinality: 'many', inverse: 'mappings', canonical: true },
  },
};
