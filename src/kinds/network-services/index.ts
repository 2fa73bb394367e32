import attributes from './attributes.schema.json' with { type: 'json' };
import { singletonIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `network-services`: the gateway's network services (DNS, NTP, mail and the like) (docs/gateway-api.md "Singletons"). A singleton: one object per gateway at
 * `/configuration/network-services`, read and patched, never created nor deleted. No source shows its
 * attribute names, so its schema holds none yet: a document declares the kind only, and
 * export lists what the gateway holds as unmanaged.
 */
export const networkServices = {
  type: 'network-services',
  attributes,
  description: 'The network services settings, one per gateway: a singleton document without name (docs/gateway-api.md "Singletons")',
  emulator,
  collection: 'network-services',
  singleton: { path: 'network-services' },
  level: 0,
  identity: singletonIdentity('network-services'),
  variants: ['earliest', 'middle', 'latest'],
  relationships: {},
} as const satisfies KindModule;
