import type { KindDefinition } from '../kind.js';
import { emulator } from './emulator.js';

/**
 * `ssl-certificate`: docs/gateway-api.md "Attributes and server defaults". Carries no
 * `name` attribute, so it is matched by the fingerprint of its `certificate`; `privateKey`
 * and `passphrase` are write-only.
 */
export const sslCertificate: KindDefinition = {
  type: 'ssl-certificate',
  emulator,
  collection: 'ssl-certificates',
  level: 0,
  identity: 'certificate-fingerprint',
  variants: ['earliest', 'middle', 'latest'],
  relationships: {
    'back-end-groups': {
      name: 'back-end-groups',
      target: 'back-end-group',
      cardinality: 'many',
      inverse: 'client-certificate',
      canonical: false,
    },
    'virtual-hosts': { name: 'virtual-hosts', target: 'virtual-host', cardinality: 'many', inverse: 'ssl-certificate', canonical: false },
  },
};
