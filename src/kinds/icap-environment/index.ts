import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `icap-environment`: an ICAP server setup that mappings can send requests and responses
 * to for inspection (docs/gateway-api.md "Kerberos and ICAP environments"). Its links to
 * mappings, the four ICAP views, are declared on the mapping, which adds their inverses here.
 */
export const icapEnvironment = {
  type: 'icap-environment',
  attributes,
  description: 'An ICAP environment (docs/gateway-api.md "Kerberos and ICAP environments")',
  emulator,
  collection: 'icap-environments',
  level: 0,
  identity: nameIdentity,
  variants: ['earliest', 'middle', 'latest'],
  relationships: {},
} as const satisfies KindModule;
