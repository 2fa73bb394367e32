import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `anomaly-shield-traffic-matcher`: traffic that applications leave out of training, detection or response rules (docs/gateway-api.md "Anomaly
 * shield"). Its only known attribute is `name`; it links IP address lists through `ip-address-lists`, where gwops declares them; the keys under which it shows the applications that exclude it are not known, so gwops names them itself and never sends a call to them.
 */
export const anomalyShieldTrafficMatcher = {
  type: 'anomaly-shield-traffic-matcher',
  attributes,
  description: 'An anomaly shield traffic matcher (docs/gateway-api.md "Anomaly shield")',
  emulator,
  collection: 'anomaly-shield-traffic-matchers',
  level: 0,
  identity: nameIdentity,
  variants: ['earliest', 'middle', 'latest'],
  relationships: {
    'ip-address-lists': {
      name: 'ip-address-lists',
      target: 'ip-address-list',
      cardinality: 'many',
      inverse: 'anomaly-shield-traffic-matchers',
      inverseCardinality: 'many',
      // No source shows the link from the list's side.
      inverseDocumented: false,
      canonical: true,
      description: 'Names of the IP address lists whose addresses this matcher matches',
    },
    'training-data-collection-exclusion-applications': {
      name: 'training-data-collection-exclusion-applications',
      target: 'anomaly-shield-application',
      cardinality: 'many',
      inverse: 'training-data-collection-exclusions',
      canonical: false,
      documented: false,
      description: 'Names of the anomaly shield applications that leave this traffic out of their training data',
    },
    'anomaly-detection-exclusion-applications': {
      name: 'anomaly-detection-exclusion-applications',
      target: 'anomaly-shield-application',
      cardinality: 'many',
      inverse: 'anomaly-detection-exclusions',
      canonical: false,
      documented: false,
      description: 'Names of the anomaly shield applications that leave this traffic out of anomaly detection',
    },
    'response-rule-exception-applications': {
      name: 'response-rule-exception-applications',
      target: 'anomaly-shield-application',
      cardinality: 'many',
      inverse: 'response-rule-exceptions',
      canonical: false,
      documented: false,
      description: 'Names of the anomaly shield applications whose response rules spare this traffic',
    },
  },
} as const satisfies KindModule;
