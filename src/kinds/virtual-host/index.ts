import attributes from './attributes.schema.json' with { type: 'json' };
import { nameIdentity } from '../identity.js';
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';
import { relationships } from './relationships.js';
import { rules } from './rules.js';

/** `virtual-host`: docs/gateway-api.md "Resource types". */
export const virtualHost = {
  type: 'virtual-host',
  attributes,
  description: 'A virtual host (docs/gateway-api.md "Resource types")',
  emulator,
  collection: 'virtual-hosts',
  level: 2,
  identity: nameIdentity,
  variants: ['earliest', 'middle', 'latest'],
  relationships,
  // docs/gateway-api.md "Virtual hosts": the certificate revocation list, from a file.
  content: true,
  contentResource: { segment: 'crl', mediaType: 'application/pkix-crl', optional: true },
  contentExtension: () => 'crl',
  // docs/gateway-api.md "Relationships": POST /configuration/virtual-hosts accepts these.
  createRelationships: ['mappings', 'ssl-certificate', 'acme-service'],
  // docs/gateway-api.md "Documents and ids": the default virtual host.
  builtInName: (name: string) => name === 'default',
  rules,
  diagnosticCodes: {
    'http2-without-https': 'networkInterface.https.http2Allowed is true while networkInterface.https.enabled is false: HTTP/2 needs HTTPS',
    'certificate-mode-link': 'tls.certificateMode names a source (CERTIFICATE, ACME_SERVICE) that the virtual host has no link to',
  },
} as const satisfies KindModule;
