import attributes from './attributes.schema.json' with { type: 'json' };
import type { KindModule } from '../kind.js';
import { emulator } from './emulator.js';
import { certificateIdentity, isUndeclaredCertificateName } from './identity.js';
import { rules, takesWriteOnly } from './rules.js';

/**
 * `ssl-certificate`: docs/gateway-api.md "Attributes and server defaults". Carries no
 * `name` attribute, so it is matched by the fingerprint of its `certificate`; `privateKey`
 * is returned as uploaded (a readable secret), `passphrase` is write-only; its manifest
 * rules check that the private key belongs to the certificate; an export asks for a
 * passphrase only when the key it read is encrypted.
 */
export const sslCertificate = {
  type: 'ssl-certificate',
  attributes,
  description: 'An SSL certificate (docs/gateway-api.md "Attributes and server defaults"); the API object has no name: `name` is a local handle',
  emulator,
  collection: 'ssl-certificates',
  level: 0,
  identity: certificateIdentity,
  // docs/gateway-api.md "Documents and ids": the default certificate, named as every live certificate no manifest declares.
  builtInName: isUndeclaredCertificateName,
  rules,
  diagnosticCodes: {
    'invalid-private-key': "The certificate's privateKey is no PEM private key that can be read (with its passphrase)",
    'private-key-mismatch': "The certificate's privateKey is not the key of its certificate",
  },
  // docs/manifest-reference.md "Secrets": an export writes a passphrase source only for an encrypted key.
  takesWriteOnly,
  variants: ['earliest', 'middle', 'latest'],
  relationships: {
    'back-end-groups': {
      name: 'back-end-groups',
      target: 'back-end-group',
      cardinality: 'many',
      inverse: 'client-certificate',
      canonical: false,
      documented: false,
      description: 'Names of the back-end groups that present this certificate as client certificate',
    },
    'remote-json-web-key-sets': {
      name: 'remote-json-web-key-sets',
      target: 'remote-json-web-key-set',
      cardinality: 'many',
      inverse: 'client-certificate',
      canonical: false,
      documented: false,
      description: 'Names of the remote-json-web-key-sets that present this certificate as client certificate',
    },
    'virtual-hosts': { name: 'virtual-hosts', target: 'virtual-host', cardinality: 'many', inverse: 'ssl-certificate', canonical: false },
  },
} as const satisfies KindModule;
