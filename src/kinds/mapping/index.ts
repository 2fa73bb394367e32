import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';
import { holdsSecret, rules } from './rules.js';

/** `mapping`: docs/gateway-api.md "Resource types"; relationships in "Relationships". */
export const mapping = {
  type: 'mapping',
  description: 'A mapping (docs/gateway-api.md "Resource types")',
  emulator,
  collection: 'mappings',
  level: 1,
  identity: nameIdentity,
  variants: ['earliest', 'middle', 'latest'],
  template: 'mapping-template',
  filterProperties: { label: ['labels'] },
  holdsSecret,
  rules,
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
    'openapi-document': { name: 'openapi-document', target: 'openapi-document', cardinality: 'one', inverse: 'mappings', canonical: true },
    'graphql-document': { name: 'graphql-document', target: 'graphql-document', cardinality: 'one', inverse: 'mappings', canonical: true },
  },
} as const satisfies KindModule;
