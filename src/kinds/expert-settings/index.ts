import attributes from './attributes.schema.json' with { type: 'json' };
import { singletonIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `expert-settings`: the gateway's global security-gate and Apache expert settings (docs/gateway-api.md "Singletons"). A singleton: one object per gateway at
 * `/configuration/expert-settings`, read and patched, never created nor deleted. No source shows its
 * attribute names, so its schema holds none yet: a document declares the kind only, and
 * export lists what the gateway holds as unmanaged.
 */
export const expertSettings = {
  type: 'expert-settings',
  attributes,
  description: 'The expert settings settings, one per gateway: a singleton document without name (docs/gateway-api.md "Singletons")',
  emulator,
  collection: 'expert-settings',
  singleton: { path: 'expert-settings' },
  level: 0,
  identity: singletonIdentity('expert-settings'),
  variants: ['earliest', 'middle', 'latest'],
  relationships: {},
} as const satisfies KindModule;
