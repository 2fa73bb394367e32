import attributes from './attributes.schema.json' with { type: 'json' };
import { singletonIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `reporting`: the gateway's reporting settings (docs/gateway-api.md "Singletons"). A singleton: one object per gateway at
 * `/configuration/reporting`, read and patched, never created nor deleted. No source shows its
 * attribute names, so its schema holds none yet: a document declares the kind only, and
 * export lists what the gateway holds as unmanaged.
 */
export const reporting = {
  type: 'reporting',
  attributes,
  description: 'The reporting settings, one per gateway: a singleton document without name (docs/gateway-api.md "Singletons")',
  emulator,
  collection: 'reporting',
  singleton: { path: 'reporting' },
  level: 0,
  identity: singletonIdentity('reporting'),
  variants: ['earliest', 'middle', 'latest'],
  relationships: {},
} as const satisfies KindModule;
