import type { KindDefinition } from './kind.js';

/** `back-end-group`: real-clients.md "Attributes the reference does not list". */
export const backEndGroup: KindDefinition = {
  type: 'back-end-group',
  collection: 'back-end-groups',
  level: 0,
  identity: 'name',
  variants: ['earliest', 'middle', 'latest'],
  relationships: {
    mappings: { name: 'mappings', target: 'mapping', cardinality: 'many', inverse: 'back-end-groups', canonical: false },
  },
};
