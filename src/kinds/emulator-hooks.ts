/**
 * What the gateway emulator needs to know about a kind, held by the kind's own module
 * (`src/kinds/<kind>/emulator.ts`), so that the emulator's generic code never names a
 * kind. Plain JSON types and small pure helpers only: nothing here imports the emulator
 * (the emulator depends on the kinds, never the reverse).
 */
import type { KindDefinition, ResourceType, Variant } from './kind.js';
import type { DenyRuleUsage } from './mapping/deny-rules.js';

/** A JSON value as parsed from a request body. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** One configuration object as the emulator stores it (ids are strings holding integers, e.g. "4"). */
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
  /**
   * A mapping's use of the built-in deny rule groups and rules, by short name (e.g.
   * `SQLI_PARAM_VALUE`, `SQL_001a`), and of custom groups and rules, by `{type}:{id}`
   * (`custom-deny-rule-group:7`); only the entries that differ from the default
   * (enabled, not log-only, no exceptions) are kept (docs/gateway-api.md "Deny rules").
   */
  readonly denyRuleUsage?: Readonly<Record<string, DenyRuleUsage>>;
  /**
   * The bytes of the object's content sub-resource, base64 (kinds with
   * `KindDefinition.content`; docs/gateway-api.md "OpenAPI and GraphQL documents");
   * absent before the first upload.
   */
  readonly content?: string;
}

/** Severity of a validator message (docs/gateway-api.md "Validator messages"). */
export type Severity = 'ERROR' | 'WARNING' | 'INFO';

/** Emits one validator message about `object` (the generic validator adds the code's title). */
export type Emit<Code extends string = string> = (severity: Severity, code: Code, object: StoredObject, detail: string) => void;

/** What the generic validator offers a kind's rules. */
export interface RuleContext {
  readonly variant: Variant;
  /** How a detail names an object: `mapping 'shop'`, or `mapping with id 4` when it has no name. */
  readonly label: (object: StoredObject) => string;
  /** True when `object` links through its relationship `name` to at least one existing object. */
  readonly linked: (object: StoredObject, name: string) => boolean;
  /** True when an object of `type` with `id` exists (ids as strings; an attribute's number is turned into one). */
  readonly exists: (type: ResourceType, id: string) => boolean;
}

/**
 * The validator rules of a kind (docs/gateway-api.md "Validator messages"): a pure
 * function of the kind's objects, linear in their number (the benchmarks run it on
 * 20,000 mappings).
 */
export interface ValidatorRules<Code extends string = string> {
  /** The short title of every code the rules emit. */
  readonly titles: Readonly<Record<Code, string>>;
  /** Emits the messages about `objects`, the kind's objects by id. */
  check(objects: ReadonlyMap<string, StoredObject>, context: RuleContext, emit: Emit<Code>): void;
}

/** Server defaults of new objects (docs/gateway-api.md "Attributes and server defaults"). */
export interface ServerDefaults {
  /**
   * The file under `server-defaults/` that holds the default attribute tree recorded from
   * a real gateway, e.g. `mapping.yaml`; none when the kind has no recording.
   */
  readonly recorded?: string;
  /**
   * Defaults the recording lacks (variant-only attributes, attributes the recording left
   * out), or all of them when there is none. Members that do not exist in a variant are
   * dropped by the emulator. Merged under the recording.
   */
  readonly extra: Readonly<JsonObject>;
}

/**
 * An endpoint `{method} /configuration/{collection}/{id}/{segment}` that sets attributes of
 * one object and answers 204 (a virtual host's maintenance page).
 */
export interface ItemAction {
  readonly method: 'POST' | 'DELETE';
  readonly segment: string;
  /** Merged into the object's attributes, as a PATCH would. */
  readonly attributes: Readonly<JsonObject>;
}

/** A built-in template (negative id, read-only). */
export interface BuiltInTemplate {
  readonly id: string;
  readonly name: string;
  /** Attributes given over the server defaults. */
  readonly given: Readonly<JsonObject>;
}

/**
 * Templates and source objects of a kind whose `KindDefinition.template` is set
 * (docs/gateway-api.md "Mapping templates").
 */
export interface TemplateHooks {
  /** The built-in templates; the first is the one that always exists. */
  readonly builtIn: readonly BuiltInTemplate[];
  /** The attribute that names an object's source (a template or another object of the kind). */
  readonly sourceAttribute: string;
  /** Attributes a pull from the source never copies: the object's identity and where it is served. */
  readonly notPulled: readonly string[];
}

/**
 * An object the gateway ships with (docs/gateway-api.md "Documents and ids"): listed with a
 * negative id, never changed. A fresh emulator is seeded with the built-ins of every kind
 * (option `builtIns`).
 */
export interface BuiltInObject {
  /** A negative integer id, e.g. `-1000`, unique within the kind. */
  readonly id: string;
  /** Attributes given over the server defaults. */
  readonly given: Readonly<JsonObject>;
  /**
   * Links to other built-ins, by relationship name (the API's names) to their ids; each
   * link is stored on both sides, so it is declared on one side only.
   */
  readonly links?: Readonly<Record<string, readonly string[]>>;
}

/**
 * Objects of a kind exported and imported on their own, as a ZIP holding one XML file
 * (docs/gateway-api.md "Export and import").
 */
export interface ObjectArchive {
  /** The XML file inside the ZIP, e.g. `alec_table.xml`. */
  readonly file: string;
  /** The element that holds the objects, e.g. `Mappings` (below the root). */
  readonly listElement: string;
  /** The element of one object, e.g. `Mapping`. */
  readonly itemElement: string;
  /**
   * The list attribute whose items the archive lists under `AllowRules`, each with the
   * built-in "no restriction" `IpPattern` (mappings: `allowRules`); none when the kind has none.
   */
  readonly allowRulesAttribute?: string;
  /**
   * What the archived element of an object states beyond `Name` and `AllowRules`, read back
   * from an uploaded archive (a mapping's use of the built-in deny rules); none when absent.
   */
  readonly usage?: ArchiveUsage;
}

/** One XML element of the export archives (the shape of the emulator's `XmlElement`). */
export interface ArchiveElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly ArchiveElement[];
  readonly text: string;
}

/**
 * The use of catalogue entries that an object archive carries with each object
 * ({@link StoredObject.denyRuleUsage}; docs/gateway-api.md "Export and import").
 */
export interface ArchiveUsage {
  /** The elements that state `object`'s use, after its `Name` and `AllowRules`. */
  elements(object: StoredObject): ArchiveElement[];
  /** The sections the configuration archive (`alec_full.xml`) holds after the archived objects (the catalogue). */
  sections(): ArchiveElement[];
  /**
   * The use an uploaded object's element states, by stored key.
   * @throws what `errors.invalidValue` makes, for an unknown entry or a flag that is no boolean
   */
  read(item: ArchiveElement, file: string, errors: KindErrors): ReadonlyMap<string, StoredUsage>;
  /**
   * The stored form of the use `given` (read from an archive) over `kept`, the replaced
   * object's stored use (what an archive does not carry is kept); undefined when all is default.
   */
  stored(given: ReadonlyMap<string, StoredUsage>, kept: StoredObject['denyRuleUsage']): Record<string, StoredUsage> | undefined;
}

/** One entry of {@link StoredObject.denyRuleUsage}. */
export type StoredUsage = NonNullable<StoredObject['denyRuleUsage']>[string];

/** The errors a kind's emulator code raises; the emulator answers them as the API does (docs/gateway-api.md "Errors"). */
export interface KindErrors {
  /** 404 `ENTITY_NOT_FOUND`: `{what} not found`. */
  notFound(what: string): Error;
  /** 400 `INVALID_REQUEST_FORMAT`. */
  invalidFormat(detail: string): Error;
  /** 400 `INVALID_VALUE`. */
  invalidValue(detail: string): Error;
}

/** The objects of one kind in a working copy, by id. */
export interface KindObjects {
  get(id: string): StoredObject | undefined;
  has(id: string): boolean;
  /** Stores `object` under `id` (replacing what was there). */
  set(id: string, object: StoredObject): void;
}

/** A request to one of a kind's own endpoints ({@link KindRoute}), as the emulator hands it over. */
export interface KindCall {
  /** The path parameter `name` of the route's pattern (`:name`). */
  param(name: string): string;
  /** The request body's `data` member. @throws `errors.invalidFormat` when the body is no JSON:API document. */
  data(): Json;
  /**
   * The objects of `type` in the session's working copy, by id; what a handler sets is kept.
   * @throws 400 `CONFIGURATION_LOAD_REQUIRED` when no configuration is loaded.
   */
  objects(type: ResourceType): KindObjects;
  readonly errors: KindErrors;
}

/**
 * An endpoint a kind serves beyond the generic resource routes (the built-in deny rules
 * and a mapping's use of them). It needs a loaded configuration; a modifying one is refused
 * to read-only keys.
 */
export interface KindRoute {
  readonly method: 'GET' | 'PATCH';
  /** Path segments after the base path, e.g. `['configuration', 'deny-rules', ':shortName']`; `:name` segments are parameters. */
  readonly pattern: readonly string[];
  readonly modifying: boolean;
  /** The `data` member of the 200 answer. @throws what `call.errors` makes */
  handle(call: KindCall): Json;
}

/** The emulator's view of one kind. */
export interface EmulatorHooks {
  /** How validator messages and errors name an object of this kind, e.g. `virtual host`. */
  readonly label: string;
  /** Server defaults of new objects and of list items. */
  readonly defaults: ServerDefaults;
  /** Validator rules about objects of this kind; none when the gateway checks nothing of it. */
  readonly validator?: ValidatorRules;
  /** Names are unique among objects of this kind: a create or rename onto a used name is refused. */
  readonly uniqueNames?: boolean;
  /** Endpoints below one object that set attributes (`POST`/`DELETE .../{id}/maintenance`). */
  readonly itemActions?: readonly ItemAction[];
  /**
   * Objects of this kind are exported and imported on their own, as ZIP archives holding
   * this XML file (docs/gateway-api.md "Export and import").
   */
  readonly objectArchive?: ObjectArchive;
  /**
   * Mappings use objects of this kind one by one: `GET`/`PATCH
   * /configuration/mappings/{mid}/{collection}/{id}` serves the use as a resource of `type`
   * with the attribute `logOnly` (docs/gateway-api.md "Deny rules"); none when absent.
   */
  readonly mappingUsage?: { readonly type: string };
  /**
   * True for the kind of the node answering the call: `GET`/`PATCH
   * /configuration/{collection}/current` serve it from the emulator's own state, outside any
   * configuration, with its `hostName` (docs/gateway-api.md "License and nodes"). None when absent.
   */
  readonly servesCurrent?: boolean;
  /**
   * The attributes a create or PATCH stores, completed as the gateway completes them:
   * `stored` is the object's attributes after the write, `given` the write's own attributes,
   * `id` the object's id (a custom deny rule's pattern written with an empty `name` gets a
   * generated one, docs/gateway-api.md "Deny rules"). Stored as they are when absent.
   */
  readonly completeWrite?: (stored: Readonly<JsonObject>, given: Readonly<JsonObject>, id: string) => JsonObject;
  /** The objects of this kind the gateway ships with (negative ids, read-only). */
  readonly builtIns?: readonly BuiltInObject[];
  /** Built-in templates and source objects; only with `KindDefinition.template`. */
  readonly templates?: TemplateHooks;
  /**
   * The kind's own endpoints, given the kind itself and every kind of the registry (a
   * mapping serves the built-in deny rules and its use of them, and of the kinds whose
   * hooks declare `mappingUsage`); none when absent.
   */
  readonly routes?: (self: KindDefinition, kinds: readonly KindDefinition[]) => readonly KindRoute[];
}

/** The value at `path` below `node`, or undefined when a step is missing or not an object. */
export function member(node: unknown, ...path: string[]): unknown {
  let current = node;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || Array.isArray(current) || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
