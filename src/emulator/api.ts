/**
 * The emulator's programmatic API: the types `startEmulator` (src/emulator/index.ts)
 * takes and returns. Fixed: tests and other modules are written against them.
 *
 * `export function startEmulator(options?: EmulatorOptions): Promise<RunningEmulator>;`
 *
 * HTTP behaviour summary (details in docs/gateway-api.md; where it is silent, this is the decision):
 * - Base path `/airlock/rest`; double slashes in paths are collapsed. Responses are JSON:API envelopes `{meta:{type:'jsonapi.metadata.document', timestamp}, data}` with `Content-Type: application/json`; error documents `{meta:{type,timestamp,rid}, errors:[{code, status, title, detail}]}`.
 * - `POST /session/create` with `Authorization: Bearer <key>` → 200, `Set-Cookie: JSESSIONID=<random>; Path=/; HttpOnly` (+ `; Secure` under TLS); wrong/missing key, or a key that is a JWT past its `exp` → 401. Every other call needs a valid `JSESSIONID` cookie (parsed tolerantly, also when a client echoes the whole Set-Cookie value; a Bearer header beside it is ignored) → else 401. A read-only key's session gets 403 on every modifying call (resource/relationship POST/PATCH/DELETE, maintenance, activate, save, configuration delete); GETs, session create/terminate and loads are allowed. `POST /session/terminate` → 200. Idle timeout → the cookie stops working (401).
 * - `GET /system/status/node` → 200 `data: {type:'node-status', id:'node', attributes:{version, hostName, failoverState:'standalone'}}`; version per variant as major.minor: earliest '7.8', middle '8.2', latest '8.6'. `GET`/`PATCH`/`DELETE /configuration/license` (type `license-response`; also a side-effect-free keep-alive), `GET`/`PATCH /configuration/nodes/current` (`hostName`, also checked by a configuration import): routes-system.ts.
 * - Before a load, every `/configuration/...` call except `GET /configuration/configurations` answers 400 `CONFIGURATION_LOAD_REQUIRED`.
 * - Collections: `/configuration/virtual-hosts`, `/mappings`, `/back-end-groups`, `/ssl-certificates`, `/acme-services` (latest variant only; 404 otherwise). Create 201 with the full object; read 200/404 `ENTITY_NOT_FOUND`; PATCH 200 with the full object; DELETE 204. Ids are strings holding integers. Unknown attribute / wrong type / bad enum → 400 `INVALID_VALUE`; body not JSON → 400 `INVALID_REQUEST_FORMAT`; wrong `data.type`, empty attributes, id mismatch → 400 (`INVALID_REQUEST_FORMAT` for a missing/wrong `type`, `INVALID_VALUE` for empty attributes or id disagreeing with the path); a missing `data.id` on PATCH is tolerated; Content-Type other than application/json (ignoring parameters like charset; also `application/vnd.api+json`) on a request with a body → 415. Built-in entities with negative ids (the kinds' `builtIns`, option `builtIns`; mapping templates have negative ids too) → 409 `DEFAULT_ENTITY_MODIFICATION` (400 on the earliest variant) on PATCH, DELETE, item actions and relationship calls on them, and on a link from another object that would set a built-in's to-one relationship.
 * - Content sub-resources `GET`/`PUT /{collection}/{id}/content` of the kinds that declare one (`KindDefinition.content`): PUT with an `application/octet-stream` body → 204 (415 for another media type), GET → 200 with the stored bytes as `application/octet-stream`.
 * - Relationship endpoints `PATCH`/`DELETE /{collection}/{id}/relationships/{name}` → 204, bodies `{data:[{type,id}]}` or `{data:{type,id}}` (to-one); ids as strings or numbers. Both sides show the link in `relationships` (`{data:[{type,id}]}`, `[]` when empty; to-one `{data:{type,id}}`, the member left out when unset). Deleting an object removes its links. Linking a to-one relationship replaces the previous link.
 * - Validator messages `GET /configuration/validator-messages[?filter=...]` → `data[]` of `{type:'validator-message', id, meta:{severity}, attributes:{code, title, detail, meta:{severity, model:{type,id}}}}`, recomputed from the session's working copy on each GET. Activation (`POST /configuration/configurations/activate`) is refused with 400 code `VALIDATION_FAILED` while any ERROR exists; after another session activated since this session's load → 409 `OUTDATED_CONFIGURATION` unless `options.ignoreOutdatedConfiguration` is true; success → 200.
 *
 * The pure model modules that the server imports (fixed signatures):
 * ```ts
 * // src/emulator/attributes.ts
 * /** Coerces "true"/"false" strings where the schema says boolean, then checks against wireSchema(type, variant, {keepRanges:false}) compiled once per (type, variant) with ajv (draft 2020-12). *\/
 * export function checkAttributes(type: ResourceType, variant: Variant, attributes: unknown):
 *   { ok: true; value: JsonObject } | { ok: false; detail: string };   // detail e.g. "unknown attribute 'tls.fooBar'" / "'keepAliveTimeout' must be integer"
 * /** Deep merge for PATCH (docs/gateway-api.md "Rules for PATCH": nested objects merge at every depth): objects merge recursively, arrays and scalars replace; unchanged subtrees of `base` are shared, not copied. *\/
 * export function mergeAttributes(base: Readonly<JsonObject>, patch: Readonly<JsonObject>): JsonObject;
 * /** The attributes as GET returns them: write-only attributes (schema `writeOnly`) removed. *\/
 * export function readableAttributes(type: ResourceType, attributes: Readonly<JsonObject>): JsonObject;
 *
 * // src/emulator/defaults.ts
 * /** Full attribute tree of a new object: the server defaults of server-defaults/<type>.yaml (filtered to the variant, with sensible defaults added for variant-only attributes and for ssl-certificate/acme-service) merged with `given`; list items get their item defaults (backendHosts[]: mode ENABLED, spare false, weight 100, protocol HTTP, port 80). Defaults subtrees are shared between objects (immutable). *\/
 * export function newObjectAttributes(type: ResourceType, variant: Variant, given: Readonly<JsonObject>): JsonObject;
 * /** Applies list-item defaults after a PATCH replaced a list (e.g. backendHosts). *\/
 * export function fillItemDefaults(type: ResourceType, attributes: Readonly<JsonObject>): JsonObject;
 *
 * // src/api/filter.ts (the grammar the emulator serves and the client sends)
 * export class FilterSyntaxError extends Error {}
 * /** Parses the `filter` query values (docs/gateway-api.md "Filter syntax"): one condition is `property operator value`, operators `==` (exact) and `=@` (substring), case sensitive; several filter parameters AND; commas inside one value OR (a comma piece without an operator is another value for the previous property and operator). Values arrive raw or URL-encoded (decode before calling). @throws FilterSyntaxError *\/
 * export function parseFilters(values: readonly string[]): Filter;
 * /** True when the resource matches. `property` is a dotted path looked up first in `attributes`, then in the attribute path `properties` (the kind's `filterProperties`) gives for it (the mapping property `label` matches the `labels` list), then in the resource object itself (`type`, `id`, `meta.severity`); for arrays (e.g. `labels`), a match of any element counts. Numbers and booleans compare by their string form. *\/
 * export function matchesFilter(filter: Filter, resource: { type: string; id: string; attributes?: unknown; meta?: unknown }, properties?: FilterProperties): boolean;
 *
 * // src/emulator/validator.ts
 * /** Validator messages of a configuration, recomputed on each call (rules in docs/gateway-api.md "Validator messages"). Sorted deterministically. *\/
 * export function validatorMessages(content: ConfigContent, context: ModelContext): ValidatorMessage[];
 * ```
 * (`JsonObject`, `ConfigContent`, `ValidatorMessage`, `ModelContext` come from `src/emulator/model.ts`; `ResourceType`, `Variant` from `src/kinds/index.ts`.)
 */
import type { LoginAppControl } from './login-app.js';
import type { OpenApiDocument } from './api-docs.js';

export interface FaultRule {
  method?: string;              // exact HTTP method; any when absent
  path: string | RegExp;        // string: glob on the request path after the base path, '*' = any characters, e.g. '/configuration/mappings*'
  latencyMs?: number;           // added delay before handling
  status?: number;              // answer with this status and an error document (errors[0].code 'INJECTED_FAULT') instead of handling
  nth?: number;                 // only the Nth matching call (1-based) triggers status/drop/expireSessions
  fraction?: number;            // 0..1: this share of matching calls triggers (deterministic: seeded PRNG, option faultSeed)
  drop?: boolean;               // destroy the connection without any response
  expireSessions?: boolean;     // expire all sessions, then handle the call normally (it will get 401)
}
export interface RequestLogEntry { method: string; path: string; query: string; status: number; durationMs: number }  // never headers, cookies, keys or bodies
export interface EmulatorOptions {
  host?: string;                // default '127.0.0.1'
  port?: number;                // default 8443; 0 = any free port
  tls?: boolean | { cert: string; key: string };   // default true: self-signed certificate generated at start with `selfsigned`
  basePath?: string;            // default '/airlock/rest'
  apiKey?: string;              // administrator key; a random JWT-shaped key is generated when absent
  readOnlyApiKey?: string;      // read-only key; generated when absent
  variant?: 'earliest' | 'middle' | 'latest';     // default 'latest'
  stateFile?: string;           // persist configurations across restarts (atomic writes)
  latencyMs?: number;           // added to every call
  sessionIdleTimeoutMs?: number;// default 600000 (10 minutes)
  faults?: FaultRule[];
  faultSeed?: number;
  loginApp?: boolean;           // default false: also serve a login application's signing keys (JWKS) under /auth/rest, with a rotation control (src/emulator/login-app.ts)
  builtIns?: boolean;           // default true: a fresh emulator (no state file with content yet) lists the kinds' built-in entities (negative ids, read-only); false: it starts empty
  apiDocs?: (served: OpenApiDocument) => unknown;  // replaces the description served at GET /v3/api-docs (and .yaml) by what it returns (undefined: 404), for tests of clients that read it against a gateway whose description differs
}
export interface RunningEmulator {
  readonly url: string;                 // base URL including the base path, e.g. 'https://127.0.0.1:51234/airlock/rest'
  readonly apiKey: string;
  readonly readOnlyApiKey: string;
  readonly variant: 'earliest' | 'middle' | 'latest';
  readonly caCertificate: string | undefined;   // PEM of the server certificate when TLS is on (to trust it)
  readonly loginApp?: LoginAppControl;           // with option loginApp: the login application's keys and rotation control
  readonly requestLog: RequestLogEntry[];       // appended per request; tests may clear it with `requestLog.length = 0`
  readonly faults: { add(rule: FaultRule): void; clear(): void };
  expireSessions(): void;
  openSessionCount(): number;
  /** JSON snapshot of the currently active configuration (id, comment, objects with attributes and relationships), for asserting it did not change. */
  activeSnapshot(): unknown;
  close(): Promise<void>;
}
