/**
 * The emulator's data model, shared by its server (routes, sessions, configurations) and
 * its pure parts (defaults, attribute checks, filters, validator).
 *
 * Objects are immutable values: an edit replaces the stored object with a new one, so a
 * session's working copy is a cheap clone of the per-type maps (copy-on-write), and
 * unchanged subtrees (such as server defaults) are shared between objects.
 */
import type { ResourceType, Variant } from '../kinds/index.js';

/** A JSON value as parsed from a request body. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** One configuration object as stored (ids are strings holding integers, e.g. "4"). */
export interface StoredObject {
  readonly type: ResourceType;
  readonly id: string;
  /** Full attribute tree (server defaults filled in), write-only attributes included. */
  readonly attributes: Readonly<JsonObject>;
  /**
   * Links by relationship name (the API's names, e.g. `mappings`, `ssl-certificate`) to the
   * ids of the linked objects. A to-one relationship holds at most one id. Both sides of a
   * link are always stored.
   */
  readonly relationships: Readonly<Record<string, readonly string[]>>;
}

/** The objects of one configuration (active, saved, or a session's working copy). */
export interface ConfigContent {
  /** Per resource type, objects by id. */
  readonly objects: Record<ResourceType, Map<string, StoredObject>>;
  /** Next id to hand out on create (ids never repeat within one content lineage). */
  nextId: number;
}

/** A validator message as served by `GET /configuration/validator-messages` (docs/gateway-api.md "Validator messages"). */
export interface ValidatorMessage {
  readonly severity: 'ERROR' | 'WARNING' | 'INFO';
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

/** A fresh empty content. */
export function emptyContent(): ConfigContent {
  return {
    objects: {
      'virtual-host': new Map(),
      mapping: new Map(),
      'back-end-group': new Map(),
      'ssl-certificate': new Map(),
      'acme-service': new Map(),
    },
    nextId: 1,
  };
}

/** A copy-on-write clone: new maps, shared immutable objects. */
export function cloneContent(content: ConfigContent): ConfigContent {
  return {
    objects: {
      'virtual-host': new Map(content.objects['virtual-host']),
      mapping: new Map(content.objects.mapping),
      'back-end-group': new Map(content.objects['back-end-group']),
      'ssl-certificate': new Map(content.objects['ssl-certificate']),
      'acme-service': new Map(content.objects['acme-service']),
    },
    nextId: content.nextId,
  };
}
