import attributes from './attributes.schema.json' with { type: 'json' };
import { singletonIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `route-default`: the gateway's default IPv4 route (docs/gateway-api.md "Singletons"). A singleton: one object per gateway at
 * `/configuration/routes/default`, read and patched, never created nor deleted.
 */
export const routeDefault = {
  type: 'route-default',
  attributes,
  description: 'The default route settings, one per gateway: a singleton document without name (docs/gateway-api.md "Singletons")',
  emulator,
  collection: 'routes/default',
  singleton: { path: 'routes/default' },
  level: 0,
  identity: singletonIdentity('route-default'),
  variants: ['earliest', 'middle', 'latest'],
  relationships: {},
} as const satisfies KindModule;
