import attributes from './attributes.schema.json' with { type: 'json' };
import { singletonIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `anomaly-shield`: whether the anomaly shield runs at all (docs/gateway-api.md "Singletons"). A singleton: one object per gateway at
 * `/configuration/anomaly-shield`, read and patched, never created nor deleted.
 */
export const anomalyShield = {
  type: 'anomaly-shield',
  attributes,
  description: 'The anomaly shield settings, one per gateway: a singleton document without name (docs/gateway-api.md "Singletons")',
  emulator,
  collection: 'anomaly-shield',
  singleton: { path: 'anomaly-shield' },
  level: 0,
  identity: singletonIdentity('anomaly-shield'),
  variants: ['earliest', 'middle', 'latest'],
  relationships: {},
} as const satisfies KindModule;
