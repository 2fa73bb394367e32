/**
 * The state model that desired state (from manifests) and live state (from the gateway)
 * are both built into, so the differ compares like with like (ARCHITECTURE.md: decK's
 * `state.Get` on both paths).
 */
import type { ResourceType } from '../kinds/index.js';
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
