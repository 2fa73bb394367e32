import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `custom-deny-rule`: a deny rule of one's own, matching requests by patterns on their
 * method, path, parameters, content type and headers (docs/gateway-api.md "Deny rules").
 * Groups list their rules (`custom-deny-rules`, declared on the group); a mapping uses a
 * rule through its manifest's `customDenyRules` block.
 */
export const customDenyRule = {
  type: 'custom-deny-rule',
  attributes,
  description: 'A custom deny rule (docs/gateway-api.md "Deny rules")',
  emulator,
  collection: 'custom-deny-rules',
  level: 0,
  identity: nameIdentity,
  variants: ['earliest', 'middle', 'latest'],
  relationships: {
    'custom-deny-rule-groups': {
      name: 'custom-deny-rule-groups',
      target: 'custom-deny-rule-group',
      cardinality: 'many',
      inverse: 'custom-deny-rules',
      canonical: false,
      // The reference shows no link endpoint on the rule's side: links go through the group.
      documented: false,
      description: 'Names of the custom deny rule groups that hold this rule (declared on the group)',
    },
  },
} as const satisfies KindModule;
