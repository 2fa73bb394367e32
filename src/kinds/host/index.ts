import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `host`: a host name the gateway resolves itself, like a line of its `/etc/hosts`
 * (docs/gateway-api.md "Hosts, routes and allowed network endpoints"). Plain create,
 * read, update and delete with no relationships; its attribute names besides `name` are
 * assumed (no source shows them).
 */
export const host = {
  type: 'host',
  attributes,
  description: 'A host name the gateway resolves locally (docs/gateway-api.md "Hosts, routes and allowed network endpoints")',
  emulator,
  collection: 'hosts',
  level: 0,
  identity: nameIdentity,
  variants: ['earliest', 'middle', 'latest'],
  relationships: {},
} as const satisfies KindModule;
