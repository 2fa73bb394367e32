import type { RelationshipDefinition } from '../kind.js';

/** The relationships of a virtual host (docs/gateway-api.md "Relationships"); its rules read them too. */
export const relationships = {
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
} as const satisfies Readonly<Record<string, RelationshipDefinition<string>>>;
