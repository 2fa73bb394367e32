import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';
import { example } from './example.js';
import { certificateIdentity } from './identity.js';
import { rules } from './rules.js';

/**
 * `ssl-certificate`: docs/gateway-api.md "Attributes and server defaults". Carries no
 * `name` attribute, so it is matched by the fingerprint of its `certificate`; `privateKey`
 * is returned as uploaded (a readable secret), `passphrase` is write-only; its manifest
 * rules check that the private key belongs to the certificate.
 */
export const sslCertificate = {
  type: 'ssl-certificate',
  emulator,
  example,
  collection: 'ssl-certificates',
  level: 0,
  identity: certificateIdentity,
  rules,
  variants: ['earliest', 'middle', 'latest'],
  relationships: {
    'back-end-groups': {
      name: 'back-end-groups',
      target: 'back-end-group',
      cardinality: 'many',
      inverse: 'client-certificate',
      canonical: false,
      documented: false,
    },
    'virtual-hosts': { name: 'virtual-hosts', target: 'virtual-host', cardinality: 'many', inverse: 'ssl-certificate', canonical: false },
  },
} as const satisfies KindModule;
