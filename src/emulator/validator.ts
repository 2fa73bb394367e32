/**
 * The emulator's validator (docs/gateway-api.md "Validator messages": its rules, and a
 * message of severity ERROR prevents activation). A pure function of a configuration's
 * content, recomputed on every `GET /configuration/validator-messages`.
 */
import type { ResourceType } from '../kinds/index.js';
import type { ConfigContent, JsonObject, ModelContext, StoredObject, ValidatorMessage } from './model.js';

/** Machine codes of the messages this validator produces. */
export type ValidatorCode =
  | 'DUPLICATE_REGEX_PRIORITY'
  | 'HTTP2_WITHOUT_HTTPS'
  | 'CERTIFICATE_MISSING'
  | 'ACME_SERVICE_MISSING'
  | 'HTTPS_WITHOUT_CERTIFICATE'
  | 'MAPPING_WITHOUT_BACKEND_GROUP'
  | 'MAPPING_WITHOUT_VIRTUAL_HOST'
  | 'PRIORITY_OUT_OF_RANGE'
  | 'MAX_REQUEST_BODY_SIZE_OUT_OF_RANGE'
  | 'BACKEND_GROUP_WITHOUT_HOSTS';

const TITLES: Readonly<Record<ValidatorCode, string>> = {
  DUPLICATE_REGEX_PRIORITY: 'Duplicate regular-expression mapping priority',
  HTTP2_WITHOUT_HTTPS: 'HTTP/2 allowed without HTTPS',
  CERTIFICATE_MISSING: 'SSL certificate missing',
  ACME_SERVICE_MISSING: 'ACME service missing',
  HTTPS_WITHOUT_CERTIFICATE: 'HTTPS without certificate',
  MAPPING_WITHOUT_BACKEND_GROUP: 'Mapping without back-end group',
  MAPPING_WITHOUT_VIRTUAL_HOST: 'Mapping without virtual host',
  PRIORITY_OUT_OF_RANGE: 'Entry path priority out of range',
  MAX_REQUEST_BODY_SIZE_OUT_OF_RANGE: 'Maximum request body size out of range',
  BACKEND_GROUP_WITHOUT_HOSTS: 'Back-end group without hosts',
};

/** docs/gateway-api.md "Attributes and server defaults" (value rules). */
const PRIORITY_MIN = -999;
const PRIORITY_MAX = 999;
const MAX_REQUEST_BODY_SIZE_MAX = 2147483647;
/** How many other mappings a DUPLICATE_REGEX_PRIORITY detail names (keeps the rule linear). */
const NAMES_LISTED = 3;

const SEVERITY_RANK: Readonly<Record<ValidatorMessage['severity'], number>> = { ERROR: 0, WARNING: 1, INFO: 2 };

type Emit = (severity: ValidatorMessage['severity'], code: ValidatorCode, object: StoredObject, detail: string) => void;

function member(node: unknown, ...path: string[]): unknown {
  let current = node;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || Array.isArray(current) || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

const KIND_WORDS: Readonly<Record<ResourceType, string>> = {
  'virtual-host': 'virtual host',
  mapping: 'mapping',
  'back-end-group': 'back-end group',
  'ssl-certificate': 'SSL certificate',
  'acme-service': 'ACME service',
};

/** `mapping 'shop'`, or `mapping with id 4` when the object has no name. */
function label(object: StoredObject): string {
  const name = object.attributes.name;
  return typeof name === 'string' && name !== ''
    ? `${KIND_WORDS[object.type]} '${name}'`
    : `${KIND_WORDS[object.type]} with id ${object.id}`;
}

/** `'shop'`, or `with id 4`. */
function shortName(object: StoredObject): string {
  const name = object.attributes.name;
  return typeof name === 'string' && name !== '' ? `'${name}'` : `with id ${object.id}`;
}

/** True when `object` links through relationship `name` to at least one existing object in `targets`. */
function linked(object: StoredObject, name: string, targets: ReadonlyMap<string, StoredObject>): boolean {
  const ids = object.relationships[name];
  return ids !== undefined && ids.some((id) => targets.has(id));
}

function mappingRules(content: ConfigContent, emit: Emit): void {
  const { mapping: mappings, 'virtual-host': hosts, 'back-end-group': groups } = content.objects;
  const regexByPriority = new Map<number, StoredObject[]>();
  for (const m of mappings.values()) {
    const priority = member(m.attributes, 'entryPath', 'priority');
    if (typeof priority === 'number') {
      if (priority < PRIORITY_MIN || priority > PRIORITY_MAX) {
        emit('ERROR', 'PRIORITY_OUT_OF_RANGE', m, `The entry path priority ${priority} of ${label(m)} is outside ${PRIORITY_MIN}..${PRIORITY_MAX}.`);
      }
      if (member(m.attributes, 'entryPath', 'regexFormatEnforced') === true) {
        const same = regexByPriority.get(priority);
        if (same) same.push(m);
        else regexByPriority.set(priority, [m]);
      }
    }
    const size = member(m.attributes, 'limits', 'general', 'maxRequestBodySize');
    if (typeof size === 'number' && (size < 0 || size > MAX_REQUEST_BODY_SIZE_MAX)) {
      emit(
        'ERROR',
        'MAX_REQUEST_BODY_SIZE_OUT_OF_RANGE',
        m,
        `The maximum request body size ${size} of ${label(m)} is outside 0..${MAX_REQUEST_BODY_SIZE_MAX} bytes.`,
      );
    }
    if (!linked(m, 'back-end-groups', groups)) {
      emit('ERROR', 'MAPPING_WITHOUT_BACKEND_GROUP', m, `The ${label(m)} has no back-end group.`);
    }
    if (!linked(m, 'virtual-hosts', hosts)) {
      emit('WARNING', 'MAPPING_WITHOUT_VIRTUAL_HOST', m, `The ${label(m)} is not linked to any virtual host.`);
    }
  }
  for (const [priority, group] of regexByPriority) {
    if (group.length < 2) continue;
    for (const m of group) {
      const others: string[] = [];
      for (const o of group) {
        if (o === m) continue;
        if (others.length === NAMES_LISTED) break;
        others.push(shortName(o));
      }
      const rest = group.length - 1 - others.length;
      const list = rest > 0 ? `${others.join(', ')} and ${rest} more` : others.join(', ');
      emit(
        'ERROR',
        'DUPLICATE_REGEX_PRIORITY',
        m,
        `The regular-expression ${label(m)} has entry path priority ${priority}, as do the regular-expression mappings ${list}; the priority must be unique among them.`,
      );
    }
  }
}

function virtualHostRules(content: ConfigContent, context: ModelContext, emit: Emit): void {
  const { 'virtual-host': hosts, 'ssl-certificate': certificates, 'acme-service': acmeServices } = content.objects;
  const latest = context.variant === 'latest';
  for (const host of hosts.values()) {
    const attrs: Readonly<JsonObject> = host.attributes;
    const httpsEnabled = member(attrs, 'networkInterface', 'https', 'enabled') === true;
    if (member(attrs, 'networkInterface', 'https', 'http2Allowed') === true && !httpsEnabled) {
      emit('ERROR', 'HTTP2_WITHOUT_HTTPS', host, `The ${label(host)} allows HTTP/2 while HTTPS is disabled; HTTP/2 requires HTTPS.`);
    }
    if (!httpsEnabled) continue;
    const hasCertificate = linked(host, 'ssl-certificate', certificates);
    const hasAcme = latest && linked(host, 'acme-service', acmeServices);
    const mode = latest ? member(attrs, 'tls', 'certificateMode') : undefined;
    if (mode === 'CERTIFICATE' && !hasCertificate) {
      emit('ERROR', 'CERTIFICATE_MISSING', host, `The ${label(host)} has certificate mode CERTIFICATE but no SSL certificate.`);
    } else if (mode === 'ACME_SERVICE' && !hasAcme) {
      emit('ERROR', 'ACME_SERVICE_MISSING', host, `The ${label(host)} has certificate mode ACME_SERVICE but no ACME service.`);
    } else if (mode === undefined && !hasCertificate && !hasAcme && member(attrs, 'tls', 'letsEncryptEnabled') !== true) {
      emit(
        'ERROR',
        'HTTPS_WITHOUT_CERTIFICATE',
        host,
        latest
          ? `The ${label(host)} has HTTPS enabled but neither an SSL certificate nor an ACME service.`
          : `The ${label(host)} has HTTPS enabled but no SSL certificate.`,
      );
    }
  }
}

function backendGroupRules(content: ConfigContent, emit: Emit): void {
  for (const group of content.objects['back-end-group'].values()) {
    const hosts = group.attributes.backendHosts;
    const hasHost =
      Array.isArray(hosts) && hosts.some((h) => typeof member(h, 'hostName') === 'string' && (member(h, 'hostName') as string).trim() !== '');
    if (!hasHost) emit('ERROR', 'BACKEND_GROUP_WITHOUT_HOSTS', group, `The ${label(group)} has no back-end host with a host name.`);
  }
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A message with its sort key computed once (sorting 40,000 messages compares ~600,000 times). */
interface Keyed {
  readonly message: ValidatorMessage;
  readonly rank: number;
  /** The id as a number when it holds an integer (ids are strings holding integers), else NaN. */
  readonly idNumber: number;
}

function keyed(message: ValidatorMessage): Keyed {
  const id = message.model.id;
  const n = /^-?\d+$/.test(id) ? Number(id) : NaN;
  return { message, rank: SEVERITY_RANK[message.severity], idNumber: n };
}

/** By severity (ERROR first), model type, model id (numerically when both are integers), code. */
function compareKeyed(a: Keyed, b: Keyed): number {
  const am = a.message;
  const bm = b.message;
  return (
    a.rank - b.rank ||
    compareText(am.model.type, bm.model.type) ||
    (Number.isNaN(a.idNumber) || Number.isNaN(b.idNumber) ? compareText(am.model.id, bm.model.id) : a.idNumber - b.idNumber) ||
    compareText(am.code, bm.code)
  );
}

/**
 * Validator messages of a configuration (docs/gateway-api.md "Validator messages"),
 * recomputed on each call.
 *
 * Rules (severity; the object named in `model` and, by its `name`, in `detail`):
 * - `DUPLICATE_REGEX_PRIORITY` (ERROR, one per mapping involved): two or more mappings with
 *   `entryPath.regexFormatEnforced` true share `entryPath.priority` (docs/gateway-api.md
 *   "Attributes and server defaults": unique among regular-expression mappings). The
 *   detail names up to three of the others.
 * - `PRIORITY_OUT_OF_RANGE` (ERROR): `entryPath.priority` outside -999..999;
 *   `MAX_REQUEST_BODY_SIZE_OUT_OF_RANGE` (ERROR): `limits.general.maxRequestBodySize`
 *   outside 0..2147483647 (docs/gateway-api.md "Attributes and server defaults").
 * - `MAPPING_WITHOUT_BACKEND_GROUP` (ERROR), `MAPPING_WITHOUT_VIRTUAL_HOST` (WARNING): no
 *   link to an existing object through `back-end-groups` / `virtual-hosts`.
 * - `HTTP2_WITHOUT_HTTPS` (ERROR): `networkInterface.https.http2Allowed` true while
 *   `https.enabled` is not true ("Resource: virtual-host").
 * - For a virtual host with HTTPS enabled, at most one of: in the latest variant,
 *   `CERTIFICATE_MISSING` (certificateMode CERTIFICATE, no `ssl-certificate` link) or
 *   `ACME_SERVICE_MISSING` (ACME_SERVICE, no `acme-service` link); otherwise
 *   `HTTPS_WITHOUT_CERTIFICATE` (ERROR) when it has neither link (earliest/middle: no
 *   ssl-certificate and `tls.letsEncryptEnabled` not true). Decision: a host with HTTPS
 *   disabled needs no certificate, whatever its certificateMode (the mode cannot be unset,
 *   so an HTTP-only host would otherwise never activate).
 * - `BACKEND_GROUP_WITHOUT_HOSTS` (ERROR): `backendHosts` empty, or every entry has an
 *   empty `hostName` (the server default of a new group).
 *
 * @returns the messages sorted by severity (ERROR, WARNING, INFO), model type, model id
 *   (numerically), code. Linear in the number of objects, apart from the final sort.
 *   Ids for the API: {@link validatorMessageId}.
 */
export function validatorMessages(content: ConfigContent, context: ModelContext): ValidatorMessage[] {
  const out: ValidatorMessage[] = [];
  const emit: Emit = (severity, code, object, detail) => {
    out.push({ severity, code, title: TITLES[code], detail, model: { type: object.type, id: object.id } });
  };
  mappingRules(content, emit);
  virtualHostRules(content, context, emit);
  backendGroupRules(content, emit);
  return out.map(keyed).sort(compareKeyed).map((k) => k.message);
}

/**
 * A deterministic id for a validator message, unique within one result of
 * {@link validatorMessages} (one message per code and object): `<code>-<type>-<id>`,
 * e.g. `MAPPING_WITHOUT_VIRTUAL_HOST-mapping-4`.
 */
export function validatorMessageId(message: ValidatorMessage): string {
  return `${message.code}-${message.model.type}-${message.model.id}`;
}
