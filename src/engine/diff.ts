/**
 * The comparison rules (docs/architecture.md "Decisions": only what is declared is
 * managed), as pure functions over the state model:
 *
 * - only attributes a manifest declares are compared, recursively (an object value compares
 *   only its declared keys; array items that are objects too);
 * - arrays compare whole (same length, item by item) and are replaced whole: a declared
 *   item means the whole item, so it is compared with the item defaults (schema `default`
 *   of the list's `items`) filled in for every member it leaves out, nested objects and
 *   lists included, and both sides of its change have their keys sorted (item-defaults.ts);
 * - write-only attributes (schema `writeOnly`) cannot be read back and are never compared;
 * - secrets (schema `x-gwops-secret`) are compared like any value but masked in every
 *   change ({@link maskValue}); a secret that is PEM text on both sides (a certificate's
 *   readable `privateKey`) compares by the digest of its PEM lines ({@link pemTextDigest}),
 *   so line endings and surrounding blank space are no difference, another key or another
 *   encoding of it is;
 * - public keys (schema `x-gwops-public-key`) compare by RFC 7638 thumbprint when both
 *   sides are PEM public keys, and a change names them by key id and thumbprint, never by
 *   their bytes (docs/manifest-reference.md "Token keys from a JWKS").
 *
 * Links: desired links are the union of both sides' declarations; a live link is managed
 * when either end's relationship key is declared (or, for a to-one relationship, when the
 * desired state gives that key a target, since linking replaces it).
 */
import { sha256 } from '../crypto/digest.js';
import type { ResourceType } from '../kinds/index.js';
import type { AttributeObject } from '../manifest/types.js';
import { describeKey } from '../jwks/keys.js';
import type { PublicKeyTools } from '../crypto/port.js';
import { publicKeyAttributes, secretAttributes, writeOnlyAttributes } from '../schema/index.js';
import type { DeclaredKey, Link, LinkKey, State } from './model.js';
import { declaredKey, declaredRelationshipsOf, linkDefinition, linkKeyLookup, linkKeysOf } from './model.js';
import { sortedKeys, withItemDefaults } from './item-defaults.js';
import type { AttributeChange } from './plan-types.js';
import { SENSITIVE_MASK } from './plan-types.js';
import { sortByCodePoint } from './code-point.js';
import { copyOfFirst, setOwnMember, ownMember } from '../core/own-member.js';

/** A plain JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is AttributeObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type Pattern = readonly string[];
const secretCache = new Map<ResourceType, readonly Pattern[]>();
const writeOnlyCache = new Map<ResourceType, readonly Pattern[]>();

function secretPatterns(type: ResourceType): readonly Pattern[] {
  let found = secretCache.get(type);
  if (!found) {
    found = secretAttributes(type).map((p) => p.segments);
    secretCache.set(type, found);
  }
  return found;
}

function writeOnlyPatterns(type: ResourceType): readonly Pattern[] {
  let found = writeOnlyCache.get(type);
  if (!found) {
    found = writeOnlyAttributes(type).map((p) => p.segments);
    writeOnlyCache.set(type, found);
  }
  return found;
}

const publicKeyCache = new Map<ResourceType, readonly Pattern[]>();

/** True when the attribute at `segments` is marked `x-gwops-public-key` for `type`. */
export function isPublicKeyPath(type: ResourceType, segments: readonly string[]): boolean {
  let found = publicKeyCache.get(type);
  if (!found) {
    found = publicKeyAttributes(type).map((p) => p.segments);
    publicKeyCache.set(type, found);
  }
  return matchesAny(found, segments);
}

/** True when `segments` matches the first `segments.length` segments of `pattern` (`*` = any array index). */
function prefixMatches(pattern: Pattern, segments: readonly string[]): boolean {
  if (segments.length > pattern.length) return false;
  // Loops, not every/some: these run for every attribute of every object planned.
  for (let i = 0; i < segments.length; i++) if (pattern[i] !== '*' && pattern[i] !== segments[i]) return false;
  return true;
}

function matchesAny(patterns: readonly Pattern[], segments: readonly string[]): boolean {
  for (const p of patterns) if (p.length === segments.length && prefixMatches(p, segments)) return true;
  return false;
}

/** True when some secret attribute of `type` lies strictly inside the value at `segments`. */
function holdsSecretBelow(type: ResourceType, segments: readonly string[]): boolean {
  for (const p of secretPatterns(type)) if (p.length > segments.length && prefixMatches(p, segments)) return true;
  return false;
}

/** True when the value at `segments` is a secret of `type` or holds one ({@link isSecretPath}, {@link holdsSecretBelow}). */
function secretAtOrBelow(type: ResourceType, segments: readonly string[]): boolean {
  return (segments.length > 0 && isSecretPath(type, segments)) || holdsSecretBelow(type, segments);
}

/** True when the attribute at `segments` (array indexes as decimal strings) is a secret of `type`. */
export function isSecretPath(type: ResourceType, segments: readonly string[]): boolean {
  return matchesAny(secretPatterns(type), segments);
}

/** True when the attribute at `segments` is write-only for `type` (never returned by GET). */
export function isWriteOnlyPath(type: ResourceType, segments: readonly string[]): boolean {
  return matchesAny(writeOnlyPatterns(type), segments);
}

/**
 * `value` (found at attribute path `segments` of a `type` object) with every secret inside
 * it replaced by {@link SENSITIVE_MASK}; `masked` tells whether anything was replaced.
 * `undefined` stays `undefined` (an absent value reveals nothing).
 */
export function maskValue(type: ResourceType, segments: readonly string[], value: unknown): { value: unknown; masked: boolean } {
  let masked = false;
  const shown = mapSecrets(type, value, segments, (secret) => {
    if (secret === undefined) return secret;
    masked = true;
    return SENSITIVE_MASK;
  });
  return { value: shown, masked };
}

/** The segments of a JSON pointer (RFC 6901), unescaped: `/data/attributes/a~1b` → `['data', 'attributes', 'a/b']`. */
export function decodePointer(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value at `segments` (keys, array indexes as decimal strings) inside `value`, or undefined. */
export function getAt(value: unknown, segments: readonly string[]): unknown {
  let current = value;
  for (const segment of segments) {
    if (!current || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/**
 * `value` (found at attribute path `segments` of a `type` object) with each secret leaf
 * replaced by what `replace` returns for it and its attribute path. What holds no secret is
 * not copied: a subtree that no secret path reaches, or in which nothing was replaced, is
 * the same object as in `value` (treat the result as read-only). At 100,000 mappings a
 * plan file copied every desired attribute tree this way.
 */
export function mapSecrets(type: ResourceType, value: unknown, segments: readonly string[], replace: (value: unknown, at: readonly string[]) => unknown): unknown {
  // Most values hold no secret at all: nothing to walk (asked for every attribute of every object planned).
  if (!secretAtOrBelow(type, segments)) return value;
  // One path, pushed and popped as the walk goes; `replace` gets a copy of its own.
  const path = [...segments];
  const walk = (node: unknown): unknown => {
    if (path.length > 0 && isSecretPath(type, path)) return replace(node, [...path]);
    // Most objects hold no secret, and most of those that do hold them in one branch: a
    // copy is begun only at the first member or item that changed.
    if (!holdsSecretBelow(type, path)) return node;
    if (Array.isArray(node)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        path.push(String(i));
        const mapped = walk(item);
        path.pop();
        if (mapped !== item && out === undefined) out = node.slice(0, i);
        out?.push(mapped);
      }
      return out ?? node;
    }
    if (isPlainObject(node)) {
      const keys = Object.keys(node);
      let out: AttributeObject | undefined;
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        const child = node[key];
        path.push(key);
        const mapped = walk(child);
        path.pop();
        if (mapped !== child && out === undefined) out = copyOfFirst(node, keys, i);
        if (out !== undefined) setOwnMember(out, key, mapped);
      }
      return out ?? node;
    }
    return node;
  };
  return walk(value);
}

/** JSON pointer segment escaping (RFC 6901). */
function pointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Masks the secrets of an attribute object for a request body.
 * @param pointerPrefix JSON pointer of `attributes` inside the body, e.g. `/data/attributes`
 * @returns the masked copy and the JSON pointers of the masked values
 */
export function redactAttributes(
  type: ResourceType,
  attributes: AttributeObject,
  pointerPrefix: string,
): { attributes: AttributeObject; secretPaths: string[] } {
  const secretPaths: string[] = [];
  const masked = mapSecrets(type, attributes, [], (_value, at) => {
    secretPaths.push(pointerPrefix + at.map((s) => `/${pointerSegment(s)}`).join(''));
    return SENSITIVE_MASK;
  });
  return { attributes: masked as AttributeObject, secretPaths };
}

/**
 * True when `live` matches what is declared: objects compare only their declared keys,
 * arrays compare item by item with the same rule and must have the same length, other
 * values compare strictly. Write-only paths are skipped. With `wholeItems`, the objects
 * inside a list's items must also hold no member the declared item lacks: a PATCH replaces
 * a list whole (docs/gateway-api.md "Attributes and server defaults", list items), so such
 * a member would be dropped (give `declared` with its item defaults filled in). Public keys
 * compare by the RFC 7638 thumbprint `keys` reads of them.
 */
export function matchesDeclared(
  type: ResourceType,
  declared: unknown,
  live: unknown,
  keys: PublicKeyTools,
  segments: readonly string[] = [],
  wholeItems = false,
  inItem = false,
): boolean {
  if (isPlainObject(declared)) {
    if (!isPlainObject(live)) return false;
    if (inItem && Object.keys(live).some((key) => !Object.hasOwn(declared, key) && live[key] !== undefined && live[key] !== null && !isWriteOnlyPath(type, [...segments, key]))) return false;
    return Object.entries(declared).every(([key, child]) => {
      const childSegments = [...segments, key];
      return isWriteOnlyPath(type, childSegments) || matchesDeclared(type, child, ownMember(live, key), keys, childSegments, wholeItems, inItem);
    });
  }
  if (Array.isArray(declared)) {
    if (!Array.isArray(live) || live.length !== declared.length) return false;
    return declared.every((item: unknown, i) => matchesDeclared(type, item, live[i], keys, [...segments, String(i)], wholeItems, wholeItems));
  }
  if (typeof declared === 'string' && typeof live === 'string' && declared !== live && isPublicKeyPath(type, segments)) {
    const thumbprint = keys.pemThumbprint(declared);
    return thumbprint !== undefined && thumbprint === keys.pemThumbprint(live);
  }
  if (typeof declared === 'string' && typeof live === 'string' && declared !== live && isSecretPath(type, segments)) {
    const digest = pemTextDigest(declared);
    return digest !== undefined && digest === pemTextDigest(live);
  }
  return declared === live;
}

/**
 * SHA-256 (hex) of PEM text (RFC 7468) with every line trimmed and blank lines dropped, so
 * CRLF or LF, a final line break and indentation do not count; undefined when `text` holds
 * no PEM armour line. Only ever compared, never shown or stored.
 */
export function pemTextDigest(text: string): string | undefined {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (!/^-----BEGIN [^-]+-----$/.test(lines[0] ?? '')) return undefined;
  return sha256().update(lines.join('\n')).hex();
}

/** Result of comparing one object's declared attributes with the live ones. */
export interface AttributeDiff {
  /** Changed leaf attributes (objects descended into, arrays whole), masked. */
  readonly changes: AttributeChange[];
  /** Top-level attribute names that hold a change (what a PATCH sends). */
  readonly changedTopLevel: string[];
  /** Declared leaf attributes that already match. */
  readonly unchanged: number;
}

/**
 * A public key's value as a change shows it: `(public key kid K (thumbprint T))`, or the
 * mask for anything that is not a PEM public key (an HMAC passphrase).
 */
function publicKeyValue(value: unknown, keys: PublicKeys): { value: unknown; masked: boolean } {
  if (typeof value !== 'string') return { value, masked: value !== undefined };
  const thumbprint = keys.pemThumbprint(value);
  return { value: thumbprint === undefined ? SENSITIVE_MASK : `(public key ${describeKey(thumbprint, keys.kids)})`, masked: true };
}

/** Names of keys for plans: RFC 7638 thumbprint → kid (from the JWK Sets of the run). */
export type KeyNames = ReadonlyMap<string, string>;

/**
 * How the comparison reads public keys: their RFC 7638 thumbprint (on `node:crypto`, handed
 * in by the operations: src/jwks/node-keys.ts) and, for plans, the kid of each thumbprint
 * of the run's JWK Sets.
 */
export interface PublicKeys extends PublicKeyTools {
  readonly kids: KeyNames;
}

/** Reads no public key: public keys then compare by their text, and a change shows them masked. */
export const NO_PUBLIC_KEYS: PublicKeys = { pemThumbprint: () => undefined, kids: new Map() };

function change(type: ResourceType, segments: readonly string[], before: unknown, after: unknown, keys: PublicKeys): AttributeChange {
  const publicKey = isPublicKeyPath(type, segments);
  // Neither a key nor a secret at or below: both sides are shown as they are.
  if (!publicKey && !secretAtOrBelow(type, segments)) return changeOf(segments.join('.'), before, after, false);
  const b = publicKey ? publicKeyValue(before, keys) : maskValue(type, segments, before);
  const a = publicKey ? publicKeyValue(after, keys) : maskValue(type, segments, after);
  return changeOf(segments.join('.'), b.value, a.value, b.masked || a.masked);
}

/** A change with its members in the order plans show them, an absent side left out (written out: a spread per side cost more than the rest of a creation's changes). */
function changeOf(path: string, before: unknown, after: unknown, sensitive: boolean): AttributeChange {
  if (before === undefined) return after === undefined ? { path, sensitive } : { path, after, sensitive };
  return after === undefined ? { path, before, sensitive } : { path, before, after, sensitive };
}

/**
 * Compares the declared attributes of an object with its live attributes.
 * @param ignore top-level attributes not compared (an `ssl-certificate`'s `certificate` is
 *   its identity: a matched certificate is equal by definition)
 */
export function diffAttributes(
  type: ResourceType,
  declared: AttributeObject,
  live: AttributeObject,
  ignore: readonly string[],
  keys: PublicKeys,
): AttributeDiff {
  const changes: AttributeChange[] = [];
  const changedTopLevel = new Set<string>();
  let unchanged = 0;
  const walk = (d: AttributeObject, l: unknown, segments: readonly string[]): void => {
    for (const key of sortByCodePoint(Object.keys(d))) {
      const childSegments = [...segments, key];
      const value = d[key];
      if (isWriteOnlyPath(type, childSegments)) continue;
      if (segments.length === 0 && ignore.includes(key)) continue;
      const liveValue = isPlainObject(l) ? ownMember(l, key) : undefined;
      if (isPlainObject(value) && (isPlainObject(liveValue) || (liveValue === undefined && Object.keys(value).length > 0))) {
        walk(value, liveValue, childSegments);
      } else if (Array.isArray(value)) {
        // A list compares and renders as the gateway will hold it: item defaults filled in, keys sorted.
        const filled = withItemDefaults(type, childSegments, value, liveValue);
        if (matchesDeclared(type, filled, liveValue, keys, childSegments, true)) unchanged += 1;
        else {
          changes.push(change(type, childSegments, sortedKeys(liveValue), sortedKeys(filled), keys));
          changedTopLevel.add(childSegments[0] ?? key);
        }
      } else if (matchesDeclared(type, value, liveValue, keys, childSegments)) {
        unchanged += 1;
      } else {
        changes.push(change(type, childSegments, liveValue, value, keys));
        changedTopLevel.add(childSegments[0] ?? key);
      }
    }
  };
  walk(declared, live, []);
  return { changes, changedTopLevel: [...changedTopLevel].sort(), unchanged };
}

/** Every declared leaf of a new object as a change from nothing (objects flattened, arrays whole), masked. */
export function creationChanges(type: ResourceType, declared: AttributeObject, keys: PublicKeys): AttributeChange[] {
  const changes: AttributeChange[] = [];
  // One path, pushed and popped as the walk goes: nothing below keeps it.
  const segments: string[] = [];
  const walk = (d: AttributeObject): void => {
    for (const key of sortByCodePoint(Object.keys(d))) {
      const value = d[key];
      segments.push(key);
      if (isPlainObject(value) && Object.keys(value).length > 0 && !isSecretPath(type, segments)) walk(value);
      else changes.push(change(type, segments, undefined, value, keys));
      segments.pop();
    }
  };
  walk(declared);
  return changes;
}

/** Links to add and to remove. */
export interface LinkDiff {
  readonly add: Link[];
  readonly remove: Link[];
}

/**
 * Compares links: desired links missing live are added; live links that are managed and
 * not desired are removed. A live link is managed when the desired state declares the
 * relationship key of either end, or when it sits on a to-one key the desired state gives
 * another target (linking would replace it anyway; removing it explicitly makes the plan
 * say so and lets a replaced certificate be seen as orphaned).
 */
export function diffLinks(desired: State, live: State): LinkDiff {
  // Read only for live links that no manifest declares (declaredRelationshipsOf builds its lookup on first use).
  // Each link's key is built once (hundreds of thousands of links at 100,000 mappings).
  const desiredKeys = linkKeysOf(desired.links);
  const desiredKeySet = linkKeyLookup(desired.links);
  const liveKeys = linkKeysOf(live.links);
  const liveKeySet = linkKeyLookup(live.links);
  let toOneSet: Set<DeclaredKey> | undefined;
  const toOneTargets = (): Set<DeclaredKey> =>
    (toOneSet ??= new Set(desired.links.filter((l) => linkDefinition(l).cardinality === 'one').map((l) => declaredKey(l.from, l.relationship))));
  const add = desired.links.filter((_, i) => !liveKeySet.has(desiredKeys[i] as LinkKey));
  const remove = live.links.filter((l, i) => {
    if (desiredKeySet.has(liveKeys[i] as LinkKey)) return false;
    const def = linkDefinition(l);
    return (
      declaredRelationshipsOf(desired)(l.from, l.relationship) ||
      declaredRelationshipsOf(desired)(l.to, def.inverse) ||
      (def.cardinality === 'one' && toOneTargets().has(declaredKey(l.from, l.relationship)))
    );
  });
  return { add, remove };
}
