import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `route-ipv6-destination`: an IPv6 destination route: packets to a network go through a next hop
 * other than the default route's (docs/gateway-api.md "Hosts, routes and
 * allowed network endpoints"). Plain create, read, update and delete under `routes/ipv6/destination`, with no
 * relationships; its attribute names besides `name` are assumed (no source shows them).
 */
export const routeIpv6Destination = {
  type: 'route-ipv6-destination',
  attributes,
  description: 'An IPv6 destination route (docs/gateway-api.md "Hosts, routes and allowed network endpoints")',
  emulator,
  collection: 'routes/ipv6/destination',
  level: 0,
  identity: nameIdentity,
  variants: ['earliest', 'middle', 'latest'],
  relationships: {},
} as const satisfies KindModule;
