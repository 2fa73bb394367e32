import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `anomaly-shield-rule`: what an application does when its triggers fire (docs/gateway-api.md "Anomaly
 * shield"). Its only known attribute is `name`; it declares its triggers through `anomaly-shield-triggers`; the applications that apply it are declared on the application.
 */
export const anomalyShieldRule = {
  type: 'anomaly-shield-rule',
  attributes,
  description: 'An anomaly shield rule (docs/gateway-api.md "Anomaly shield")',
  emulator,
  collection: 'anomaly-shield-rules',
  level: 0,
  identity: nameIdentity,
  variants: ['earliest', 'middle', 'latest'],
  relationships: {
    'anomaly-shield-applications': {
      name: 'anomaly-shield-applications',
      target: 'anomaly-shield-application',
      cardinality: 'many',
      inverse: 'anomaly-shield-rules',
      canonical: false,
      description: 'Names of the anomaly shield applications that apply this rule',
    },
    'anomaly-shield-triggers': {
      name: 'anomaly-shield-triggers',
      target: 'anomaly-shield-trigger',
      cardinality: 'many',
      inverse: 'anomaly-shield-rules',
      canonical: true,
      description: 'Names of the anomaly shield triggers this rule acts on',
    },
  },
} as const satisfies KindModule;
