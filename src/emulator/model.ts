/**
 * The emulator's data model, shared by its server (routes, sessions, configurations) and
 * its pure parts (defaults, attribute checks, filters, validator).
 *
 * Objects are immutable values: an edit replaces the stored object with a new one, so a
 * session's working copy is a cheap clone of the per-type maps (copy-on-write), and
 * unchanged subtrees (such as server defaults) are shared between objects.
 */
import { KINDS } from '../kinds/index.js';
import type { ResourceType, Variant } from '../kinds/index.js';
import type { Severity, StoredObject } from '../kinds/emulator-hooks.js';

// The JSON types and the stored object are defined beside the kinds' emulator hooks, which
// read them too (the kinds never import the emulator).
export type { DenyRuleUsage, Json, JsonObject, StoredObject } from '../kinds/emulator-hooks.js';

/** The objects of one configuration (active, saved, or a session's working copy). */
export interface ConfigContent {
  /** Per resource type (every kind of the registry `KINDS`), objects by id. */
  readonly objects: Record<ResourceType, Map<string, StoredObject>>;
  /** Next id to hand out on create (ids never repeat within one content lineage). */
  nextId: number;
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
function mapsPerKind(map: (type: ResourceType) => Map<string, StoredObject>): ConfigContent['objects'] {
  const objects: Partial<ConfigContent['objects']> = {};
  for (const kind of KINDS) objects[kind.type] = map(kind.type);
  return objects as ConfigContent['objects'];
}

/** A fresh empty content: an empty map for every kind of the registry. */
export function emptyContent(): ConfigContent {
  return { objects: mapsPerKind(() => new Map()), nextId: 1 };
}

/** A copy-on-write clone: new maps, shared immutable objects. */
export function cloneContent(content: ConfigContent): ConfigContent {
  return { objects: mapsPerKind((type) => new Map(content.objects[type])), nextId: content.nextId };
}
