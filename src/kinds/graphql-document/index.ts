import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `graphql-document`: a GraphQL schema that mappings enforce (docs/gateway-api.md "OpenAPI
 * and GraphQL documents"). Its only attribute is `name`; the schema itself is the
 * document's content sub-resource, not an attribute.
 */
export const graphqlDocument = {
  type: 'graphql-document',
  attributes,
  description: 'A GraphQL document (docs/gateway-api.md "OpenAPI and GraphQL documents")',
  emulator,
  collection: 'api-security/graphql-documents',
  level: 0,
  identity: nameIdentity,
  content: true,
  contentExtension: () => 'graphql',
  variants: ['earliest', 'middle', 'latest'],
  relationships: {
    mappings: { name: 'mappings', target: 'mapping', cardinality: 'many', inverse: 'graphql-document', canonical: false },
  },
} as const satisfies KindModule;
