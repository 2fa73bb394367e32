import type { KindDefinition } from '../kind.js';
import { emulator } from './emulator.js';

/** `mapping`: docs/gateway-api.md "Resource types"; relationships in "Relationships". */
export const mapping: KindDefinition = {
  type: 'mapping',
  emulator,
  collection: 'mappings',
  level: 1,
  identity: 'name',
  variants: ['earliest', 'middle', 'latest'],
  template: 'mapping-template',
  relationships: {
    'virtual-hosts': { name: 'virtual-hosts', target: 'virtual-host', cardinality: 'many', inverse: 'mappings', canonical: false },
    'back-end-groups': {
      name: 'back-end-groups',
      target: 'back-end-group',
      cardinality: 'many',
      inverse: 'mappings',
      canonical: true,
      aliases: ['back-end-group'],
    },
  },
};
