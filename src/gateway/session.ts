/**
 * The calls of the gateway's configuration REST API in one session (docs/gateway-api.md):
 * load and activate configurations, list, get, create, update and delete resources, link
 * and unlink them, read validator messages, the configurations list and the node's
 * version. {@link GatewaySession} is the session of src/gateway/channel.ts with these
 * calls; each says how it is retried there: idempotent calls (GET, PATCH, DELETE,
 * relationship PATCH/DELETE, load-active before any edit) on 429/502/503/504 and
 * connection faults, a resource POST only through {@link GatewaySession.createChecked},
 * activation never.
 */
import type { ObjectLabel } from './errors.js';
import { ApiError, UnexpectedResponseError } from './errors.js';
import {
  DocumentShapeError,
  activationAnswerProblem,
  configurationsOf,
  parseJson,
  resourceOf,
  resourcesOf,
  toResource,
  validatorMessagesOf,
} from '../api/documents.js';
import { DataArraySplitter } from './data-array.js';
import { CreatedAnswers, shapeProblem } from './created-answer.js';
import type { ApiResource, ConfigurationEntry, NewResource, ResourceIdentifier, ValidatorMessage } from '../api/documents.js';
import { SessionChannel, isConnectPhase } from './channel.js';
import { retrying } from './retry.js';
import { FILE_LIMITS } from '../core/files.js';

/** A content sub-resource below an object: its path segment and the media type of its bytes. */
export interface ContentResource {
  readonly segment: string;
  readonly mediaType: string;
  /** True when an object may have none: a 404 then reads as empty. */
  readonly optional?: boolean;
}

/** The documents' content sub-resource, `/{id}/content` as `application/octet-stream`. */
const DOCUMENT_CONTENT: ContentResource = { segment: 'content', mediaType: 'application/octet-stream' };

/** How {@link GatewaySession.createChecked} decides whether a failed create landed anyway. */
export interface CreateCheck {
  /** For kinds with a `name` attribute: looked up with `GET ?filter=name==<name>`. */
  readonly name?: string;
  /** For kinds without a name (ssl-certificate): the caller's own lookup. Wins over `name`. */
  readonly find?: () => Promise<ApiResource | undefined>;
  /** The object, for error messages; defaults to `{kind: resource.type, name}` when `name` is given. */
  readonly object?: ObjectLabel;
}

/** Size above which a projected list is framed element by element as it arrives. */
export const STREAM_THRESHOLD_BYTES = 32 * 1024 * 1024;

/** Options of {@link GatewaySession.list}. */
export interface ListOptions {
  /**
   * Shrinks each resource as it arrives (e.g. to the attributes a plan compares). The
   * response is then streamed element by element instead of parsed whole, so memory
   * stays proportional to what is kept.
   */
  readonly project?: ((resource: ApiResource) => ApiResource) | undefined;
  /**
   * With `project`: a sparse fieldset, the names of the attributes `project` reads. Each
   * element's other attributes may then be cut out unparsed (src/gateway/data-array.ts), and
   * the body is framed element by element whatever its size. `project` must itself drop
   * the attributes it does not keep: some outside the set may remain.
   */
  readonly fields?: Iterable<string> | undefined;
  /** With `project`: bodies larger than this are framed element by element as they arrive (default {@link STREAM_THRESHOLD_BYTES}). */
  readonly streamAboveBytes?: number | undefined;
  /**
   * With `project`: frame and parse every element whole, remembering nothing (no member
   * jumped over or shared: src/gateway/data-array.ts), as a plain client does; for the
   * benchmarks' bare client.
   */
  readonly plain?: boolean | undefined;
}

function configurationPath(collection: string, ...rest: string[]): string {
  return ['/configuration', collection, ...rest.map(encodeURIComponent)].join('/');
}

/** `document` with `id` added to its `data` object when that has none (a singleton's answer). */
function withIdIfNone(document: unknown, id: string): unknown {
  if (typeof document !== 'object' || document === null || !('data' in document)) return document;
  const data: unknown = document.data;
  if (typeof data !== 'object' || data === null || 'id' in data) return document;
  return { ...document, data: { ...data, id } };
}

function filterQuery(filters: readonly string[]): string {
  return filters.length === 0 ? '' : '?' + filters.map((f) => `filter=${encodeURIComponent(f)}`).join('&');
}

/** A REST session. Create with `new GatewaySession(options)` (SessionOptions, src/gateway/channel.ts), then `open()`. */
export class GatewaySession extends SessionChannel {
  /** What the answers to creates keep from one to the next (see {@link createChecked}). */
  private readonly createdAnswers = new CreatedAnswers();

  /**
   * `POST /configuration/configurations/load-active`: loads the active configuration
   * into the session. Retried: before any edit, loading again is harmless.
   */
  async loadActive(): Promise<void> {
    await this.call({ method: 'POST', path: '/configuration/configurations/load-active', retry: 'transient' });
  }

  /**
   * `POST /configuration/configurations/{id}/load`: loads a stored configuration into the
   * session (docs/gateway-api.md "Configurations and activation"). Retried like
   * {@link loadActive}: before any edit, loading again is harmless.
   * @throws ApiError (404 when there is no such configuration)
   */
  async loadConfiguration(id: string): Promise<void> {
    await this.call({ method: 'POST', path: configurationPath('configurations', id, 'load'), retry: 'transient' });
  }

  /**
   * `GET /configuration/configurations/export`: the loaded configuration as a zip archive
   * (docs/gateway-api.md "Export and import"), read as bytes. Load a configuration first.
   * @returns the archive's bytes
   */
  async exportConfiguration(): Promise<Buffer> {
    const path = '/configuration/configurations/export';
    return retrying(
      async () => {
        const chunks: Buffer[] = [];
        await this.send({ method: 'GET', path, retry: 'transient', accept: 'application/zip, application/octet-stream', sink: (chunk) => void chunks.push(chunk) });
        return Buffer.concat(chunks);
      },
      { policy: this.policy, clock: this.clock, signal: this.signal },
    );
  }

  /**
   * `GET /configuration/{collection}/{id}/content` (or the kind's own `resource`, e.g.
   * `/crl`): the bytes of an object's content sub-resource (docs/gateway-api.md "OpenAPI and
   * GraphQL documents", "Virtual hosts"). Retried like every GET.
   * @returns the bytes (empty before the first upload, and for a 404 of an optional `resource`)
   * @throws ApiError (404 when there is no such object)
   */
  async readContent(collection: string, id: string, object?: ObjectLabel, resource: ContentResource = DOCUMENT_CONTENT): Promise<Buffer> {
    const path = configurationPath(collection, id, resource.segment);
    const read = retrying(
      async () => {
        const chunks: Buffer[] = [];
        let size = 0;
        const sink = (chunk: Buffer): void => {
          size += chunk.length;
          if (size > FILE_LIMITS.content) throw new UnexpectedResponseError('GET', path, 200, `the content holds more than ${FILE_LIMITS.content / 1024 / 1024} MiB, the most gwops manages`);
          chunks.push(chunk);
        };
        await this.send({ method: 'GET', path, retry: 'transient', object, accept: resource.mediaType, sink });
        return Buffer.concat(chunks);
      },
      { policy: this.policy, clock: this.clock, signal: this.signal },
    );
    if (resource.optional !== true) return read;
    try {
      return await read;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return Buffer.alloc(0);
      throw error;
    }
  }

  /**
   * `PUT /configuration/{collection}/{id}/content` with `data` as `application/octet-stream`
   * (or the kind's own `resource`: `/crl` as `application/pkix-crl`; docs/gateway-api.md
   * "OpenAPI and GraphQL documents", "Virtual hosts"). Idempotent, so retried.
   * @throws ApiError
   */
  async writeContent(collection: string, id: string, data: Buffer, object?: ObjectLabel, resource: ContentResource = DOCUMENT_CONTENT): Promise<void> {
    await this.call({ method: 'PUT', path: configurationPath(collection, id, resource.segment), retry: 'transient', object, octets: data, octetsType: resource.mediaType });
  }

  /**
   * One `GET /configuration/{collection}` with one `filter` parameter per entry (AND;
   * docs/gateway-api.md "Filter syntax"), values URL-encoded. No pagination exists.
   * @param collection path segment, e.g. `mappings`
   * @param filters e.g. `['name=@shop-', 'label==team-shop']`
   */
  async list(collection: string, filters: readonly string[] = [], options: ListOptions = {}): Promise<ApiResource[]> {
    const path = configurationPath(collection) + filterQuery(filters);
    const project = options.project;
    const fields = options.fields === undefined ? undefined : [...options.fields];
    const threshold = options.streamAboveBytes ?? STREAM_THRESHOLD_BYTES;
    if (!project) {
      const res = await this.call({ method: 'GET', path, retry: 'transient' });
      return this.parse('GET', path, res, resourcesOf);
    }
    // A small body is parsed whole (fastest), unless a sparse fieldset is given; past the
    // threshold, or with a fieldset, the body is framed element by element instead, so
    // memory stays proportional to what is kept. Each attempt starts afresh.
    return retrying(
      async () => {
        const out: ApiResource[] = [];
        const held: Buffer[] = [];
        let heldBytes = 0;
        let splitter: DataArraySplitter | undefined;
        // The splitter, fed the chunks held so far.
        const frame = (): DataArraySplitter => {
          const framing = new DataArraySplitter((element) => out.push(project(toResource(element))), 'data', fields, { plain: options.plain === true });
          for (const part of held.splice(0)) framing.write(part);
          return framing;
        };
        const sink = (chunk: Buffer): void => {
          if (splitter) return splitter.write(chunk);
          held.push(chunk);
          heldBytes += chunk.length;
          if (heldBytes > threshold) splitter = frame();
        };
        try {
          await this.send({ method: 'GET', path, retry: 'transient', sink });
          if (!splitter && fields === undefined) return resourcesOf(parseJson(Buffer.concat(held).toString('utf8'))).map(project);
          splitter ??= frame();
          splitter.end();
        } catch (error) {
          if (error instanceof DocumentShapeError || error instanceof SyntaxError) {
            throw new UnexpectedResponseError('GET', path, 200, shapeProblem(error));
          }
          throw error;
        }
        return out;
      },
      { policy: this.policy, clock: this.clock, signal: this.signal },
    );
  }

  /** `GET /configuration/{collection}/{id}`. @throws ApiError (404 `ENTITY_NOT_FOUND`) */
  async get(collection: string, id: string, object?: ObjectLabel): Promise<ApiResource> {
    const path = configurationPath(collection, id);
    const res = await this.call({ method: 'GET', path, retry: 'transient', object });
    return this.parse('GET', path, res, resourceOf);
  }

  /**
   * `POST /configuration/{collection}` with `{data:{type,attributes}}`. Sent again only
   * when it certainly never reached the gateway (refused connection); use
   * {@link createChecked} for retries after other faults. @returns the created resource (201).
   * @throws ApiError, ConnectionError, UnexpectedResponseError
   */
  async create(collection: string, resource: NewResource, object?: ObjectLabel): Promise<ApiResource> {
    const path = configurationPath(collection);
    const res = await this.call({ method: 'POST', path, retry: 'unsent', object, body: { data: resource } });
    return this.parse('POST', path, res, resourceOf);
  }

  /**
   * A create that is retried safely: after a transient failure (429/502/503/504, a
   * dropped connection) it first checks whether the object landed anyway (by name with
   * `GET ?filter=name==<name>` (see {@link nameFilter}) and an exact comparison, or
   * `check.find` for kinds without a name) and returns it
   * if so; only otherwise is the POST sent again. A fault before the request was sent
   * (refused connection) is retried without the check.
   * @returns the created object's identifier (type and id): the rest of the answer is not read
   * @throws ApiError, ConnectionError after the retry bounds; UnexpectedResponseError when
   *   the answer holds no resource object with a type and an id; whatever the check throws
   */
  async createChecked(collection: string, resource: NewResource, check: CreateCheck): Promise<ResourceIdentifier> {
    const object = check.object ?? (check.name !== undefined ? { kind: resource.type, name: check.name } : undefined);
    const find =
      check.find ??
      (check.name !== undefined
        ? async (): Promise<ApiResource | undefined> => {
            const found = await this.list(collection, nameFilter(check.name ?? ''));
            return found.find((r) => r.attributes.name === check.name);
          }
        : undefined);
    if (!find) throw new TypeError('createChecked needs check.name or check.find');
    const path = configurationPath(collection);
    return retrying(
      async () => {
        // Only the answer's identifier is read (src/gateway/created-answer.ts).
        const answer = this.createdAnswers.reader(collection);
        const res = await this.send({ method: 'POST', path, retry: 'unsent', object, body: { data: resource }, sink: answer.sink, sinkHoldsWhole: true });
        return answer.identifier('POST', path, res.status);
      },
      {
        policy: this.policy,
        clock: this.clock,
        signal: this.signal,
        recover: async (error) => {
          if (isConnectPhase(error)) return undefined;
          const found = await find();
          return found && { type: found.type, id: found.id };
        },
      },
    );
  }

  /**
   * `PATCH /configuration/{collection}/{id}` with `{data:{type,id,attributes}}` (with `id`
   * unless `options.withId` is false; docs/gateway-api.md "Rules for PATCH": attributes
   * merge, lists replace).
   * @returns the updated resource, or undefined when the gateway answers 204
   */
  async update(collection: string, id: string, resource: NewResource, object?: ObjectLabel, options: { readonly withId?: boolean } = {}): Promise<ApiResource | undefined> {
    const path = configurationPath(collection, id);
    // Without `id` only for resources whose PATCH body has none (a mapping's use of a built-in deny rule group).
    const body = { data: { type: resource.type, ...(options.withId === false ? {} : { id }), attributes: resource.attributes } };
    const res = await this.call({ method: 'PATCH', path, retry: 'transient', object, body });
    return res.text.trim() === '' ? undefined : this.parse('PATCH', path, res, resourceOf);
  }

  /**
   * `GET /configuration/{path}` of a singleton (docs/gateway-api.md "Singletons"): its one
   * resource. The answer's `data` may carry no `id` (the path is the identity): it then gets
   * `path` as its id, which {@link updateSingleton} never sends.
   * @param path e.g. `log`, `routes/default`
   * @throws ApiError, UnexpectedResponseError when `data` is no resource object
   */
  async readSingleton(path: string): Promise<ApiResource> {
    const full = configurationPath(path);
    const res = await this.call({ method: 'GET', path: full, retry: 'transient' });
    return this.parse('GET', full, res, (document) => resourceOf(withIdIfNone(document, path)));
  }

  /**
   * `PATCH /configuration/{path}` of a singleton with `{data:{type,attributes}}` (no id;
   * docs/gateway-api.md "Singletons", "Rules for PATCH": attributes merge). Idempotent, so
   * retried.
   */
  async updateSingleton(path: string, resource: NewResource, object?: ObjectLabel): Promise<void> {
    await this.call({ method: 'PATCH', path: configurationPath(path), retry: 'transient', object, body: { data: { type: resource.type, attributes: resource.attributes } } });
  }

  /** `DELETE /configuration/{collection}/{id}` (204). */
  async remove(collection: string, id: string, object?: ObjectLabel): Promise<void> {
    await this.call({ method: 'DELETE', path: configurationPath(collection, id), retry: 'transient', object });
  }

  /**
   * `PATCH /configuration/{collection}/{id}/relationships/{relationship}`: adds links
   * (docs/gateway-api.md "Relationships"). An array is sent as to-many
   * `{data:[{type,id}]}`, a single identifier as to-one `{data:{type,id}}`.
   */
  async link(collection: string, id: string, relationship: string, targets: ResourceIdentifier | readonly ResourceIdentifier[], object?: ObjectLabel): Promise<void> {
    await this.relationshipCall('PATCH', collection, id, relationship, targets, object);
  }

  /** `DELETE .../relationships/{relationship}` with the same body shapes as {@link link}: removes links. */
  async unlink(collection: string, id: string, relationship: string, targets: ResourceIdentifier | readonly ResourceIdentifier[], object?: ObjectLabel): Promise<void> {
    await this.relationshipCall('DELETE', collection, id, relationship, targets, object);
  }

  /**
   * `GET /configuration/validator-messages`, normalised (see ValidatorMessage).
   * @param filters e.g. `['meta.severity==ERROR']`
   */
  async validatorMessages(filters: readonly string[] = []): Promise<ValidatorMessage[]> {
    const path = '/configuration/validator-messages' + filterQuery(filters);
    const res = await this.call({ method: 'GET', path, retry: 'transient' });
    return this.parse('GET', path, res, validatorMessagesOf);
  }

  /**
   * `POST /configuration/configurations/activate` with `{comment}`. Never sets
   * `options.ignoreOutdatedConfiguration` (one activation is one transaction:
   * docs/architecture.md) and is not repeated unless it certainly never reached the
   * gateway. Only the documented success counts (see {@link activationAnswerProblem}).
   * @throws OutdatedConfigurationError on 409 `OUTDATED_CONFIGURATION`; ApiError otherwise
   *   (e.g. 400 `VALIDATION_FAILED`); UnexpectedResponseError for a 2xx answer that is
   *   not the documented success (the outcome is then unknown); ConnectionError
   */
  async activate(comment: string): Promise<void> {
    const path = '/configuration/configurations/activate';
    const res = await this.call({ method: 'POST', path, retry: 'unsent', body: { comment } });
    const problem = activationAnswerProblem(res.status, res.text);
    if (problem !== undefined) throw new UnexpectedResponseError('POST', path, res.status, problem);
  }

  /**
   * `GET /system/status/node`: the gateway's version as it reports it
   * (`data.attributes.version`, a string such as `8.6` or `8.6.0`; a number is given as
   * its decimal text), or undefined when the answer carries none (docs/gateway-api.md
   * "Sessions", System calls). Works before a load.
   * @throws ApiError, ConnectionError, UnexpectedResponseError
   */
  async nodeVersion(): Promise<string | undefined> {
    const path = '/system/status/node';
    const res = await this.call({ method: 'GET', path, retry: 'transient' });
    const version = this.parse('GET', path, res, resourceOf).attributes.version;
    if (typeof version === 'number' && Number.isFinite(version)) return String(version);
    return typeof version === 'string' && version.trim() !== '' ? version.trim() : undefined;
  }

  /**
   * `GET {path}` below the base path, e.g. `/v3/api-docs` or `/configuration/mappings`:
   * the answer's JSON document as it is (undefined for an empty body), for callers that
   * check what a gateway serves (`gwops doctor`). Retried like every GET.
   * @throws ApiError (404 when nothing is served there), ConnectionError,
   *   UnexpectedResponseError (a body that is not JSON)
   */
  async readDocument(path: string): Promise<unknown> {
    const res = await this.call({ method: 'GET', path, retry: 'transient' });
    return this.parse('GET', path, res, (document) => document);
  }

  /**
   * `GET /configuration/configurations`: every configuration entry, newest first; works
   * before a load (docs/gateway-api.md "Configurations and activation").
   * @throws ApiError, ConnectionError, UnexpectedResponseError
   */
  async configurations(): Promise<ConfigurationEntry[]> {
    const path = '/configuration/configurations';
    const res = await this.call({ method: 'GET', path, retry: 'transient' });
    return this.parse('GET', path, res, configurationsOf);
  }

  private async relationshipCall(
    method: 'PATCH' | 'DELETE',
    collection: string,
    id: string,
    relationship: string,
    targets: ResourceIdentifier | readonly ResourceIdentifier[],
    object: ObjectLabel | undefined,
  ): Promise<void> {
    const data = isIdentifierList(targets) ? targets.map((t) => ({ type: t.type, id: t.id })) : { type: targets.type, id: targets.id };
    await this.call({ method, path: configurationPath(collection, id, 'relationships', relationship), retry: 'transient', object, body: { data } });
  }
}

/**
 * Filters that select at least the object named `name`. A comma inside a filter value
 * means OR (docs/gateway-api.md "Filter syntax"), so a name with commas is narrowed by
 * a substring filter on its longest comma-free piece instead; callers compare exactly.
 */
export function nameFilter(name: string): string[] {
  if (!name.includes(',')) return [`name==${name}`];
  const piece = name.split(',').reduce((a, b) => (b.length > a.length ? b : a), '');
  return piece === '' ? [] : [`name=@${piece}`];
}

function isIdentifierList(targets: ResourceIdentifier | readonly ResourceIdentifier[]): targets is readonly ResourceIdentifier[] {
  return Array.isArray(targets);
}
