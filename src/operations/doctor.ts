/**
 * The use case `gwops doctor`: what a gateway is and whether gwops fits it, read-only
 * (docs/gateway-api.md "What gwops doctor asks"). One session: the node's version (and so
 * the variant), one modifying call that cannot change anything (before any load: no
 * configuration is in the session) to learn whether the key may write, the API's own
 * description, then the active configuration loaded and every managed kind's collection
 * read. Nothing is saved or activated; the session is terminated.
 */
import type { GatewaySession } from '../gateway/index.js';
import { withSession } from '../gateway/index.js';
import { ApiError, UnexpectedResponseError } from '../gateway/errors.js';
import { KINDS, kindExistsIn } from '../kinds/index.js';
import type { ResourceType, Variant } from '../kinds/index.js';
import { wireSchema } from '../schema/index.js';
import type { AttributeDifference } from '../engine/api-description.js';
import { compareAttributeSchemas, describedAttributes } from '../engine/api-description.js';
import { variantOfVersion } from '../engine/variant.js';
import type { DeclaredVariant } from '../engine/variant.js';
import { gatewayConnection } from './steps/connect.js';
import type { GatewayInput } from './steps/connect.js';

/** Where the gateway serves its OpenAPI description, below the base path (docs/gateway-api.md "The API's own description"). */
export const API_DESCRIPTION_PATH = '/v3/api-docs';

/** Whether the API key may write, and the answer that shows it. */
export interface WriteAccess {
  /** True: a modifying call was not refused; false: refused with 403; undefined: the answer tells neither. */
  readonly allowed: boolean | undefined;
  /** The call and its answer, e.g. `DELETE /configuration/ssl-certificates/0 answered 404 ENTITY_NOT_FOUND`. */
  readonly evidence: string;
}

/** One managed kind on the gateway. */
export interface KindCheck {
  readonly kind: ResourceType;
  /** The path segment under `/configuration`. */
  readonly collection: string;
  /** How many objects the collection lists (1 for an object without id); undefined when it did not answer. */
  readonly objects: number | undefined;
  /** Why the collection did not answer (status and error code); undefined when it answered. */
  readonly problem: string | undefined;
  /** Whether the gateway's description describes the kind's attributes; undefined when it serves no description. */
  readonly described: boolean | undefined;
  /** The differences between the described attributes and gwops's (engine/api-description.ts). */
  readonly differences: readonly AttributeDifference[];
}

/** What `gwops doctor` found. */
export interface DoctorReport {
  /** The base URL asked. */
  readonly url: string;
  /** The project's target, when one was selected. */
  readonly target: string | undefined;
  /** The version `GET /system/status/node` reports; undefined when it reports none (a 7.x gateway). */
  readonly version: string | undefined;
  /** The variant of the version, else the declared one, else `latest` (docs/gateway-api.md "Variants"). */
  readonly variant: Variant;
  /** The variant `--variant` or the target declares, when any; a contradiction with the version is a problem. */
  readonly declaredVariant: DeclaredVariant | undefined;
  readonly write: WriteAccess;
  /** Whether `GET /v3/api-docs` answered an OpenAPI description, and if not, what it answered. */
  readonly description: { readonly served: boolean; readonly evidence: string | undefined };
  /** Every kind gwops manages in the variant, in registry order. */
  readonly kinds: readonly KindCheck[];
}

/** The problems of a report (pure): each makes `gwops doctor` fail. Messages name kinds and attribute paths, never values. */
export function doctorProblems(report: DoctorReport): string[] {
  const out: string[] = [];
  const found = variantOfVersion(report.version);
  if (report.declaredVariant && found !== undefined && found !== report.declaredVariant.variant) {
    out.push(`${report.declaredVariant.source} says ${report.declaredVariant.variant}, but the gateway's version is the ${found} variant`);
  }
  for (const check of report.kinds) {
    if (check.problem !== undefined) out.push(`${check.kind}: the collection /configuration/${check.collection} did not answer (${check.problem})`);
    for (const d of check.differences) {
      if (d.kind === 'unknown') out.push(`${check.kind}: gwops would send '${d.path}', which the gateway does not describe: a manifest that declares it would be refused`);
      if (d.kind === 'type') out.push(`${check.kind}: '${d.path}' is ${d.gwops.join(' or ')} for gwops but ${d.gateway.join(' or ')} on the gateway`);
    }
  }
  return out;
}

/** `status CODE` of an API error, for evidence. */
function answered(error: ApiError): string {
  return `${error.status}${error.code !== undefined ? ` ${error.code}` : ''}`;
}

/**
 * Whether the key may write: `DELETE /configuration/{collection}/0` before any
 * configuration is loaded, so that nothing exists that it could delete. 403 means the
 * key may not write; any other refusal (404, or a load required first) means the call was
 * allowed as such. @throws what the session throws other than ApiError
 */
async function writeAccess(session: GatewaySession, collection: string): Promise<WriteAccess> {
  const call = `DELETE /configuration/${collection}/0`;
  try {
    await session.remove(collection, '0');
    return { allowed: true, evidence: `${call} was answered with success` };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { allowed: error.status === 403 ? false : error.status >= 400 && error.status < 500 ? true : undefined, evidence: `${call} answered ${answered(error)}` };
  }
}

/** `GET /v3/api-docs`: the description, or undefined with what was answered instead. @throws what the session throws other than ApiError */
async function readDescription(session: GatewaySession): Promise<{ document: unknown; evidence: string | undefined }> {
  try {
    const document = await session.readDocument(API_DESCRIPTION_PATH);
    const isOpenApi = typeof document === 'object' && document !== null && 'paths' in document;
    return isOpenApi ? { document, evidence: undefined } : { document: undefined, evidence: `GET ${API_DESCRIPTION_PATH} answered JSON that is no OpenAPI description` };
  } catch (error) {
    if (error instanceof ApiError) return { document: undefined, evidence: `GET ${API_DESCRIPTION_PATH} answered ${answered(error)}` };
    if (error instanceof UnexpectedResponseError) return { document: undefined, evidence: `GET ${API_DESCRIPTION_PATH} answered something that is not JSON` };
    throw error;
  }
}

/** The collection's answer: how many objects it lists, or why it did not answer. @throws what the session throws other than ApiError */
async function readCollection(session: GatewaySession, collection: string): Promise<Pick<KindCheck, 'objects' | 'problem'>> {
  try {
    const document = await session.readDocument(`/configuration/${collection}`);
    const data = typeof document === 'object' && document !== null && 'data' in document ? document.data : undefined;
    if (Array.isArray(data)) return { objects: data.length, problem: undefined };
    if (typeof data === 'object' && data !== null) return { objects: 1, problem: undefined };
    return { objects: undefined, problem: 'an answer without data' };
  } catch (error) {
    if (error instanceof ApiError) return { objects: undefined, problem: answered(error) };
    if (error instanceof UnexpectedResponseError) return { objects: undefined, problem: 'an answer that is not JSON' };
    throw error;
  }
}

/**
 * `gwops doctor`: asks the gateway of `input` what it is and what it serves, changing
 * nothing (see the module comment).
 * @throws ConfigError, InputError, UsageError (the connection), SessionError and
 *   ConnectionError (the gateway cannot be reached or the key is refused)
 */
export async function runDoctor(input: GatewayInput): Promise<DoctorReport> {
  const { connection, declaredVariant, targetName } = gatewayConnection(input);
  return withSession({ ...connection, onWarning: input.warn }, async (session) => {
    const version = await session.nodeVersion();
    const variant = variantOfVersion(version) ?? declaredVariant?.variant ?? 'latest';
    const kinds = KINDS.filter((k) => kindExistsIn(k, variant));
    // A collection of objects to ask with: a singleton's path has no objects below it to address.
    const first = kinds.find((k) => k.singleton === undefined);
    const write = first ? await writeAccess(session, first.collection) : { allowed: undefined, evidence: 'no kind to ask with' };
    const description = await readDescription(session);
    await session.loadActive();
    const checks: KindCheck[] = [];
    for (const kind of kinds) {
      const answer = await readCollection(session, kind.collection);
      const described = description.document === undefined ? undefined : describedAttributes(description.document, kind.collection);
      checks.push({
        kind: kind.type,
        collection: kind.collection,
        ...answer,
        described: description.document === undefined ? undefined : described !== undefined,
        differences: described === undefined ? [] : compareAttributeSchemas(described, wireSchema(kind.type, variant, { keepRanges: false }), description.document),
      });
    }
    return {
      url: connection.url,
      target: targetName,
      version,
      variant,
      declaredVariant,
      write,
      description: { served: description.document !== undefined, evidence: description.evidence },
      kinds: checks,
    };
  });
}
