/**
 * The identity of a cluster node: it has no `name` attribute, so it is matched by its
 * `hostName` (docs/gateway-api.md "Nodes"). A manifest names it with a local handle; a live
 * node that no manifest declares is named by its host name.
 */
import { sha256 } from '../../crypto/digest.js';
import type { IdentityHooks } from '../kind.js';

/**
 * The identity key of a host name: its SHA-256 (lowercase hex), so that an exported node is
 * named `<host name>-<first hex digits>` like an exported certificate.
 */
function keyOf(hostName: string): string {
  return sha256().update(hostName).hex();
}

/** The host name of a node's attributes, or undefined when they hold none. */
function hostNameOf(attributes: Readonly<Record<string, unknown>>): string | undefined {
  const hostName = attributes.hostName;
  return typeof hostName === 'string' && hostName !== '' ? hostName : undefined;
}

export const nodeIdentity: IdentityHooks = {
  byName: false,
  attributes: ['hostName'],
  // A matched node is equal by definition: another host name is another node.
  ignoredInDiff: ['hostName'],
  declared: (attributes) => {
    const hostName = hostNameOf(attributes);
    return hostName === undefined ? { problem: 'attributes.hostName must name the node (it is the identity on the gateway)' } : { key: keyOf(hostName) };
  },
  live: (attributes, handleOf) => {
    const hostName = hostNameOf(attributes);
    if (hostName === undefined) return { name: undefined };
    const key = keyOf(hostName);
    return { name: handleOf(key) ?? hostName, key };
  },
  lookup: (_name, attributes) => {
    const hostName = hostNameOf(attributes);
    return { matches: (listed) => hostName !== undefined && listed.hostName === hostName };
  },
  deleteWhenOrphaned: false,
  exportName: hostNameOf,
};
