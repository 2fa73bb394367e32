import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `ip-address-list`: a named list of IP addresses and ranges that mappings use as
 * whitelist, blacklist, blacklist exception or bot-management source whitelist
 * (docs/gateway-api.md "IP address lists"). The list shows its mappings under keys named
 * by the role (`ip-address-whitelists`, ...) and links them through `mappings-*`
 * endpoints; links are declared on the mapping.
 */
export const ipAddressList = {
  type: 'ip-address-list',
  attributes,
  description: 'An IP address list (docs/gateway-api.md "IP address lists")',
  emulator,
  collection: 'ip-address-lists',
  level: 0,
  identity: nameIdentity,
  variants: ['earliest', 'middle', 'latest'],
  relationships: {
    'ip-address-whitelists': {
      name: 'ip-address-whitelists',
      endpoint: 'mappings-whitelist',
      target: 'mapping',
      cardinality: 'many',
      inverse: 'ip-address-whitelists',
      canonical: false,
      description: 'Names of the mappings that use this list as IP address whitelist',
    },
    'ip-address-blacklists': {
      name: 'ip-address-blacklists',
      endpoint: 'mappings-blacklist',
      target: 'mapping',
      cardinality: 'many',
      inverse: 'ip-address-blacklists',
      canonical: false,
      description: 'Names of the mappings that use this list as IP address blacklist',
    },
    'ip-address-blacklist-exceptions': {
      name: 'ip-address-blacklist-exceptions',
      endpoint: 'mappings-blacklist-exception',
      target: 'mapping',
      cardinality: 'many',
      inverse: 'ip-address-blacklist-exceptions',
      canonical: false,
      description: 'Names of the mappings that use this list as exception to their IP address blacklists',
    },
    'mappings-request-frequency-filter-whitelist': {
      name: 'mappings-request-frequency-filter-whitelist',
      target: 'mapping',
      cardinality: 'many',
      inverse: 'bot-management-source-ip-address-whitelist',
      canonical: false,
      description: 'Names of the mappings whose bot management exempts the source addresses of this list',
    },
  },
} as const satisfies KindModule;
