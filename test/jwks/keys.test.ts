/**
 * The pure JWK functions: RFC 7638 thumbprints (the RFC's own example), JWK → PEM through
 * node's crypto and back, key selection by kid and by alg, and type checks.
 */
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { JwkProblem, checkKeyType, jwkThumbprint, parseJwkSet, selectKey } from '../../src/jwks/keys.js';
import { jwkToPem, pemThumbprint } from '../../src/jwks/node-keys.js';

/** RFC 7638 section 3.1: the example RSA key and its thumbprint. */
const RFC_KEY = {
  kty: 'RSA',
  n: '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw',
  e: 'AQAB',
  alg: 'RS256',
  kid: '2011-04-29',
};

describe('JWK functions', () => {
  it('computes the RFC 7638 example thumbprint, and the same one from the PEM', () => {
    expect(jwkThumbprint(RFC_KEY)).toBe('NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs');
    const pem = jwkToPem(RFC_KEY);
    expect(pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(pemThumbprint(pem)).toBe('NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs');
    expect(createPublicKey(pem).export({ format: 'jwk' })).toMatchObject({ n: RFC_KEY.n, e: RFC_KEY.e });
  });

  it('gives no thumbprint for a passphrase', () => {
    expect(pemThumbprint('correct horse battery staple')).toBeUndefined();
    expect(pemThumbprint('-----BEGIN nonsense')).toBeUndefined();
  });

  it('selects by kid and by alg, and says why it cannot', () => {
    const set = parseJwkSet({ keys: [RFC_KEY, { ...RFC_KEY, kid: 'retiring', alg: undefined }] });
    expect(selectKey(set, { kid: 'retiring' }).kid).toBe('retiring');
    expect(selectKey(set, { alg: 'RS_256' }).kid).toBe('2011-04-29');
    expect(() => selectKey(set, { alg: 'RS_512' })).toThrow("no key for alg RS512 (kids in the set: 2011-04-29, retiring); name the key with kid");
    expect(() => selectKey(set, { kid: 'x' })).toThrow("no key with kid 'x' (kids in the set: 2011-04-29, retiring)");
    const two = parseJwkSet({ keys: [RFC_KEY, { ...RFC_KEY, kid: 'b' }] });
    expect(() => selectKey(two, { alg: 'RS_256' })).toThrow('several candidate keys for alg RS256 (kids 2011-04-29, b); name one with kid');
  });

  it('refuses bodies that are not JWK Sets and keys that do not fit', () => {
    expect(() => parseJwkSet([])).toThrow(JwkProblem);
    expect(() => parseJwkSet({ keys: [{ kid: 'x' }] })).toThrow('keys[0] has no "kty"');
    const ec = { ...(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }) as Record<string, unknown>), kty: 'EC', kid: 'e' };
    expect(() => checkKeyType(ec, 'RS_256')).toThrow("key 'e' is of type EC, but jwsAlgorithm RS_256 needs an RSA key");
    expect(() => checkKeyType(RFC_KEY, 'PS_384')).toThrow("key '2011-04-29' is announced for RS256, but jwsAlgorithm is PS_384 (PS384)");
    expect(() => jwkToPem({ ...RFC_KEY, d: 'secret' })).toThrow('holds private key material');
  });
});
