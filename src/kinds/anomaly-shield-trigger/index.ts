import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `anomaly-shield-trigger`: a condition an anomaly shield rule acts on (docs/gateway-api.md "Anomaly
 * shield"). Its only known attribute is `name`; it no relationship of its own is known; the rules that use it are declared on the rule.
 */
export const anomalyShieldTrigger = {
  type: 'anomaly-shield-trigger',
  attributes,
  description: 'An anomaly shield trigger (docs/gateway-api.md "Anomaly shield")',
  emulator,
  collection: 'anomaly-shield-triggers',
  level: 0,
  identity: nameIdentity,
  variants: ['earliest', 'middle', 'latest'],
  relationships: {
    'anomaly-shield-rules': {
      name: 'anomaly-shield-rules',
      target: 'anomaly-shield-rule',
      cardinality: 'many',
      inverse: 'anomaly-shield-triggers',
      canonical: false,
      documented: false,
      description: 'Names of the anomaly shield rules that use this trigger',
    },
  },
} as const satisfies KindModule;
