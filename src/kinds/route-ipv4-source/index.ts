import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `route-ipv4-source`: an IPv4 source route: packets sent from an address of a network leave
 * through a next hop of their own, not the default route's (docs/gateway-api.md "Hosts, routes and
 * allowed network endpoints"). Plain create, read, update and delete under `routes/ipv4/source`, with no
 * relationships; its attribute names besides `name` are assumed (no source shows them).
 */
export const routeIpv4Source = {
  type: 'route-ipv4-source',
  attributes,
  description: 'An IPv4 source route (docs/gateway-api.md "Hosts, routes and allowed network endpoints")',
  emulator,
  collection: 'routes/ipv4/source',
  level: 0,
  identity: nameIdentity,
  variants: ['earliest', 'middle', 'latest'],
  relationships: {},
} as const satisfies KindModule;
