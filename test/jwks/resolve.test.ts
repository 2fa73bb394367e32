/**
 * `resolveJwksReferences` with an injected fetcher: one fetch per source (and per URL),
 * however many references name it; the PEM put in place; problems located and naming the
 * URL; the kids of every fetched key known for plans.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { JwkSet } from '../../src/jwks/keys.js';
import { jwkThumbprint } from '../../src/jwks/keys.js';
import { pemThumbprint } from '../../src/jwks/node-keys.js';
import type { JwksReference } from '../../src/manifest/jwks-refs.js';
import { resolveJwksReferences } from '../../src/operations/steps/jwks-resolve.js';
import type { ManifestDocument } from '../../src/manifest/types.js';

const jwk = (kid: string): Record<string, unknown> => ({
  ...(generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' }) as Record<string, unknown>),
  kid,
  alg: 'RS256',
});

const doc = (name: string): ManifestDocument => ({
  kind: 'mapping',
  name,
  attributes: { name, access: { tokenVerification: { jwsAlgorithm: 'RS_256', jwsKey: { fromJwks: {} } } } },
  relationships: {},
  source: { file: 'm.yaml', line: 1, column: 1 },
});

const SEGMENTS = ['access', 'tokenVerification', 'jwsKey'];

describe('resolveJwksReferences', () => {
  it('fetches each source once and puts the selected key in place', async () => {
    const key = jwk('k1');
    const set: JwkSet = { keys: [key as JwkSet['keys'][number], jwk('k2') as JwkSet['keys'][number]] };
    const fetched: string[] = [];
    const fetcher = (url: string): Promise<JwkSet> => {
      fetched.push(url);
      return Promise.resolve(set);
    };
    const documents = ['a', 'b', 'c', 'd'].map(doc);
    const reference = (d: ManifestDocument, ref: JwksReference['ref']): JwksReference => ({
      document: d,
      segments: SEGMENTS,
      ref,
      algorithm: 'RS_256',
      location: { file: 'm.yaml', line: 3, column: 5, pointer: '/attributes/access/tokenVerification/jwsKey' },
    });
    const [a, b, c, d] = documents as [ManifestDocument, ManifestDocument, ManifestDocument, ManifestDocument];
    const result = await resolveJwksReferences(
      documents,
      [
        reference(a, { source: 'login', kid: 'k1' }),
        reference(b, { source: 'login', alg: 'RS_256' }),
        reference(c, { url: 'https://other.example/jwks', kid: 'k1' }),
        reference(d, { source: 'login', kid: 'missing' }),
      ],
      { login: { url: 'https://login.example/jwks' } },
      fetcher,
    );
    expect(fetched).toEqual(['https://login.example/jwks', 'https://other.example/jwks']);
    const pemOf = (i: number): unknown => (result.documents[i]?.attributes.access as { tokenVerification: { jwsKey: unknown } }).tokenVerification.jwsKey;
    expect(pemThumbprint(String(pemOf(0)))).toBe(jwkThumbprint(key));
    expect(pemOf(3)).toEqual({ fromJwks: {} });
    expect(result.kids.get(jwkThumbprint(key))).toBe('k1');
    // b selects by alg, and two keys announce RS256 here: a located problem, not a guess.
    expect(pemOf(1)).toEqual({ fromJwks: {} });
    expect(result.problems.map((p) => [p.code, p.file, p.line, p.column, p.message])).toEqual([
      ['jwks-key', 'm.yaml', 3, 5, "access.tokenVerification.jwsKey of mapping 'b': JWKS https://login.example/jwks: several candidate keys for alg RS256 (kids k1, k2); name one with kid"],
      ['jwks-key', 'm.yaml', 3, 5, "access.tokenVerification.jwsKey of mapping 'd': JWKS https://login.example/jwks: no key with kid 'missing' (kids in the set: k1, k2)"],
    ]);
  });
});
