import type { KindDefinition } from '../kind.js';
import { emulator } from './emulator.js';

/** `virtual-host`: docs/gateway-api.md "Resource types". */
export const virtualHost: KindDefinition = {
  type: 'virtual-host',
  emulator,
  collection: 'virtual-hosts',
  level: 2,
  identity: 'name',
  variants: ['earliest', 'middle', 'latest'],
  relationships: {
    mappings: { name: 'mappings', target: 'mapping', cardinality: 'many', inverse: 'virtual-hosts', canonical: true },
    'ssl-certificate': { name: 'ssl-certificate', target: 'ssl-certificate', cardinality: 'one', inverse: 'virtual-hosts', canonical: true },
    'acme-service': {
      name: 'acme-service',
      target: 'acme-service',
      cardinality: 'one',
      inverse: 'virtual-hosts',
      canonical: true,
      variants: ['latest'],
    },
  },
};
