/**
 * Whether a certificate's PEM key is encrypted (src/kinds/ssl-certificate/rules.ts), which
 * decides whether `export` asks for its passphrase: every key type in every PEM encoding
 * node writes, encrypted or not, and texts that are no key.
 */
import { generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { NODE_CERTIFICATES } from '../../src/crypto/node.js';
import { describe, expect, it } from 'vitest';
import { isEncryptedPrivateKey, takesWriteOnly } from '../../src/kinds/ssl-certificate/rules.js';

const KEYS: readonly { label: string; key: KeyObject; types: readonly ('pkcs8' | 'pkcs1' | 'sec1')[] }[] = [
  { label: 'RSA', key: generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey, types: ['pkcs8', 'pkcs1'] },
  { label: 'EC P-256', key: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, types: ['pkcs8', 'sec1'] },
  { label: 'Ed25519', key: generateKeyPairSync('ed25519').privateKey, types: ['pkcs8'] },
];

describe('an encrypted private key', () => {
  for (const { label, key, types } of KEYS) {
    for (const type of types) {
      it(`${label} ${type}: encrypted only when written with a cipher`, () => {
        const plain = key.export({ type, format: 'pem' }).toString();
        const encrypted = key.export({ type, format: 'pem', cipher: 'aes-256-cbc', passphrase: 'p4ss-word' }).toString();
        expect(isEncryptedPrivateKey(plain, NODE_CERTIFICATES)).toBe(false);
        expect(isEncryptedPrivateKey(encrypted, NODE_CERTIFICATES)).toBe(true);
        expect(takesWriteOnly(['passphrase'], { privateKey: plain }, NODE_CERTIFICATES)).toBe(false);
        expect(takesWriteOnly(['passphrase'], { privateKey: encrypted }, NODE_CERTIFICATES)).toBe(true);
      });
    }
  }

  it('no key, an empty one or a text that is no key: no passphrase', () => {
    for (const privateKey of [undefined, '', 'not a key', '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n']) {
      expect(takesWriteOnly(['passphrase'], privateKey === undefined ? {} : { privateKey }, NODE_CERTIFICATES)).toBe(false);
    }
  });
});
