import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `api-policy-service`: the service a mapping asks to resolve API keys
 * (docs/gateway-api.md "API policy services"); its `sharedSecret` is write-only and
 * rotated through its secret source's `version`.
 */
export const apiPolicyService = {
  type: 'api-policy-service',
  attributes,
  description: 'An API policy service (docs/gateway-api.md "API policy services")',
  emulator,
  collection: 'api-policy-services',
  level: 0,
  identity: nameIdentity,
  variants: ['earliest', 'middle', 'latest'],
  relationships: {
    mappings: { name: 'mappings', target: 'mapping', cardinality: 'many', inverse: 'api-policy-service', canonical: false },
  },
} as const satisfies KindModule;
