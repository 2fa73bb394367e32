/**
 * The emulator's data model, shared by its server (routes, sessions, configurations) and
 * its pure parts (defaults, attribute checks, filters, validator).
 *
 * Objects are immutable values: an edit replaces the stored object with a new one, so a
 * session's working copy is a cheap clone of the per-type maps (copy-on-write), and
 * unchanged subtrees (such as server defaults) are shared between objects. The one
 * exception is a relationship id list that a content owns (`ConfigContent.owned`): no
 * other content or stored object can see it, so appending to it and removing from it in
 * place is safe.
 */
import { KINDS } from '../kinds/index.js';
import type { ResourceType, Variant } from '../kinds/index.js';
import type { Severity, StoredObject } from '../kinds/emulator-hooks.js';

// The JSON types and the stored object are defined beside the kinds' emulator hooks, which
// read them too (the kinds never import the emulator).
export type { Json, JsonObject, StoredObject, StoredUsage } from '../kinds/emulator-hooks.js';

/**
 * The objects of one kind by id, with an index of their `name` attributes built on the first
 * {@link idsNamed} and kept up to date by `set`, `delete` and `clear` from then on. A name
 * check or a `name==` filter then costs a lookup, not a pass over 100,000 mappings.
 */
export class ObjectMap extends Map<string, StoredObject> {
  /** Ids by name (objects whose `name` is a string); undefined until first asked. */
  #byName: Map<string, string[]> | undefined;
  /** Ids of objects whose `name` is present but not a string (never expected; kept for filters). */
  #oddNames: Set<string> | undefined;

  /** A map holding the entries of `source` (no index yet). */
  constructor(source?: ReadonlyMap<string, StoredObject>) {
    super();
    // Entries are added through Map's own `set`: the index is built lazily anyway.
    if (source) for (const [id, obj] of source) super.set(id, obj);
  }

  override set(id: string, obj: StoredObject): this {
    if (this.#byName) {
      const old = super.get(id);
      if (old) this.#unindex(old);
      this.#index(obj);
    }
    return super.set(id, obj);
  }

  override delete(id: string): boolean {
    const old = super.get(id);
    if (old && this.#byName) this.#unindex(old);
    return super.delete(id);
  }

  override clear(): void {
    this.#byName = undefined;
    this.#oddNames = undefined;
    super.clear();
  }

  /**
   * Ids of the objects whose `name` attribute is `name`, in no particular order; plus, when
   * `withOdd` is set, the ids of objects whose `name` is present but not a string (a filter
   * compares such a value by its text).
   */
  idsNamed(name: string, withOdd = false): readonly string[] {
    if (!this.#byName) {
      this.#byName = new Map();
      this.#oddNames = new Set();
      for (const obj of super.values()) this.#index(obj);
    }
    const ids = this.#byName.get(name) ?? [];
    return withOdd && this.#oddNames && this.#oddNames.size > 0 ? [...ids, ...this.#oddNames] : ids;
  }

  #index(obj: StoredObject): void {
    const name = obj.attributes.name;
    if (name === undefined) return;
    if (typeof name !== 'string') {
      this.#oddNames?.add(obj.id);
      return;
    }
    const ids = this.#byName?.get(name);
    if (ids) ids.push(obj.id);
    else this.#byName?.set(name, [obj.id]);
  }

  #unindex(obj: StoredObject): void {
    const name = obj.attributes.name;
    if (typeof name !== 'string') {
      this.#oddNames?.delete(obj.id);
      return;
    }
    const ids = this.#byName?.get(name);
    if (!ids) return;
    const at = ids.indexOf(obj.id);
    if (at >= 0) ids.splice(at, 1);
    if (ids.length === 0) this.#byName?.delete(name);
  }
}

/** The objects of one configuration (active, saved, or a session's working copy). */
export interface ConfigContent {
  /** Per resource type (every kind of the registry `KINDS`), objects by id. */
  readonly objects: Record<ResourceType, ObjectMap>;
  /** Next id to hand out on create (ids never repeat within one content lineage). */
  nextId: number;
  /**
   * Relationship id lists that only this content holds: made by its own link edits since it
   * was last cloned ({@link cloneContent} empties it), so links.ts may append to them and
   * remove from them in place instead of copying a virtual host's 100,000 mapping ids on
   * every link. Each maps to the positions of its ids (built on the first removal, kept up
   * to date from then on; null before), so a removal finds its id without a pass.
   */
  owned: WeakMap<readonly string[], Map<string, number> | null>;
}

/** A validator message as served by `GET /configuration/validator-messages` (docs/gateway-api.md "Validator messages"). */
export interface ValidatorMessage {
  readonly severity: Severity;
  /** Stable machine code, e.g. `DUPLICATE_REGEX_PRIORITY`. */
  readonly code: string;
  /** Short title. */
  readonly title: string;
  /** A human sentence naming the object and what is wrong. */
  readonly detail: string;
  /** The object the message is about. */
  readonly model: { readonly type: ResourceType; readonly id: string };
}

/** Emulator options that the pure parts need. */
export interface ModelContext {
  readonly variant: Variant;
}

/** One map per kind of the registry, each made by `map`. */
function mapsPerKind(map: (type: ResourceType) => ObjectMap): ConfigContent['objects'] {
  const objects: Partial<ConfigContent['objects']> = {};
  for (const kind of KINDS) objects[kind.type] = map(kind.type);
  return objects as ConfigContent['objects'];
}

/** A fresh empty content: an empty map for every kind of the registry. */
export function emptyContent(): ConfigContent {
  return { objects: mapsPerKind(() => new ObjectMap()), nextId: 1, owned: new WeakMap() };
}

/**
 * Ends `content`'s ownership of its relationship lists (`ConfigContent.owned`): from now on
 * a link edit copies a list before changing it, so whoever holds the current objects (an
 * answer being written) keeps seeing them as they are.
 */
export function disown(content: ConfigContent): void {
  content.owned = new WeakMap();
}

/**
 * A copy-on-write clone: new maps, shared immutable objects. From now on both contents hold
 * the same relationship lists, so neither owns any (`content.owned` is emptied too).
 */
export function cloneContent(content: ConfigContent): ConfigContent {
  disown(content);
  return { objects: mapsPerKind((type) => new ObjectMap(content.objects[type])), nextId: content.nextId, owned: new WeakMap() };
}
