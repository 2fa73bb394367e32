/**
 * One REST session with the gateway (docs/gateway-api.md "Sessions", "Base path and
 * transport"): `open()` creates it with the Bearer key, every later call carries only the
 * `JSESSIONID` cookie, and `terminate()` ends it. Calls are strictly sequential (one
 * connection).
 *
 * Idempotent calls (GET, PATCH, DELETE, relationship PATCH/DELETE, load-active before any
 * edit, terminate) are retried on 429/502/503/504 and connection faults; a resource POST
 * only through {@link GatewaySession.createChecked}; activation never.
 */
import type { ApiErrorInit, ObjectLabel } from './errors.js';
import { ApiError, ConnectionError, OutdatedConfigurationError, SessionError, UnexpectedResponseError } from './errors.js';
import { SecretRedactor, truncateEcho } from '../secrets.js';
import {
  DocumentShapeError,
  activationAnswerProblem,
  configurationsOf,
  firstError,
  parseJson,
  resourceOf,
  resourcesOf,
  toResource,
  validatorMessagesOf,
} from '../api/documents.js';
import { DataArraySplitter } from './data-array.js';
import type { ApiResource, ConfigurationEntry, NewResource, ResourceIdentifier, ValidatorMessage } from '../api/documents.js';
import { HttpTransport } from './http.js';
import type { RawResponse, TransportOptions } from './http.js';
import { DEFAULT_RETRY_POLICY, abortReason, isRetryableStatus, isTransientFault, parseRetryAfter, retrying, systemClock } from './retry.js';
import type { RetryClock, RetryPolicy } from './retry.js';

/** Everything a session needs. The API key is used for `POST /session/create` only. */
export interface SessionOptions extends TransportOptions {
  readonly apiKey: string;
  /**
   * Where the key came from, e.g. `environment variable GWOPS_API_KEY` (not secret): named
   * when the gateway rejects the key (SessionError `key-rejected`).
   */
  readonly apiKeySource?: string | undefined;
  /** Overrides of {@link DEFAULT_RETRY_POLICY}. */
  readonly retry?: Partial<RetryPolicy> | undefined;
  /** Injected time (tests record waits instead of waiting). Default: the real clock. */
  readonly clock?: RetryClock | undefined;
  /** When aborted, running calls are cancelled and new ones refused with `signal.reason` (terminate still works). */
  readonly signal?: AbortSignal | undefined;
  /**
   * The run's secret registry: the session registers the API key and the `JSESSIONID`
   * cookie into it and redacts error details with everything it holds. Default: its own.
   */
  readonly secrets?: SecretRedactor | undefined;
}

/** How {@link GatewaySession.createChecked} decides whether a failed create landed anyway. */
export interface CreateCheck {
  /** For kinds with a `name` attribute: looked up with `GET ?filter=name==<name>`. */
  readonly name?: string;
  /** For kinds without a name (ssl-certificate): the caller's own lookup. Wins over `name`. */
  readonly find?: () => Promise<ApiResource | undefined>;
  /** The object, for error messages; defaults to `{kind: resource.type, name}` when `name` is given. */
  readonly object?: ObjectLabel;
}

/** The outcome of {@link GatewaySession.terminate}: it never throws. */
export interface TerminateResult {
  /** True when the gateway confirmed, or the session was already gone or never opened. */
  readonly terminated: boolean;
  /** Why terminating failed; already reported through `onWarning`. */
  readonly error?: Error;
}

/** Size above which a projected list is framed element by element instead of parsed whole. */
export const STREAM_THRESHOLD_BYTES = 32 * 1024 * 1024;

/** Options of {@link GatewaySession.list}. */
export interface ListOptions {
  /**
   * Shrinks each resource as it arrives (e.g. to the attributes a plan compares). The
   * response is then streamed element by element instead of parsed whole, so memory
   * stays proportional to what is kept.
   */
  readonly project?: ((resource: ApiResource) => ApiResource) | undefined;
  /** With `project`: bodies larger than this are framed element by element (default {@link STREAM_THRESHOLD_BYTES}). */
  readonly streamAboveBytes?: number | undefined;
}

interface CallSpec {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly body?: unknown;
  readonly object?: ObjectLabel | undefined;
  /**
   * When a failed send may be repeated: `transient` after any transient fault (idempotent
   * calls); `unsent` only when the request certainly never reached the gateway (a POST).
   */
  readonly retry: 'transient' | 'unsent';
  /** Send the Bearer key instead of the cookie (session create only). */
  readonly bearer?: boolean;
  /** Streams a 2xx body to this function instead of reading it as text (see RawRequest.sink). */
  readonly sink?: ((chunk: Buffer) => void) | undefined;
  /** The `Accept` header; default `application/json`. */
  readonly accept?: string | undefined;
}

const TERMINATE_POLICY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 200, maxDelayMs: 1_000, maxTotalMs: 5_000 };

function configurationPath(collection: string, ...rest: string[]): string {
  return ['/configuration', collection, ...rest.map(encodeURIComponent)].join('/');
}

function filterQuery(filters: readonly string[]): string {
  return filters.length === 0 ? '' : '?' + filters.map((f) => `filter=${encodeURIComponent(f)}`).join('&');
}

/** Extracts the JSESSIONID value from `Set-Cookie` header(s). */
function sessionCookie(setCookie: string | string[] | undefined): string | undefined {
  const values = typeof setCookie === 'string' ? [setCookie] : (setCookie ?? []);
  for (const value of values) {
    const match = /(?:^|[;,]\s*)JSESSIONID=([^;,\s]+)/.exec(value);
    if (match?.[1]) return match[1];
  }
  return undefined;
}

/** A REST session. Create with `new GatewaySession(options)`, then `open()`. */
export class GatewaySession {
  private readonly transport: HttpTransport;
  private readonly apiKey: string;
  private readonly apiKeySource: string | undefined;
  private readonly policy: RetryPolicy;
  private readonly clock: RetryClock;
  private readonly signal: AbortSignal | undefined;
  private readonly onWarning: ((message: string) => void) | undefined;
  private cookie: string | undefined;
  private readonly redactor: SecretRedactor;
  private terminated = false;
  private terminating: Promise<TerminateResult> | undefined;
  private readonly counts = new Map<string, number>();

  /** @throws ConfigError when the URL is refused (plain http to a non-loopback host); nothing is sent. */
  constructor(options: SessionOptions) {
    this.transport = new HttpTransport(options);
    this.apiKey = options.apiKey;
    this.apiKeySource = options.apiKeySource;
    this.redactor = options.secrets ?? new SecretRedactor();
    this.redactor.add(options.apiKey);
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.clock = options.clock ?? systemClock;
    this.signal = options.signal;
    this.onWarning = options.onWarning;
  }

  /** True between a successful `open()` and `terminate()`. */
  get isOpen(): boolean {
    return this.cookie !== undefined && !this.terminated;
  }

  /** HTTP requests sent so far, per method (every attempt counts), e.g. `{ POST: 2, GET: 5 }`. */
  requestCounts(): Readonly<Record<string, number>> {
    return Object.fromEntries(this.counts);
  }

  /**
   * `POST /session/create` with `Authorization: Bearer <key>`; keeps the `JSESSIONID`
   * cookie. Retried after an answer that created nothing (429/502/503/504) and after a
   * fault before the request was sent, but not after the connection broke once it was
   * sent: the gateway may then have opened a session whose cookie was lost, and a retry
   * would open a second one (docs/gateway-api.md "Sessions": a client ends its session).
   * Does nothing when already open; a terminated session cannot be reopened (`not-open`).
   * @throws SessionError (`key-rejected` on 401/403, `no-cookie`, `create-unanswered`),
   *   ApiError, ConnectionError, TlsVerificationError
   */
  async open(): Promise<void> {
    if (this.isOpen) return;
    if (this.terminated) throw new SessionError('not-open', 'POST', '/session/create');
    const res = await retrying(() => this.send({ method: 'POST', path: '/session/create', retry: 'unsent', bearer: true }), {
      policy: this.policy,
      clock: this.clock,
      signal: this.signal,
      retryable: (error) => isConnectPhase(error) || (error instanceof ApiError && isRetryableStatus(error.status)),
    }).catch((error: unknown) => {
      if (error instanceof ConnectionError && error.phase === 'response') {
        throw new SessionError('create-unanswered', 'POST', '/session/create', undefined, undefined, undefined, undefined, { cause: error });
      }
      throw error;
    });
    const cookie = sessionCookie(res.headers['set-cookie']);
    if (!cookie) throw new SessionError('no-cookie', 'POST', '/session/create');
    this.cookie = cookie;
    this.redactor.add(cookie);
  }

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
   * One `GET /configuration/{collection}` with one `filter` parameter per entry (AND;
   * docs/gateway-api.md "Filter syntax"), values URL-encoded. No pagination exists.
   * @param collection path segment, e.g. `mappings`
   * @param filters e.g. `['name=@shop-', 'label==team-shop']`
   */
  async list(collection: string, filters: readonly string[] = [], options: ListOptions = {}): Promise<ApiResource[]> {
    const path = configurationPath(collection) + filterQuery(filters);
    const project = options.project;
    const threshold = options.streamAboveBytes ?? STREAM_THRESHOLD_BYTES;
    if (!project) {
      const res = await this.call({ method: 'GET', path, retry: 'transient' });
      return this.parse('GET', path, res, resourcesOf);
    }
    // A small body is parsed whole (fastest); past STREAM_THRESHOLD_BYTES the body is
    // framed element by element instead, so memory stays proportional to what is kept.
    // Each attempt starts afresh.
    return retrying(
      async () => {
        const out: ApiResource[] = [];
        const held: Buffer[] = [];
        let heldBytes = 0;
        let splitter: DataArraySplitter | undefined;
        const sink = (chunk: Buffer): void => {
          if (splitter) return splitter.write(chunk);
          held.push(chunk);
          heldBytes += chunk.length;
          if (heldBytes <= threshold) return;
          splitter = new DataArraySplitter((element) => out.push(project(toResource(element))));
          for (const part of held.splice(0)) splitter.write(part);
        };
        try {
          await this.send({ method: 'GET', path, retry: 'transient', sink });
          if (!splitter) return resourcesOf(parseJson(Buffer.concat(held).toString('utf8'))).map(project);
          splitter.end();
        } catch (error) {
          if (error instanceof DocumentShapeError || error instanceof SyntaxError) {
            throw new UnexpectedResponseError('GET', path, 200, error.message);
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
   * @throws ApiError, ConnectionError after the retry bounds; whatever the check throws
   */
  async createChecked(collection: string, resource: NewResource, check: CreateCheck): Promise<ApiResource> {
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
      async () => this.parse('POST', path, await this.send({ method: 'POST', path, retry: 'unsent', object, body: { data: resource } }), resourceOf),
      {
        policy: this.policy,
        clock: this.clock,
        signal: this.signal,
        recover: async (error) => (isConnectPhase(error) ? undefined : find()),
      },
    );
  }

  /**
   * `PATCH /configuration/{collection}/{id}` with `{data:{type,id,attributes}}` (always
   * with `id`; docs/gateway-api.md "Rules for PATCH": attributes merge, lists replace).
   * @returns the updated resource, or undefined when the gateway answers 204
   */
  async update(collection: string, id: string, resource: NewResource, object?: ObjectLabel): Promise<ApiResource | undefined> {
    const path = configurationPath(collection, id);
    const body = { data: { type: resource.type, id, attributes: resource.attributes } };
    const res = await this.call({ method: 'PATCH', path, retry: 'transient', object, body });
    return res.text.trim() === '' ? undefined : this.parse('PATCH', path, res, resourceOf);
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
   * `GET /configuration/configurations`: every configuration entry, newest first; works
   * before a load (docs/gateway-api.md "Configurations and activation").
   * @throws ApiError, ConnectionError, UnexpectedResponseError
   */
  async configurations(): Promise<ConfigurationEntry[]> {
    const path = '/configuration/configurations';
    const res = await this.call({ method: 'GET', path, retry: 'transient' });
    return this.parse('GET', path, res, configurationsOf);
  }

  /**
   * `POST /session/terminate`, then closes the connection. Idempotent; never throws:
   * a failure is reported through `onWarning` and returned. Works after the signal aborted.
   */
  terminate(): Promise<TerminateResult> {
    this.terminating ??= this.doTerminate();
    return this.terminating;
  }

  private async doTerminate(): Promise<TerminateResult> {
    const wasOpen = this.cookie !== undefined;
    this.terminated = true;
    try {
      if (!wasOpen) return { terminated: true };
      await retrying(() => this.send({ method: 'POST', path: '/session/terminate', retry: 'transient' }, false), {
        policy: TERMINATE_POLICY,
        clock: this.clock,
      });
      return { terminated: true };
    } catch (error) {
      if (error instanceof SessionError && error.reason === 'expired') return { terminated: true };
      const err = error instanceof Error ? error : new Error(String(error));
      this.onWarning?.(`could not terminate the REST session (it idles out on the gateway): ${err.message}`);
      return { terminated: false, error: err };
    } finally {
      this.cookie = undefined;
      await this.transport.close();
    }
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

  /** One logical call: retried when idempotent (or, for a POST, only if nothing was sent). */
  private async call(spec: CallSpec): Promise<RawResponse> {
    return retrying(() => this.send(spec), {
      policy: this.policy,
      clock: this.clock,
      signal: this.signal,
      retryable: spec.retry === 'transient' ? undefined : isConnectPhase,
    });
  }

  /** One HTTP request; a non-2xx answer becomes a typed error. */
  private async send(spec: CallSpec, observeSignal = true): Promise<RawResponse> {
    if (observeSignal && this.signal?.aborted) throw abortReason(this.signal);
    if (!spec.bearer && !this.isOpen && spec.path !== '/session/terminate') {
      throw new SessionError('not-open', spec.method, spec.path);
    }
    const headers: Record<string, string> = { accept: spec.accept ?? 'application/json', 'content-type': 'application/json' };
    if (spec.bearer) headers.authorization = `Bearer ${this.apiKey}`;
    else if (this.cookie) headers.cookie = `JSESSIONID=${this.cookie}`;
    this.counts.set(spec.method, (this.counts.get(spec.method) ?? 0) + 1);
    const res = await this.transport.send({
      method: spec.method,
      path: spec.path,
      headers,
      body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
      signal: observeSignal ? this.signal : undefined,
      object: spec.object,
      sink: spec.sink,
    });
    if (res.status >= 200 && res.status < 300) return res;
    throw this.failure(spec, res);
  }

  private failure(spec: CallSpec, res: RawResponse): Error {
    const error = firstError(res.text);
    const detail = error?.detail ?? error?.title;
    if (spec.bearer && (res.status === 401 || res.status === 403)) {
      // The gateway's own words first: a URL past the base path is answered 401 too (docs/gateway-api.md "Diagnosing a wrong URL").
      const said = detail === undefined ? undefined : `${error?.code !== undefined ? `${error.code}: ` : ''}${truncateEcho(this.secrets().redact(detail))}`;
      return new SessionError('key-rejected', spec.method, spec.path, res.status, this.apiKeySource, said, this.transport.baseUrl);
    }
    if (!spec.bearer && res.status === 401) return new SessionError('expired', spec.method, spec.path, res.status);
    const init: ApiErrorInit = {
      method: spec.method,
      path: spec.path,
      status: res.status,
      code: error?.code,
      // Redacted first, then cut: a cut through a secret would leave a prefix that no longer matches.
      detail: detail === undefined ? undefined : truncateEcho(this.secrets().redact(detail)),
      object: spec.object,
      retryAfterMs: parseRetryAfter(res.headers['retry-after'], this.clock.now()),
    };
    if (res.status === 409 && error?.code === 'OUTDATED_CONFIGURATION') return new OutdatedConfigurationError(init);
    if (spec.bearer && res.status === 404) {
      // No session endpoint at this URL: it does not end in the API's base path (docs/gateway-api.md "Diagnosing a wrong URL").
      return new ApiError(init, `${spec.method} ${spec.path} failed: 404${init.code !== undefined ? ` ${init.code}` : ''}${init.detail !== undefined ? `: ${init.detail}` : ''}: ${baseUrlHint(this.transport.baseUrl)}`);
    }
    return new ApiError(init);
  }

  private parse<T>(method: string, path: string, res: RawResponse, shape: (document: unknown) => T): T {
    try {
      return shape(parseJson(res.text));
    } catch (error) {
      if (error instanceof DocumentShapeError) throw new UnexpectedResponseError(method, path, res.status, error.message);
      throw error;
    }
  }

  /** The session's known secrets (API key, cookie once open, and whatever the run registered). */
  private secrets(): SecretRedactor {
    this.redactor.add(this.apiKey);
    if (this.cookie) this.redactor.add(this.cookie);
    return this.redactor;
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

/**
 * What a URL must look like when the gateway has no session endpoint at it: the API's base
 * path, e.g. `https://host/airlock/rest` (docs/gateway-api.md "Base path and transport").
 */
export function baseUrlHint(baseUrl: string): string {
  let example = 'https://HOST/airlock/rest';
  try {
    const url = new URL(baseUrl);
    example = `${url.origin}/airlock/rest`;
  } catch {
    // The example with a placeholder host.
  }
  return `the URL ${baseUrl} has no session endpoint: it must end in the API's base path, e.g. ${example}`;
}

/**
 * A transport fault before the request was sent (it certainly did not arrive) that a retry
 * may cure: not a host without a DNS entry, nor a server that speaks another scheme
 * ({@link isTransientFault}).
 */
function isConnectPhase(error: unknown): boolean {
  return error instanceof ConnectionError && error.phase === 'connect' && isTransientFault(error);
}
