import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule, RelationshipDefinition } from '../kind.js';
import { emulator } from './emulator.js';
import { holdsSecret, rules } from './rules.js';

/** One of the mapping's ICAP views: a to-many link to the icap-environments that inspect `what`. */
function icapView<Name extends string>(name: Name, what: string) {
  return {
    name,
    target: 'icap-environment',
    cardinality: 'many',
    inverse: name,
    inverseCardinality: 'many',
    canonical: true,
    aliases: [name.replace(/s$/, '')],
    description: `Names of the icap-environments that inspect ${what}.`,
  } as const satisfies RelationshipDefinition<string>;
}

/** `mapping`: docs/gateway-api.md "Resource types"; relationships in "Relationships". */
export const mapping = {
  type: 'mapping',
  attributes,
  description: 'A mapping (docs/gateway-api.md "Resource types")',
  emulator,
  collection: 'mappings',
  level: 1,
  identity: nameIdentity,
  variants: ['earliest', 'middle', 'latest'],
  template: 'mapping-template',
  filterProperties: { label: ['labels'] },
  holdsSecret,
  rules,
  // docs/manifest-reference.md "Deny rule use": reading the use costs one GET per mapping and key.
  exportOption: {
    name: 'deny-rule-use',
    help: {
      export: {
        on: "write each exported mapping's use of deny rule groups and rules where it differs from the default (the default; one GET per mapping and group or rule)",
        off: 'do not read the use of deny rule groups and rules (faster on large gateways; the summary lists it as not exported)',
      },
      init: {
        on: "write each mapping's use of deny rule groups and rules where it differs from the default (the default; one GET per mapping and group or rule)",
        off: 'do not read the use of deny rule groups and rules (faster on large gateways; listed as not exported)',
      },
    },
  },
  diagnosticCodes: {
    'duplicate-priority': 'Two regex mappings (entryPath.regexFormatEnforced) have the same entryPath.priority',
  },
  // A mapping's use of deny rules (docs/gateway-api.md "Deny rules"), declared by short name
  // (built-ins) or by name (custom groups and rules).
  subResources: {
    denyRuleGroups: {
      segment: 'deny-rule-groups',
      type: 'mapping-deny-rule-group',
      key: { catalogue: 'deny-rule-groups' },
      bodyId: false,
      defaults: { enabled: true, logOnly: false, exceptions: [] },
      label: 'deny rule group',
    },
    denyRules: { segment: 'deny-rules', type: 'mapping-deny-rule', key: { catalogue: 'deny-rules' }, bodyId: false, defaults: { logOnly: false }, label: 'deny rule' },
    customDenyRuleGroups: {
      segment: 'custom-deny-rule-groups',
      type: 'mapping-custom-deny-rule-group',
      key: { target: 'custom-deny-rule-group' },
      bodyId: true,
      defaults: { logOnly: false },
      label: 'custom deny rule group',
    },
    customDenyRules: {
      segment: 'custom-deny-rules',
      type: 'mapping-custom-deny-rule',
      key: { target: 'custom-deny-rule' },
      bodyId: true,
      defaults: { logOnly: false },
      label: 'custom deny rule',
    },
  },
  relationships: {
    'virtual-hosts': { name: 'virtual-hosts', target: 'virtual-host', cardinality: 'many', inverse: 'mappings', canonical: false },
    'back-end-groups': {
      name: 'back-end-groups',
      target: 'back-end-group',
      cardinality: 'many',
      inverse: 'mappings',
      canonical: true,
      aliases: ['back-end-group'],
    },
    // docs/gateway-api.md "IP address lists": the list's side of these links is
    // documented by every client; the mapping's exception and bot-management endpoints
    // are only seen as GET keys.
    'ip-address-whitelists': {
      name: 'ip-address-whitelists',
      target: 'ip-address-list',
      cardinality: 'many',
      inverse: 'ip-address-whitelists',
      canonical: true,
      description: 'Names of the ip-address-lists whose addresses the mapping lets through (from 8.3.2 also per path: ipRules.ipAddressWhitelists.pathWhitelists)',
    },
    'ip-address-blacklists': {
      name: 'ip-address-blacklists',
      target: 'ip-address-list',
      cardinality: 'many',
      inverse: 'ip-address-blacklists',
      canonical: true,
      description: 'Names of the ip-address-lists whose addresses the mapping blocks',
    },
    'ip-address-blacklist-exceptions': {
      name: 'ip-address-blacklist-exceptions',
      target: 'ip-address-list',
      cardinality: 'many',
      inverse: 'ip-address-blacklist-exceptions',
      canonical: true,
      documented: false,
      description: 'Names of the ip-address-lists exempted from the mapping\'s IP address blacklists',
    },
    'bot-management-source-ip-address-whitelist': {
      name: 'bot-management-source-ip-address-whitelist',
      target: 'ip-address-list',
      cardinality: 'one',
      inverse: 'mappings-request-frequency-filter-whitelist',
      canonical: true,
      documented: false,
      description: 'Name of the ip-address-list whose source addresses bot management exempts (to-one)',
    },
    'api-policy-service': { name: 'api-policy-service', target: 'api-policy-service', cardinality: 'one', inverse: 'mappings', canonical: true },
    'local-json-web-key-sets': {
      name: 'local-json-web-key-sets',
      target: 'local-json-web-key-set',
      cardinality: 'many',
      inverse: 'mappings',
      canonical: true,
    },
    'remote-json-web-key-sets': {
      name: 'remote-json-web-key-sets',
      target: 'remote-json-web-key-set',
      cardinality: 'many',
      inverse: 'mappings',
      canonical: true,
    },
    'openapi-document': { name: 'openapi-document', target: 'openapi-document', cardinality: 'one', inverse: 'mappings', canonical: true },
    'graphql-document': { name: 'graphql-document', target: 'graphql-document', cardinality: 'one', inverse: 'mappings', canonical: true },
    // docs/gateway-api.md "Kerberos and ICAP environments": the four ICAP views, under the
    // same names on both sides; gwops links through the plural paths (as most clients read
    // them), the emulator also serves the singular ones one client writes through.
    'icap-request-client-views': icapView('icap-request-client-views', 'requests on their way in from the client'),
    'icap-request-backend-views': icapView('icap-request-backend-views', 'requests on their way out to the back end'),
    'icap-response-backend-views': icapView('icap-response-backend-views', 'responses as they come from the back end'),
    'icap-response-client-views': icapView('icap-response-client-views', 'responses on their way out to the client'),
  },
} as const satisfies KindModule;
