import attributes from './attributes.schema.json' with { type: 'json' };
import { singletonIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `session`: the gateway's session settings (docs/gateway-api.md "Singletons"). A singleton: one object per gateway at
 * `/configuration/session`, read and patched, never created nor deleted. No source shows its
 * attribute names, so its schema holds none yet: a document declares the kind only, and
 * export lists what the gateway holds as unmanaged.
 */
export const session = {
  type: 'session',
  attributes,
  description: 'The session settings, one per gateway: a singleton document without name (docs/gateway-api.md "Singletons")',
  emulator,
  collection: 'session',
  singleton: { path: 'session' },
  level: 0,
  identity: singletonIdentity('session'),
  variants: ['earliest', 'middle', 'latest'],
  relationships: {},
} as const satisfies KindModule;
