/**
 * The state model that desired state (from manifests) and live state (from the gateway)
 * are both built into, so the differ compares like with like (docs/architecture.md "Habits";
 * the idea comes from decK's `state.Get` on both paths).
 */
import { createHash } from 'node:crypto';
import { KINDS, kindOf, relationshipNamed } from '../kinds/index.js';
import type { RelationshipDefinition, ResourceType } from '../kinds/index.js';
import type { AttributeObject, SourceLocation } from '../manifest/types.js';

/** Identifies an object across runs: kind plus name (ids exist only inside one run). */
export interface ObjectRef {
  readonly kind: ResourceType;
  readonly name: string;
}

/** One object in a state. */
export interface StateObject {
  readonly kind: ResourceType;
  /** Identity (for `ssl-certificate`: the manifest handle, or for live objects a handle derived from the fingerprint). */
  readonly name: string;
  /** Live only: the server's id in the session the state was read in. */
  readonly id?: string;
  /**
   * Desired: the declared attributes. Live: the full attribute tree as returned by GET
   * (write-only attributes absent).
   */
  readonly attributes: AttributeObject;
  /** Desired only: where the object is declared. */
  readonly source?: SourceLocation;
  /** `ssl-certificate` only: SHA-256 fingerprint (hex) of the PEM `certificate`, its identity on the gateway. */
  readonly fingerprint?: string;
  /**
   * Live only: how many links the object has through relationships gwops does not manage
   * (e.g. a certificate used as a back-end group's `client-certificate`), from either side.
   * A certificate still in use this way is never deleted as orphaned.
   */
  readonly unmanagedLinks?: number;
}

/**
 * A link between two objects, stored once, in the canonical direction: `from` is the
 * side whose relationship is `canonical` in the kind registry (virtual host → mappings,
 * ssl-certificate, acme-service; mapping → back-end-groups).
 */
export interface Link {
  readonly from: ObjectRef;
  /** The canonical side's relationship name, e.g. `mappings`. */
  readonly relationship: string;
  readonly to: ObjectRef;
}

/** A relationship key that a manifest declares: object plus relationship name on that object. */
export interface DeclaredRelationship {
  readonly object: ObjectRef;
  readonly relationship: string;
}

/** Desired or live state. */
export interface State {
  /** Objects per kind, by name. */
  readonly objects: ReadonlyMap<ResourceType, ReadonlyMap<string, StateObject>>;
  /** Every link, canonical direction, no duplicates. */
  readonly links: readonly Link[];
  /**
   * Desired only: the relationship keys declared in manifests, from either side. A live
   * link is managed when one of its two ends' keys is declared; undeclared keys are left
   * alone.
   */
  readonly declaredRelationships?: readonly DeclaredRelationship[];
}

// ---------------------------------------------------------------------------------------
// Helpers shared by desired and live state (pure; node:crypto hashing is not I/O).


/** A stable string key of an object reference (`kind` NUL `name`). */
export function refKey(ref: ObjectRef): string {
  return `${ref.kind}\u0000${ref.name}`;
}

/** A stable string key of a link (canonical direction). */
export function linkKey(link: Link): string {
  return `${refKey(link.from)}\u0000${link.relationship}\u0000${refKey(link.to)}`;
}

/** A stable string key of a declared relationship key. */
export function declaredKey(object: ObjectRef, relationship: string): string {
  return `${refKey(object)}\u0000${relationship}`;
}

/** Prefix of the name of a live link end that is not among the fetched objects: `#id:<id>`. */
export const UNKNOWN_ID_PREFIX = '#id:';

/** The server id carried by a `#id:<id>` name, or undefined for an ordinary name. */
export function idOfUnknownRef(name: string): string | undefined {
  return name.startsWith(UNKNOWN_ID_PREFIX) ? name.slice(UNKNOWN_ID_PREFIX.length) : undefined;
}

/**
 * SHA-256 fingerprint (lowercase hex) of the DER bytes of the first PEM block of `pem`
 * (`-----BEGIN ...-----`, base64 body, `-----END ...-----`). Returns undefined when `pem`
 * holds no PEM block (the caller decides whether that is an error).
 */
export function certificateFingerprint(pem: string): string | undefined {
  const match = /-----BEGIN [A-Z0-9 ]+-----([\s\S]*?)-----END [A-Z0-9 ]+-----/.exec(pem);
  const body = match?.[1];
  if (body === undefined) return undefined;
  const der = Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
  return createHash('sha256').update(der).digest('hex');
}

/**
 * The relationship `relationship` of `kind` from the kind registry.
 * A relationship's aliases (older gateways' names) are read as the relationship itself
 * (docs/gateway-api.md "Relationships"). Returns undefined for relationships
 * gwops does not manage.
 */
export function relationshipDefinition(kind: ResourceType, relationship: string): RelationshipDefinition | undefined {
  return relationshipNamed(kindOf(kind), relationship);
}

/**
 * The link between `object` and `target` through `object`'s relationship `def`, stored in
 * the canonical direction (the side whose relationship is `canonical`).
 * @throws Error when the registry has no canonical inverse (a programming error)
 */
export function canonicalLink(object: ObjectRef, def: RelationshipDefinition, targetName: string): Link {
  const target: ObjectRef = { kind: def.target, name: targetName };
  if (def.canonical) return { from: object, relationship: def.name, to: target };
  const inverse = kindOf(def.target).relationships[def.inverse];
  if (!inverse?.canonical) throw new Error(`relationship ${object.kind}.${def.name} has no canonical inverse`);
  return { from: target, relationship: inverse.name, to: object };
}

/** The canonical relationship definition of a link (`link.from.kind`'s `link.relationship`). */
export function linkDefinition(link: Link): RelationshipDefinition {
  const def = kindOf(link.from.kind).relationships[link.relationship];
  if (!def) throw new Error(`unknown relationship ${link.from.kind}.${link.relationship}`);
  return def;
}

/** An empty per-kind object map with every registered kind present (insertion order = KINDS). */
export function emptyObjectMaps(): Map<ResourceType, Map<string, StateObject>> {
  return new Map(KINDS.map((k) => [k.type, new Map<string, StateObject>()]));
}

/** The object `ref` of a state, if present. */
export function objectOf(state: State, ref: ObjectRef): StateObject | undefined {
  return state.objects.get(ref.kind)?.get(ref.name);
}
