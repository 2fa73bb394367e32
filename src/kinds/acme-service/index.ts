import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `acme-service`: an ACME certificate-authority account used by virtual hosts whose
 * `tls.certificateMode` is ACME_SERVICE (latest variant only, docs/gateway-api.md
 * "Variants").
 */
export const acmeService = {
  type: 'acme-service',
  attributes,
  description: 'An ACME service (latest variant)',
  emulator,
  collection: 'acme-services',
  level: 0,
  identity: nameIdentity,
  variants: ['latest'],
  relationships: {
    // The kind itself exists only in the latest variant, and so does this relationship.
    'virtual-hosts': {
      name: 'virtual-hosts',
      target: 'virtual-host',
      cardinality: 'many',
      inverse: 'acme-service',
      canonical: false,
      documented: false,
    },
  },
} as const satisfies KindModule;
