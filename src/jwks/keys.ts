/**
 * JSON Web Keys as gwops uses them (docs/manifest-reference.md "Token keys from a JWKS"):
 * a JWK Set read and checked (RFC 7517), one key selected by `kid` or by algorithm, its
 * type checked against the gateway's `jwsAlgorithm`, and named by its RFC 7638 thumbprint.
 * Pure, without `node:*`: the engine reaches it. Converting a key to and from PEM needs
 * `node:crypto`: src/jwks/node-keys.ts.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';

/** One key of a JWK Set, as published (only the members gwops reads are typed). */
export interface Jwk {
  readonly kty: string;
  readonly kid?: string;
  readonly alg?: string;
  readonly use?: string;
  readonly [member: string]: unknown;
}

/** A checked JWK Set. */
export interface JwkSet {
  readonly keys: readonly Jwk[];
}

/** Why a body is not a usable JWK Set, or why no key could be selected (the caller adds file:line and URL). */
export class JwkProblem extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks that `body` (parsed JSON) is a JWK Set: an object whose `keys` is an array of
 * objects that each have a string `kty` (RFC 7517 section 5).
 * @throws JwkProblem saying what is missing
 */
export function parseJwkSet(body: unknown): JwkSet {
  if (!isObject(body) || !Array.isArray(body.keys)) throw new JwkProblem('the body is not a JWK Set (expected a JSON object with a "keys" array)');
  const keys: Jwk[] = [];
  body.keys.forEach((key: unknown, i) => {
    if (!isObject(key) || typeof key.kty !== 'string') throw new JwkProblem(`the body is not a JWK Set (keys[${i}] has no "kty")`);
    if (key.kid !== undefined && typeof key.kid !== 'string') throw new JwkProblem(`the body is not a JWK Set (keys[${i}].kid is not a string)`);
    keys.push(key as Jwk);
  });
  return { keys };
}

/** The JOSE name (RFC 7518) of a gateway algorithm: `RS_256` → `RS256`. */
export function joseAlgorithm(gatewayAlgorithm: string): string {
  return gatewayAlgorithm.replace('_', '');
}

/** The key type (`kty`) a gateway JWS algorithm needs: RSA for `RS_*` and `PS_*`; undefined for the others (`HS_*` takes a passphrase). */
export function keyTypeFor(gatewayAlgorithm: string): 'RSA' | undefined {
  return /^(RS|PS)_/.test(gatewayAlgorithm) ? 'RSA' : undefined;
}

/** How a reference selects its key: by key id, or the one key announced for an algorithm (gateway notation, e.g. `RS_256`). */
export type KeySelector = { readonly kid: string } | { readonly alg: string };

const kidsOf = (keys: readonly Jwk[]): string => keys.map((k) => k.kid ?? '(no kid)').join(', ') || 'none';

/**
 * Selects one key: the key whose `kid` is given, or the one key whose `alg` member names
 * the algorithm (keys without `alg` are not announced for any algorithm; a retiring key
 * published for a grace period is one).
 * @throws JwkProblem when no key or several keys fit (naming the kids the set has)
 */
export function selectKey(set: JwkSet, selector: KeySelector): Jwk {
  if ('kid' in selector) {
    const found = set.keys.filter((k) => k.kid === selector.kid);
    if (found.length === 0) throw new JwkProblem(`no key with kid '${selector.kid}' (kids in the set: ${kidsOf(set.keys)})`);
    if (found.length > 1) throw new JwkProblem(`${found.length} keys have kid '${selector.kid}'`);
    return found[0] as Jwk;
  }
  const alg = joseAlgorithm(selector.alg);
  const found = set.keys.filter((k) => k.alg === alg);
  if (found.length === 0) throw new JwkProblem(`no key for alg ${alg} (kids in the set: ${kidsOf(set.keys)}); name the key with kid`);
  if (found.length > 1) throw new JwkProblem(`several candidate keys for alg ${alg} (kids ${kidsOf(found)}); name one with kid`);
  return found[0] as Jwk;
}

/**
 * Checks that a key fits the gateway algorithm: its `kty` is the type the algorithm needs
 * and, when the key names an `alg`, that it is the same algorithm.
 * @throws JwkProblem naming both
 */
export function checkKeyType(key: Jwk, gatewayAlgorithm: string): void {
  const needed = keyTypeFor(gatewayAlgorithm);
  const kid = key.kid === undefined ? 'the key' : `key '${key.kid}'`;
  if (needed === undefined) throw new JwkProblem(`jwsAlgorithm ${gatewayAlgorithm} takes no public key`);
  if (key.kty !== needed) throw new JwkProblem(`${kid} is of type ${key.kty}, but jwsAlgorithm ${gatewayAlgorithm} needs an ${needed} key`);
  if (key.alg !== undefined && key.alg !== joseAlgorithm(gatewayAlgorithm)) {
    throw new JwkProblem(`${kid} is announced for ${key.alg}, but jwsAlgorithm is ${gatewayAlgorithm} (${joseAlgorithm(gatewayAlgorithm)})`);
  }
}

/** The members RFC 7638 section 3.2 hashes, per key type, in lexicographic order. */
const THUMBPRINT_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  RSA: ['e', 'kty', 'n'],
  EC: ['crv', 'kty', 'x', 'y'],
  OKP: ['crv', 'kty', 'x'],
};

/**
 * The RFC 7638 thumbprint of a public JWK: base64url of the SHA-256 of the required
 * members, in lexicographic order, without whitespace.
 * @throws JwkProblem for a key type without thumbprint members or a member missing
 */
export function jwkThumbprint(key: Readonly<Record<string, unknown>>): string {
  const kty = key.kty;
  const members = typeof kty === 'string' ? THUMBPRINT_MEMBERS[kty] : undefined;
  if (!members) throw new JwkProblem(`no RFC 7638 thumbprint for key type ${String(kty)}`);
  const canonical: Record<string, string> = {};
  for (const m of members) {
    const value = key[m];
    if (typeof value !== 'string') throw new JwkProblem(`the key has no "${m}"`);
    canonical[m] = value;
  }
  return Buffer.from(sha256(utf8ToBytes(JSON.stringify(canonical)))).toString('base64url');
}

/**
 * How plans name a public key, never by its bytes: `kid K (thumbprint T)`, or
 * `thumbprint T` when no fetched JWK Set has a key with that thumbprint.
 * @param kids thumbprint → kid of every key of the JWK Sets fetched in the run
 */
export function describeKey(thumbprint: string, kids: ReadonlyMap<string, string>): string {
  const kid = kids.get(thumbprint);
  return kid === undefined ? `thumbprint ${thumbprint}` : `kid ${kid} (thumbprint ${thumbprint})`;
}
