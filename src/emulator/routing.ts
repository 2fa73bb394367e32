/**
 * The shapes route modules share: the emulator's state (`EmulatorCore`), one authenticated
 * call (`Call`) and route definitions. Routing itself lives in `server.ts`.
 */
import type { Variant } from '../kinds/index.js';
import { kindByCollection, kindExistsIn } from '../kinds/index.js';
import type { KindDefinition } from '../kinds/index.js';
import type { KeyRing } from './api-keys.js';
import type { ConfigurationStore } from './configurations.js';
import { isJsonObject } from './attributes.js';
import type { ConfigContent, Json, ModelContext } from './model.js';
import type { Reply } from './responses.js';
import { EmulatorApiError, errors } from './responses.js';
import type { Session, SessionStore } from './sessions.js';
import type { SystemState } from './routes-system.js';
import { isBuiltInId } from '../api/documents.js';

/** Everything a route may read or change. */
export interface EmulatorCore {
  readonly variant: Variant;
  readonly model: ModelContext;
  readonly sessions: SessionStore;
  readonly configurations: ConfigurationStore;
  readonly keys: KeyRing;
  /** The node and the license (routes-system.ts); the node's `hostName` is also `GET /system/status/node`'s. */
  readonly system: SystemState;
  /** Empty configurations hold the kinds' built-in entities (option `builtIns`). */
  readonly builtIns: boolean;
}

/** One authenticated call, as route handlers see it. */
export interface Call {
  readonly core: EmulatorCore;
  readonly method: string;
  /** Path segments after the base path, e.g. `['configuration', 'mappings', '4']`. */
  readonly segments: readonly string[];
  /** Path parameters named in the route pattern (`:id` → `params.id`). */
  readonly params: Readonly<Record<string, string>>;
  /** Query parameters, decoded; repeated parameters keep every value in order. */
  readonly query: ReadonlyMap<string, readonly string[]>;
  readonly session: Session;
  /**
   * The JSON body; undefined when the request has none (no body, empty, or only whitespace).
   * @throws EmulatorApiError 415 when a body comes with a Content-Type other than JSON, 400
   * `INVALID_REQUEST_FORMAT` when it is not JSON.
   */
  json(): Json | undefined;
  /** The raw body bytes (for binary uploads such as ZIP imports). */
  raw(): Buffer;
  /** The request's Content-Type header, when sent. */
  readonly contentType: string | undefined;
}

/** A route: method, path pattern (`:name` segments are parameters) and its rules. */
export interface Route {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  readonly pattern: readonly string[];
  /** A modifying call: refused with 403 for read-only keys. */
  readonly modifying: boolean;
  /** Needs a loaded configuration (400 `CONFIGURATION_LOAD_REQUIRED` otherwise). */
  readonly needsLoad: boolean;
  handle(call: Call): Reply;
}

/** The session's working copy. @throws EmulatorApiError 400 CONFIGURATION_LOAD_REQUIRED when none is loaded. */
export function workingCopy(call: Call): ConfigContent {
  const working = call.session.working;
  if (!working) throw errors.loadRequired();
  return working;
}

/** The kind served at `/configuration/{collection}` in this variant. @throws EmulatorApiError 404 otherwise. */
export function kindAt(call: Call, collection: string): KindDefinition {
  const kind = kindByCollection(collection);
  if (!kind || !kindExistsIn(kind, call.core.variant)) {
    throw noEndpoint(`/configuration/${collection}`);
  }
  // A singleton is served by GET and PATCH on its path alone (routes-singletons.ts): no list, create, id or delete.
  if (kind.singleton) throw new EmulatorApiError(405, 'METHOD_NOT_ALLOWED', `${call.method} is not allowed here: ${kind.type} is a singleton, read with GET and changed with PATCH on /configuration/${kind.singleton.path}`);
  return kind;
}

/** 404 `NOT_FOUND` for a path that names no endpoint (a typo in the URL, docs/gateway-api.md "Errors"). */
export function noEndpoint(path: string): EmulatorApiError {
  return new EmulatorApiError(404, 'NOT_FOUND', `no endpoint ${path}`);
}

/** A named path parameter. @throws Error when the route pattern lacks it (a programming error). */
export function param(call: Call, name: string): string {
  const value = call.params[name];
  if (value === undefined) throw new Error(`route has no parameter ${name}`);
  return value;
}

export { isJsonObject } from './attributes.js';

/**
 * Refuses modification of a built-in entity: ids of built-ins are negative
 * (docs/gateway-api.md "Documents and ids").
 * @throws EmulatorApiError 409 (400 on the earliest variant) DEFAULT_ENTITY_MODIFICATION.
 */
export function refuseBuiltIn(call: Call, type: string, id: string): void {
  if (isBuiltInId(id)) throw errors.defaultEntity(`${type} ${id}`, call.core.variant);
}

/** Makes `content` the session's working copy, as loaded now (for the OUTDATED_CONFIGURATION check). */
export function loadWorkingCopy(call: Call, content: ConfigContent): void {
  call.session.working = content;
  call.session.loadedAtActivation = call.core.configurations.activationCount();
}

/** The `data` member of a JSON:API request body. @throws EmulatorApiError 400 INVALID_REQUEST_FORMAT when absent. */
export function requestData(body: Json | undefined): Json {
  if (!isJsonObject(body) || !('data' in body)) throw errors.invalidFormat("the body must be a JSON:API document with a 'data' member");
  return body.data ?? null;
}

/** A JSON value as shown in an error detail. */
export function show(value: Json | undefined): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}
