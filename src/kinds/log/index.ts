import attributes from './attributes.schema.json' with { type: 'json' };
import { singletonIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `log`: the gateway's log settings (docs/gateway-api.md "Singletons"). A singleton: one object per gateway at
 * `/configuration/log`, read and patched, never created nor deleted.
 */
export const log = {
  type: 'log',
  attributes,
  description: 'The log settings, one per gateway: a singleton document without name (docs/gateway-api.md "Singletons")',
  emulator,
  collection: 'log',
  singleton: { path: 'log' },
  level: 0,
  identity: singletonIdentity('log'),
  variants: ['earliest', 'middle', 'latest'],
  relationships: {},
} as const satisfies KindModule;
