import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `anomaly-shield-application`: the mappings whose traffic anomaly shield learns and checks together (docs/gateway-api.md "Anomaly
 * shield"). Its only known attribute is `name`; it declares its rules and the traffic matchers it excludes; a mapping joins it through its to-one `anomaly-shield-application` (added to the mapping by the registry).
 */
export const anomalyShieldApplication = {
  type: 'anomaly-shield-application',
  attributes,
  description: 'An anomaly shield application (docs/gateway-api.md "Anomaly shield")',
  emulator,
  collection: 'anomaly-shield-applications',
  level: 0,
  identity: nameIdentity,
  variants: ['earliest', 'middle', 'latest'],
  relationships: {
    mappings: {
      name: 'mappings',
      target: 'mapping',
      cardinality: 'many',
      inverse: 'anomaly-shield-application',
      inverseCardinality: 'one',
      canonical: false,
      description: 'Names of the mappings in this application (declared on the mapping, as its to-one anomaly-shield-application)',
    },
    'anomaly-shield-rules': {
      name: 'anomaly-shield-rules',
      target: 'anomaly-shield-rule',
      cardinality: 'many',
      inverse: 'anomaly-shield-applications',
      canonical: true,
      description: 'Names of the anomaly shield rules this application applies',
    },
    'training-data-collection-exclusions': {
      name: 'training-data-collection-exclusions',
      target: 'anomaly-shield-traffic-matcher',
      cardinality: 'many',
      inverse: 'training-data-collection-exclusion-applications',
      canonical: true,
      description: 'Names of the traffic matchers whose traffic this application leaves out of its training data',
    },
    'anomaly-detection-exclusions': {
      name: 'anomaly-detection-exclusions',
      target: 'anomaly-shield-traffic-matcher',
      cardinality: 'many',
      inverse: 'anomaly-detection-exclusion-applications',
      canonical: true,
      description: 'Names of the traffic matchers whose traffic this application leaves out of anomaly detection',
    },
    'response-rule-exceptions': {
      name: 'response-rule-exceptions',
      target: 'anomaly-shield-traffic-matcher',
      cardinality: 'many',
      inverse: 'response-rule-exception-applications',
      canonical: true,
      description: 'Names of the traffic matchers whose traffic this application\'s response rules spare',
    },
  },
} as const satisfies KindModule;
