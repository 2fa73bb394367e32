/**
 * JSON:API documents as the gateway answers them (docs/gateway-api.md "Documents and ids",
 * "Validator messages" and "Errors"), checked at the boundary so that the rest of gwops
 * works with typed values.
 */
import { setOwnMember } from '../core/own-member.js';

/** A JSON:API resource identifier. Ids are strings holding integers (docs/gateway-api.md "Documents and ids"). */
export interface ResourceIdentifier {
  readonly type: string;
  readonly id: string;
}

/** A relationship as served: to-many `data[]`, to-one `data` or `null`. */
export interface RelationshipData {
  readonly data: ResourceIdentifier | ResourceIdentifier[] | null;
}

/** One error object of a JSON:API error document (docs/gateway-api.md "Errors"). */
export interface ApiErrorObject {
  readonly code?: string;
  readonly status?: string;
  readonly title?: string;
  readonly detail?: string;
}

/** A resource object as the gateway returns it. */
export interface ApiResource {
  readonly type: string;
  readonly id: string;
  readonly attributes: Record<string, unknown>;
  /** Empty when the gateway sent none. */
  readonly relationships: Readonly<Record<string, RelationshipData>>;
}

/**
 * The body of a create or update: type and attributes, and for a create of a kind whose
 * create call may carry links (KindDefinition `createRelationships`), those links.
 */
export interface NewResource {
  readonly type: string;
  readonly attributes: Record<string, unknown>;
  readonly relationships?: Readonly<Record<string, { readonly data: ResourceIdentifier | readonly ResourceIdentifier[] }>>;
}

export type ValidatorSeverity = 'ERROR' | 'WARNING' | 'INFO';

/**
 * A validator message, normalised from either shape real clients read
 * (docs/gateway-api.md "Validator messages"): resource-level `meta.severity` with
 * `attributes.detail`, or `attributes.{code,title,meta.severity,meta.model}`.
 */
export interface ValidatorMessage {
  /** An unknown or missing severity is reported as `WARNING` (never silently as `INFO`). */
  readonly severity: ValidatorSeverity;
  /** Empty when the gateway sent none. */
  readonly code: string;
  /** Falls back to `detail` when absent. */
  readonly title: string;
  /** Falls back to `title` when absent. */
  readonly detail: string;
  /** The object the message is about, when the gateway names one. */
  readonly model?: ResourceIdentifier;
}

/** Thrown by the parsers below; the session turns it into an UnexpectedResponseError. */
export class DocumentShapeError extends Error {}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function idString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function identifier(value: unknown): ResourceIdentifier | undefined {
  if (!isRecord(value) || typeof value.type !== 'string') return undefined;
  const id = idString(value.id);
  return id === undefined ? undefined : { type: value.type, id };
}

/** Parses a body as JSON; an empty body is `undefined`. @throws DocumentShapeError for invalid JSON. */
export function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new DocumentShapeError('body is not JSON');
  }
}

/**
 * The empty to-many and to-one relationship members, shared (and frozen): most of a
 * mapping's relationships are empty, and at 100,000 mappings a fresh object and array for
 * each were millions of objects to allocate and keep.
 */
const NO_LINKS: RelationshipData = Object.freeze({ data: Object.freeze([]) as unknown as ResourceIdentifier[] });
const NO_LINK: RelationshipData = Object.freeze({ data: null });

/** Checks one resource object; its empty relationship members are shared frozen objects (read-only). @throws DocumentShapeError */
export function toResource(value: unknown): ApiResource {
  const ident = identifier(value);
  if (!ident || !isRecord(value)) throw new DocumentShapeError('resource object without type and id');
  const attributes = value.attributes === undefined ? {} : value.attributes;
  if (!isRecord(attributes)) throw new DocumentShapeError(`${ident.type} ${ident.id}: attributes is not an object`);
  const relationships: Record<string, RelationshipData> = {};
  const given = value.relationships;
  if (isRecord(given)) {
    // Plain loops: this runs for every element of every list (100,000 mappings, seven relationships each).
    for (const name in given) {
      if (!Object.hasOwn(given, name)) continue;
      const rel = given[name];
      if (!isRecord(rel)) continue;
      const data = rel.data;
      let member: RelationshipData;
      if (Array.isArray(data)) {
        if (data.length === 0) {
          member = NO_LINKS;
        } else {
          const idents: ResourceIdentifier[] = [];
          for (const item of data) {
            const one = identifier(item);
            if (one !== undefined) idents.push(one);
          }
          member = { data: idents };
        }
      } else {
        const one = identifier(data);
        member = one ? { data: one } : NO_LINK;
      }
      setOwnMember(relationships, name, member);
    }
  }
  return { type: ident.type, id: ident.id, attributes, relationships };
}

/** `data` of a single-resource document. @throws DocumentShapeError */
export function resourceOf(document: unknown): ApiResource {
  if (!isRecord(document) || !isRecord(document.data)) throw new DocumentShapeError('document without a data object');
  return toResource(document.data);
}

/** `data[]` of a collection document. @throws DocumentShapeError */
export function resourcesOf(document: unknown): ApiResource[] {
  if (!isRecord(document) || !Array.isArray(document.data)) throw new DocumentShapeError('document without a data array');
  return document.data.map(toResource);
}

/** `errors[0]` of an error document, or undefined when the body is not one. Never throws. */
export function firstError(text: string): ApiErrorObject | undefined {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(document) || !Array.isArray(document.errors)) return undefined;
  const first: unknown = document.errors[0];
  if (!isRecord(first)) return undefined;
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
  const out: { code?: string; status?: string; title?: string; detail?: string } = {};
  const code = str(first.code);
  const status = str(first.status);
  const title = str(first.title);
  const detail = str(first.detail);
  if (code !== undefined) out.code = code;
  if (status !== undefined) out.status = status;
  if (title !== undefined) out.title = title;
  if (detail !== undefined) out.detail = detail;
  return out;
}

function severityOf(value: unknown): ValidatorSeverity | undefined {
  if (typeof value !== 'string') return undefined;
  const upper = value.toUpperCase();
  return upper === 'ERROR' || upper === 'WARNING' || upper === 'INFO' ? upper : undefined;
}

/** Normalises one validator message (either shape, see {@link ValidatorMessage}). */
export function toValidatorMessage(value: unknown): ValidatorMessage {
  const resource = isRecord(value) ? value : {};
  const attributes = isRecord(resource.attributes) ? resource.attributes : {};
  const resourceMeta = isRecord(resource.meta) ? resource.meta : {};
  const attributeMeta = isRecord(attributes.meta) ? attributes.meta : {};
  const severity = severityOf(attributeMeta.severity) ?? severityOf(resourceMeta.severity) ?? 'WARNING';
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  const title = text(attributes.title);
  const detail = text(attributes.detail);
  const model = identifier(attributeMeta.model) ?? identifier(resourceMeta.model);
  return {
    severity,
    code: text(attributes.code),
    title: title || detail,
    detail: detail || title,
    ...(model ? { model } : {}),
  };
}

/** The validator messages of a collection document. @throws DocumentShapeError */
export function validatorMessagesOf(document: unknown): ValidatorMessage[] {
  if (!isRecord(document) || !Array.isArray(document.data)) throw new DocumentShapeError('document without a data array');
  return document.data.map(toValidatorMessage);
}

/**
 * One entry of `GET /configuration/configurations` (docs/gateway-api.md "Configurations
 * and activation"): `configType` is `CURRENTLY_ACTIVE` for the active one; `comment`,
 * `createdAt` (ISO 8601) and `createdBy` may be missing.
 */
export interface ConfigurationEntry {
  readonly id: string;
  readonly configType: string | undefined;
  readonly comment: string | undefined;
  readonly createdAt: string | undefined;
  readonly createdBy: string | undefined;
}

const optionalString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The entries of a configurations list document, in the gateway's order (newest first). @throws DocumentShapeError */
export function configurationsOf(document: unknown): ConfigurationEntry[] {
  return resourcesOf(document).map((r) => ({
    id: r.id,
    configType: optionalString(r.attributes.configType),
    comment: optionalString(r.attributes.comment),
    createdAt: optionalString(r.attributes.createdAt),
    createdBy: optionalString(r.attributes.createdBy),
  }));
}

/**
 * Why an answer to `POST /configuration/configurations/activate` is not the documented
 * success, or undefined when it is: only 200 or 204 whose body is empty or a JSON
 * document without `errors` counts (a 202 "accepted", an `errors` body or an unreadable
 * body leaves the outcome unknown).
 */
export function activationAnswerProblem(status: number, text: string): string | undefined {
  if (status !== 200 && status !== 204) return `status ${status} is not the documented success (200)`;
  if (text.trim() === '') return undefined;
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return 'the body is not JSON';
  }
  if (isRecord(document) && 'errors' in document) {
    const error = firstError(text);
    return `the body is an error document${error?.code ? ` (${error.code})` : ''}`;
  }
  return undefined;
}

/**
 * True for a built-in object of the gateway (docs/gateway-api.md "Documents and ids"): real
 * gateways list objects they ship with under negative ids (e.g. `-1000`); they cannot be
 * changed (409 `DEFAULT_ENTITY_MODIFICATION`), so gwops never plans, prunes or exports them.
 */
export function isBuiltInId(id: string): boolean {
  // Asked for every id read and every end of every link planned: most ids do not begin with a minus.
  return id.startsWith('-') && /^-\d+$/.test(id);
}
