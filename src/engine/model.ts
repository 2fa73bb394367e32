/**
 * The state model that desired state (from manifests) and live state (from the gateway)
 * are both built into, so the differ compares like with like (docs/architecture.md "Habits";
 * the idea comes from decK's `state.Get` on both paths).
 */
import { KINDS, kindOf, relationshipNamed } from '../kinds/index.js';
import type { RelationshipDefinition, ResourceType } from '../kinds/index.js';
import type { AttributeObject, SourceLocation } from '../manifest/types.js';
import type { Key, ObjectKey } from '../core/object-key.js';
import type { ObjectContent } from './content.js';
import { joinKey, objectKey } from '../core/object-key.js';

/** Identifies an object across runs: kind plus name (ids exist only inside one run). */
export interface ObjectRef {
  readonly kind: ResourceType;
  readonly name: string;
}

/** One object in a state. */
export interface StateObject {
  readonly kind: ResourceType;
  /**
   * Identity: the name, or for kinds whose identity is not the name (KindDefinition
   * `identity`) the manifest's handle, or for live objects the desired handle with the same
   * identity key or a display name derived from the key.
   */
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
  /**
   * Desired only: where each attribute that names an object no manifest declares is
   * written, by dotted attribute path (ManifestDocument `referenceSources`), so a name the
   * gateway cannot resolve either is located at its line and column.
   */
  readonly referenceSources?: Readonly<Record<string, SourceLocation>>;
  /** Desired only: declared versions of secrets by dotted attribute path (docs/manifest-reference.md "Secrets that rotate"). */
  readonly secretVersions?: Readonly<Record<string, number>>;
  /**
   * The identity on the gateway when it is not the name, from the kind's `identity` hooks
   * (a certificate's SHA-256 fingerprint of its PEM, lowercase hex).
   */
  readonly identityKey?: string;
  /**
   * Live only: how many links the object has through relationships gwops does not manage
   * (e.g. a certificate used as a back-end group's `client-certificate`), from either side.
   * A certificate still in use this way is never deleted as orphaned.
   */
  readonly unmanagedLinks?: number;
  /**
   * The content sub-resource (kinds with `KindDefinition.content`): desired, when the
   * manifest declares `content`; live, read only for objects whose desired side has it.
   */
  readonly content?: ObjectContent;
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
  /**
   * Desired only: where a link to a name no manifest declares is written (ManifestDocument
   * `linkSources`), so a link the gateway cannot resolve either is located at its line.
   */
  readonly linkSources?: ReadonlyMap<LinkKey, SourceLocation>;
  /**
   * Live only: the built-in objects per kind (negative ids; docs/gateway-api.md "Documents
   * and ids"), identity name → id, which are not among `objects`. A manifest that declares
   * one of them is refused; a link may name one (it is resolved through this map).
   */
  readonly builtIns?: ReadonlyMap<ResourceType, ReadonlyMap<string, string>>;
  /**
   * Live only: objects outside the fetched lists that a link or reference of a fetched
   * object names, read only for their names (drift), identity name → id, which are not
   * among `objects`: a link names them by name instead of `#id:<id>`.
   */
  readonly outside?: ReadonlyMap<ResourceType, ReadonlyMap<string, string>>;
}

// ---------------------------------------------------------------------------------------
// Helpers shared by desired and live state (pure).

/** A value per object, looked up by its kind and then its name: no key is built per look-up. */
export class ByObject<T> {
  private readonly byKind = new Map<string, Map<string, T>>();
  get(ref: ObjectRef): T | undefined {
    return this.byKind.get(ref.kind)?.get(ref.name);
  }
  /** Sets the value of `ref` and returns it. */
  set(ref: ObjectRef, value: T): T {
    let byName = this.byKind.get(ref.kind);
    if (!byName) this.byKind.set(ref.kind, (byName = new Map<string, T>()));
    byName.set(ref.name, value);
    return value;
  }
}

/** The key of an object reference (src/core/object-key.ts). */
export function refKey(ref: ObjectRef): ObjectKey<ResourceType> {
  return objectKey(ref.kind, ref.name);
}

/** The key of a link (canonical direction); the live state's digest hashes these keys, so their text must not change. */
export type LinkKey = Key<'link'>;

/** The key of a link (canonical direction). */
export function linkKey(link: Link): LinkKey {
  return joinKey<'link'>(link.from.kind, link.from.name, link.relationship, link.to.kind, link.to.name);
}

/** The keys of a state's `links`, by the array (which is never changed once the state is built). */
const keysOfLinks = new WeakMap<readonly Link[], readonly LinkKey[]>();

/**
 * The key of every link of `links`, in the same order, built once per array: desired and
 * live state record the keys they built theirs with ({@link recordLinkKeys}), and the
 * diff and the live digest read them here instead of joining hundreds of thousands of
 * strings again.
 */
export function linkKeysOf(links: readonly Link[]): readonly LinkKey[] {
  let keys = keysOfLinks.get(links);
  if (!keys) keysOfLinks.set(links, (keys = links.map(linkKey)));
  return keys;
}

/** What answers whether a key is among a state's link keys: a set of them, or a map keyed by them. */
export type LinkKeyLookup = Pick<ReadonlySet<LinkKey>, 'has'>;

/** The key lookups of a state's `links`, by the array. */
const lookupsOfLinks = new WeakMap<readonly Link[], LinkKeyLookup>();

/**
 * Whether a link key is among the keys of `links` ({@link linkKeysOf}): the set or map the
 * state was built with when it recorded one ({@link recordLinkKeys}), else a set of the keys
 * made on first use.
 */
export function linkKeyLookup(links: readonly Link[]): LinkKeyLookup {
  let lookup = lookupsOfLinks.get(links);
  if (!lookup) lookupsOfLinks.set(links, (lookup = new Set(linkKeysOf(links))));
  return lookup;
}

/**
 * Records `keys` as the keys of `links` (same order; `keys[i]` is `linkKey(links[i])`) and,
 * when given, `lookup` as what holds exactly those keys (never to be changed after); returns `links`.
 */
export function recordLinkKeys(links: readonly Link[], keys: readonly LinkKey[], lookup?: LinkKeyLookup): readonly Link[] {
  keysOfLinks.set(links, keys);
  if (lookup !== undefined) lookupsOfLinks.set(links, lookup);
  return links;
}

/** The key of a declared relationship: object plus relationship name. */
export type DeclaredKey = Key<'declared'>;

/** The key of a declared relationship key. */
export function declaredKey(object: ObjectRef, relationship: string): DeclaredKey {
  return joinKey<'declared'>(object.kind, object.name, relationship);
}

/** Whether `object` declares the relationship key `relationship` (see {@link declaredRelationshipsOf}). */
export type DeclaredLookup = (object: ObjectRef, relationship: string) => boolean;

const declaredLookups = new WeakMap<readonly DeclaredRelationship[], DeclaredLookup>();

/**
 * Whether an object declares a relationship key in `state`'s manifests (`declaredRelationships`): made
 * on the first call for a state (most plans never ask) and shared by every later reader, by kind and name with no key string built per entry
 * (220,000 declared keys at 100,000 mappings).
 */
export function declaredRelationshipsOf(state: State): DeclaredLookup {
  const list = state.declaredRelationships ?? [];
  const known = declaredLookups.get(list);
  if (known) return known;
  const byKind = new Map<ResourceType, Map<string, Set<string>>>();
  for (const { object, relationship } of list) {
    let byName = byKind.get(object.kind);
    if (!byName) byKind.set(object.kind, (byName = new Map<string, Set<string>>()));
    const names = byName.get(object.name);
    if (names) names.add(relationship);
    else byName.set(object.name, new Set([relationship]));
  }
  const lookup: DeclaredLookup = (object, relationship) => byKind.get(object.kind)?.get(object.name)?.has(relationship) === true;
  declaredLookups.set(list, lookup);
  return lookup;
}

/** Prefix of the name of a live link end that is not among the fetched objects: `#id:<id>`. */
export const UNKNOWN_ID_PREFIX = '#id:';

/** The server id carried by a `#id:<id>` name, or undefined for an ordinary name. */
export function idOfUnknownRef(name: string): string | undefined {
  return name.startsWith(UNKNOWN_ID_PREFIX) ? name.slice(UNKNOWN_ID_PREFIX.length) : undefined;
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

/**
 * The server id of the live object a link end names: an object of the live state, else a
 * built-in object of that name (`builtIns`), else an object outside the fetched lists of
 * that name (`outside`), else the id a `#id:<id>` name carries.
 */
export function liveIdOf(live: State, ref: ObjectRef): string | undefined {
  return objectOf(live, ref)?.id ?? live.builtIns?.get(ref.kind)?.get(ref.name) ?? live.outside?.get(ref.kind)?.get(ref.name) ?? idOfUnknownRef(ref.name);
}
