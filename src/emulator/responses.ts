/**
 * Response documents of the emulated API: JSON:API envelopes and error documents
 * (docs/gateway-api.md "Documents and ids", "Errors").
 */
import { randomUUID } from 'node:crypto';
import type { Variant } from '../kinds/index.js';
import { JsonChunks } from './json-text.js';

/** `meta.type` of every document (docs/gateway-api.md "Documents and ids"). */
export const DOCUMENT_TYPE = 'jsonapi.metadata.document';

/**
 * Server time in the API's format `yyyy-MM-dd'T'HH:mm:ss.SSSXXX` (docs/gateway-api.md
 * "Documents and ids"; UTC, so the zone is `Z`).
 */
export function timestamp(date: Date = new Date()): string {
  return date.toISOString();
}

/** What a route handler answers: a status, an optional JSON body and extra headers. */
export interface Reply {
  readonly status: number;
  /** JSON body; absent for 204 and body-less answers. */
  readonly body?: unknown;
  /** A binary body (instead of `body`), e.g. a ZIP export. */
  readonly binary?: { readonly contentType: string; readonly data: Buffer };
  readonly headers?: Readonly<Record<string, string>>;
  /** The whole JSON body as text (instead of `body`). */
  readonly json?: string;
  /**
   * A JSON body written chunk by chunk (instead of `body`): UTF-8 chunks made only when the
   * server comes to write them, waiting whenever the client reads slower, so a list of
   * 100,000 objects never exists as one string.
   */
  readonly pieces?: Iterable<Buffer>;
}

/** A success envelope `{meta:{type,timestamp}, data}` with the given status (default 200). */
export function dataReply(data: unknown, status = 200): Reply {
  return { status, body: { meta: { type: DOCUMENT_TYPE, timestamp: timestamp() }, data } };
}

/**
 * A 200 envelope `{meta, data: [...]}` written piece by piece ({@link Reply} `pieces`): the
 * `data` array holds `items`, each written (by `write`, usually `chunks.json(item)`) only when
 * the server comes to write it, in UTF-8 chunks of json-text.ts's size.
 */
export function dataListReply<T>(items: Iterable<T>, write: (item: T, chunks: JsonChunks) => void): Reply {
  const meta = JSON.stringify({ type: DOCUMENT_TYPE, timestamp: timestamp() });
  return { status: 200, pieces: listChunks(`{"meta":${meta},"data":[`, items, write) };
}

function* listChunks<T>(head: string, items: Iterable<T>, write: (item: T, chunks: JsonChunks) => void): Generator<Buffer> {
  const chunks = new JsonChunks();
  chunks.text(head);
  let first = true;
  for (const item of items) {
    if (!first) chunks.text(',');
    write(item, chunks);
    first = false;
    if (chunks.ready) yield* chunks.take();
  }
  chunks.text(']}');
  yield* chunks.end();
}

/** A success answer without a body (204 unless told otherwise). */
export function emptyReply(status = 204): Reply {
  return { status };
}

/** A success envelope carrying only `meta` (session create/terminate). */
export function metaReply(status = 200): Reply {
  return { status, body: { meta: { type: DOCUMENT_TYPE, timestamp: timestamp() } } };
}

/** Reason phrases used as error `title`s. */
const TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/**
 * An error the emulated API answers: thrown by route handlers, turned into an error
 * document by the server. (The client's own error for such answers is ApiError in
 * src/gateway/errors.ts.) `detail` must never contain a secret (API keys, cookies, private
 * keys).
 */
export class EmulatorApiError extends Error {
  constructor(
    readonly status: number,
    /** The API's error code, e.g. `ENTITY_NOT_FOUND` (docs/gateway-api.md "Errors"). */
    readonly code: string,
    readonly detail?: string,
  ) {
    super(`${status} ${code}${detail ? `: ${detail}` : ''}`);
    this.name = 'EmulatorApiError';
  }
}

/**
 * An error document `{meta:{type,timestamp,rid}, errors:[{code,status,title,detail}]}`
 * (docs/gateway-api.md "Errors": `code` is the only member every gateway sends; newer ones add `rid`).
 */
export function errorReply(status: number, code: string, detail?: string): Reply {
  const error: Record<string, string> = { code, status: String(status), title: TITLES[status] ?? 'Error' };
  if (detail !== undefined) error.detail = detail;
  return {
    status,
    body: { meta: { type: DOCUMENT_TYPE, timestamp: timestamp(), rid: randomUUID() }, errors: [error] },
  };
}

/** Shorthands for the errors the routes raise. */
export const errors = {
  notFound: (what: string): EmulatorApiError => new EmulatorApiError(404, 'ENTITY_NOT_FOUND', `${what} not found`),
  invalidFormat: (detail: string): EmulatorApiError => new EmulatorApiError(400, 'INVALID_REQUEST_FORMAT', detail),
  invalidValue: (detail: string): EmulatorApiError => new EmulatorApiError(400, 'INVALID_VALUE', detail),
  loadRequired: (): EmulatorApiError =>
    new EmulatorApiError(400, 'CONFIGURATION_LOAD_REQUIRED', 'load a configuration first (POST /configuration/configurations/load-active)'),
  /**
   * Modification of a built-in entity: 409 `DEFAULT_ENTITY_MODIFICATION`; 409 exists only in
   * later variants (docs/gateway-api.md "Errors"), so the earliest answers 400.
   */
  defaultEntity: (what: string, variant: Variant): EmulatorApiError =>
    new EmulatorApiError(variant === 'earliest' ? 400 : 409, 'DEFAULT_ENTITY_MODIFICATION', `${what} is a built-in entity and cannot be modified`),
  forbidden: (): EmulatorApiError => new EmulatorApiError(403, 'FORBIDDEN', 'this call is not allowed for a read-only API key'),
  unauthorized: (detail: string): EmulatorApiError => new EmulatorApiError(401, 'UNAUTHORIZED', detail),
};
