import attributes from './attributes.schema.json' with { type: 'json' };
import { singletonIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `dynamic-ip-address-blacklist`: the gateway's dynamic IP address blacklist settings (docs/gateway-api.md "Singletons"). A singleton: one object per gateway at
 * `/configuration/dynamic-ip-address-blacklist`, read and patched, never created nor deleted. No source shows its
 * attribute names, so its schema holds none yet: a document declares the kind only, and
 * export lists what the gateway holds as unmanaged.
 */
export const dynamicIpAddressBlacklist = {
  type: 'dynamic-ip-address-blacklist',
  attributes,
  description: 'The dynamic IP address blacklist settings, one per gateway: a singleton document without name (docs/gateway-api.md "Singletons")',
  emulator,
  collection: 'dynamic-ip-address-blacklist',
  singleton: { path: 'dynamic-ip-address-blacklist' },
  level: 0,
  identity: singletonIdentity('dynamic-ip-address-blacklist'),
  variants: ['earliest', 'middle', 'latest'],
  relationships: {},
} as const satisfies KindModule;
