import attributes from './attributes.schema.json' with { type: 'json' };
import { singletonIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `error-pages`: the gateway's error page settings (the custom pages themselves, a zip content, are not managed yet) (docs/gateway-api.md "Singletons"). A singleton: one object per gateway at
 * `/configuration/error-pages`, read and patched, never created nor deleted. No source shows its
 * attribute names, so its schema holds none yet: a document declares the kind only, and
 * export lists what the gateway holds as unmanaged.
 */
export const errorPages = {
  type: 'error-pages',
  attributes,
  description: 'The error pages settings, one per gateway: a singleton document without name (docs/gateway-api.md "Singletons")',
  emulator,
  collection: 'error-pages',
  singleton: { path: 'error-pages' },
  level: 0,
  identity: singletonIdentity('error-pages'),
  variants: ['earliest', 'middle', 'latest'],
  relationships: {},
} as const satisfies KindModule;
