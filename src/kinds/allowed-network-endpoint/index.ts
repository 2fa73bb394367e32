import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `allowed-network-endpoint`: a host, address or network (and port) that the gateway
 * itself may connect to (docs/gateway-api.md "Hosts, routes and allowed network
 * endpoints"). Plain create, read, update and delete with no relationships; its attribute
 * names besides `name` are assumed (no source shows them).
 */
export const allowedNetworkEndpoint = {
  type: 'allowed-network-endpoint',
  attributes,
  description: 'A network endpoint the gateway may connect to (docs/gateway-api.md "Hosts, routes and allowed network endpoints")',
  emulator,
  collection: 'allowed-network-endpoints',
  level: 0,
  identity: nameIdentity,
  variants: ['earliest', 'middle', 'latest'],
  relationships: {},
} as const satisfies KindModule;
