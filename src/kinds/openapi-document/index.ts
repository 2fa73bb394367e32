import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/** True when `data` is UTF-8 text that parses as JSON. */
function isJsonText(data: Uint8Array): boolean {
  try {
    JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(data));
    return true;
  } catch {
    return false;
  }
}

/**
 * `openapi-document`: an OpenAPI specification that mappings enforce (docs/gateway-api.md
 * "OpenAPI and GraphQL documents"). Its only attribute is `name`; the specification itself
 * is the document's content sub-resource, not an attribute.
 */
export const openapiDocument = {
  type: 'openapi-document',
  attributes,
  description: 'An OpenAPI document (docs/gateway-api.md "OpenAPI and GraphQL documents")',
  emulator,
  collection: 'api-security/openapi-documents',
  level: 0,
  identity: nameIdentity,
  content: true,
  // An OpenAPI specification is JSON or YAML.
  contentExtension: (data) => (isJsonText(data) ? 'json' : 'yaml'),
  variants: ['earliest', 'middle', 'latest'],
  relationships: {
    mappings: { name: 'mappings', target: 'mapping', cardinality: 'many', inverse: 'openapi-document', canonical: false },
  },
} as const satisfies KindModule;
