import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `custom-deny-rule-group`: a named set of custom deny rules (docs/gateway-api.md "Deny
 * rules"), linked through `PATCH .../{id}/relationships/custom-deny-rules`; a mapping uses
 * a group through its manifest's `customDenyRuleGroups` block.
 */
export const customDenyRuleGroup = {
  type: 'custom-deny-rule-group',
  attributes,
  description: 'A custom deny rule group (docs/gateway-api.md "Deny rules")',
  emulator,
  collection: 'custom-deny-rule-groups',
  level: 0,
  identity: nameIdentity,
  variants: ['earliest', 'middle', 'latest'],
  relationships: {
    'custom-deny-rules': {
      name: 'custom-deny-rules',
      target: 'custom-deny-rule',
      cardinality: 'many',
      inverse: 'custom-deny-rule-groups',
      canonical: true,
      description: 'Names of the custom deny rules in this group',
    },
  },
} as const satisfies KindModule;
