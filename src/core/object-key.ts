/**
 * Typed string keys for Map and Set lookups by a tuple of strings: an object by kind and
 * name, a link by both ends and the relationship, a plan step by action and object. The
 * parts are joined with U+0000, a character that kinds and relationship names never hold
 * and manifests refuse in values, so distinct tuples give distinct keys. The brand keeps
 * keys of different tuples apart at compile time: a link key cannot be looked up in a map
 * of object keys.
 */

declare const brand: unique symbol;

/** A string key that stands for a tuple of strings; `Tag` names what the tuple is. */
export type Key<Tag> = string & { readonly [brand]: Tag };

const SEPARATOR = '\u0000';

/** The key of `parts` (U+0000-joined); the caller names the tag: `joinKey<'link'>(...)`. */
export function joinKey<Tag>(...parts: readonly string[]): Key<Tag> {
  return parts.join(SEPARATOR) as Key<Tag>;
}

/** The parts a key was joined from (for keys whose parts contain no U+0000). */
export function splitKey(key: Key<unknown>): string[] {
  return key.split(SEPARATOR);
}

/**
 * The key of one object: its kind (a resource type, or any other type name such as a
 * template kind) and a name that is unique per kind (its name, or its id within one run).
 */
export type ObjectKey<Kind extends string = string> = Key<{ readonly object: Kind }>;

/** The key of the object `name` of `kind`. */
export function objectKey<Kind extends string>(kind: Kind, name: string): ObjectKey<Kind> {
  return joinKey<{ readonly object: Kind }>(kind, name);
}

/** The kind and name an {@link objectKey} was made of (the name may contain anything). */
export function parseObjectKey<Kind extends string>(key: ObjectKey<Kind>): { readonly kind: Kind; readonly name: string } {
  const at = key.indexOf(SEPARATOR);
  return { kind: key.slice(0, at) as Kind, name: key.slice(at + 1) };
}
