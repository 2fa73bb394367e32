/**
 * Server defaults of new objects: a new object gets the gateway's full default tree, so GET
 * returns every attribute (docs/gateway-api.md "Attributes and server defaults").
 *
 * The default tree of each (type, variant) is built once, deep-frozen, and shared by every
 * object created from it: `mergeAttributes` copies only the paths a request sets, so 20,000
 * mappings hold one copy of the ~400 default values, not 20,000.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { ResourceType, Variant } from '../kinds/index.js';
import type { JsonSchema } from '../schema/index.js';
import { wireSchema } from '../schema/index.js';
import { isJsonObject, mergeAttributes } from './attributes.js';
import type { Json, JsonObject } from './model.js';

/** Types whose defaults come from `server-defaults/<type>.yaml` (docs/gateway-api.md "Attributes and server defaults"). */
const RECORDED: ReadonlySet<ResourceType> = new Set(['virtual-host', 'mapping', 'back-end-group']);

/**
 * Defaults the recorded files lack: variant-only attributes (docs/gateway-api.md
 * "Variants"), attributes the recording left out, and the kinds without a recording.
 * Members that do not exist in a variant are dropped by {@link filterToSchema}.
 */
const EXTRA_DEFAULTS: Readonly<Record<ResourceType, JsonObject>> = {
  'virtual-host': {
    name: '',
    hostName: '',
    networkInterface: { externalLogicalInterfaceName: '' },
    tls: {
      lowStrengthCiphersAllowed: false,
      certificateMode: 'CERTIFICATE',
      acmeChallengeType: 'TLS_ALPN_01',
      signatureAlgorithms: '',
      signatureAlgorithmsMode: 'DEFAULT',
    },
  },
  mapping: {
    name: '',
    mappingTemplateName: '',
    allowRules: [],
    apiSecurity: {
      openApi: { policies: [] },
      // earliest variant: the flat API security fields
      apiPolicyServiceEnabled: false,
      apiPolicyServiceId: -1,
      apiPolicyKeyExtractionHeader: {
        enabled: true,
        extractionPattern: { caseIgnored: false, inverted: false, pattern: '^Api-Key: (.*)$' },
        replaceWith: '$1',
      },
      apiPolicyKeyExtractionQueryParameter: { enabled: false, parameterName: 'api_key' },
      apiPolicyKeyExtractionCookie: { enabled: false, cookieName: 'ApiKey' },
      jsonParser: { enabled: true, contentTypePattern: { caseIgnored: true, inverted: false, pattern: 'json' } },
      logOnly: false,
      openApiEnforced: false,
      openApiPublishSpecificationEnabled: false,
      openApiPublishSpecificationPath: '',
    },
    dosAttackPrevention: { whitelistIpPattern: { caseIgnored: false, inverted: false, pattern: '' } },
    ipRules: { ipAddressBlacklists: { vendorThreatCategories: '' }, ipAddressWhitelists: { pathWhitelists: [] } },
  },
  'back-end-group': { name: '' },
  'ssl-certificate': { certType: 'SERVER_CERT', certificate: '', certificateChain: [], rootCaCertificate: '' },
  'acme-service': {
    name: '',
    tenant: '',
    serverUrl: '',
    contactEmailAddress: '',
    termsOfServiceAccepted: false,
    externalAccountBinding: { enabled: false, keyId: '' },
  },
};

/** One list whose items get defaults for missing members. */
interface ItemDefaults {
  /** Path of the list from the attribute root. */
  readonly path: readonly string[];
  readonly defaults: Readonly<JsonObject>;
}

/** List-item defaults (docs/gateway-api.md "Attributes and server defaults": the server fills mode, spare, weight). */
const ITEM_DEFAULTS: Readonly<Record<ResourceType, readonly ItemDefaults[]>> = {
  'virtual-host': [],
  mapping: [],
  'back-end-group': [
    { path: ['backendHosts'], defaults: deepFreeze({ mode: 'ENABLED', spare: false, weight: 100, protocol: 'HTTP', port: 80 }) },
  ],
  'ssl-certificate': [],
  'acme-service': [],
};

/** Freezes a JSON tree in place and returns it. */
function deepFreeze<T extends Json>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

function loadRecorded(type: ResourceType): JsonObject {
  const url = new URL(`../../server-defaults/${type}.yaml`, import.meta.url);
  const parsed: unknown = parse(readFileSync(url, 'utf8'));
  if (!isJsonObject(parsed)) throw new Error(`server-defaults/${type}.yaml is not a mapping of attributes`);
  return parsed;
}

/** Keeps only the members that `schema` (a wire schema: other variants already removed) knows. */
function filterToSchema(value: Json, schema: JsonSchema | undefined): Json | undefined {
  if (!schema) return undefined;
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!items) return value;
    return value.map((item) => filterToSchema(item, items)).filter((item): item is Json => item !== undefined);
  }
  if (isJsonObject(value)) {
    const props = schema.properties;
    if (!props) return value;
    const out: JsonObject = {};
    for (const [key, child] of Object.entries(value)) {
      if (!Object.hasOwn(props, key)) continue;
      const kept = filterToSchema(child, props[key]);
      if (kept !== undefined) out[key] = kept;
    }
    return out;
  }
  return value;
}

const defaultsCache = new Map<string, Readonly<JsonObject>>();

/**
 * The deep-frozen default attribute tree of a new object of `type` in `variant`: the
 * recorded server defaults (`server-defaults/<type>.yaml`) and {@link EXTRA_DEFAULTS},
 * filtered to the variant's schema. Built once per (type, variant).
 * @throws Error when a server-defaults file is missing or malformed (a packaging error).
 */
export function defaultAttributes(type: ResourceType, variant: Variant): Readonly<JsonObject> {
  const key = `${type}\u0000${variant}`;
  let tree = defaultsCache.get(key);
  if (!tree) {
    const recorded = RECORDED.has(type) ? loadRecorded(type) : {};
    const merged = mergeAttributes(EXTRA_DEFAULTS[type], recorded);
    const filtered = filterToSchema(merged, wireSchema(type, variant, { keepRanges: false }));
    tree = deepFreeze(isJsonObject(filtered) ? filtered : {});
    defaultsCache.set(key, tree);
  }
  return tree;
}

/**
 * Full attribute tree of a new object (docs/gateway-api.md "Attributes and server
 * defaults"): the server defaults of `server-defaults/<type>.yaml` filtered to what exists
 * in `variant` (schema `x-gwops-variants`), plus sensible defaults for variant-only
 * attributes the files lack (earliest `tls.lowStrengthCiphersAllowed` false; latest
 * `tls.certificateMode` CERTIFICATE, `acmeChallengeType` TLS_ALPN_01, `signatureAlgorithms`
 * '', `signatureAlgorithmsMode` DEFAULT; the earliest mapping's flat `apiSecurity` fields),
 * for ssl-certificate (`certType` SERVER_CERT, `certificate` '', `certificateChain` [],
 * `rootCaCertificate` '') and acme-service; `name` defaults to '' where the type has one.
 * Then `given` is merged over them ({@link mergeAttributes}: objects deeply, lists
 * replaced) and list items get their item defaults ({@link fillItemDefaults}).
 *
 * `given` must already be checked ({@link checkAttributes}). The default subtrees are
 * deep-frozen and shared between all objects created from them; never mutate the result
 * in place (edits go through `mergeAttributes`, which copies along the changed path).
 * @throws Error when a server-defaults file is missing or malformed (a packaging error).
 */
export function newObjectAttributes(type: ResourceType, variant: Variant, given: Readonly<JsonObject>): JsonObject {
  return fillItemDefaults(type, mergeAttributes(defaultAttributes(type, variant), given));
}

function fillList(list: Json, defaults: Readonly<JsonObject>): Json {
  if (!Array.isArray(list)) return list;
  let out: Json[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const item = list[i] as Json;
    if (!isJsonObject(item)) continue;
    if (Object.keys(defaults).every((k) => Object.hasOwn(item, k))) continue;
    out ??= list.slice();
    out[i] = mergeAttributes(defaults, item);
  }
  return out ?? list;
}

function fillAt(value: Json, path: readonly string[], index: number, defaults: Readonly<JsonObject>): Json {
  const seg = path[index];
  if (seg === undefined) return fillList(value, defaults);
  if (!isJsonObject(value) || !Object.hasOwn(value, seg)) return value;
  const child = value[seg] as Json;
  const next = fillAt(child, path, index + 1, defaults);
  return next === child ? value : { ...value, [seg]: next };
}

/**
 * Applies list-item defaults (e.g. `backendHosts[]`: mode ENABLED, spare false, weight 100,
 * protocol HTTP, port 80; docs/gateway-api.md "Attributes and server defaults") to items
 * that lack them, as after a PATCH replaced a list. Members an item has are kept.
 *
 * Copy-on-write: returns `attributes` itself when every item is complete (typed mutable
 * for the caller's convenience: treat it as read-only).
 */
export function fillItemDefaults(type: ResourceType, attributes: Readonly<JsonObject>): JsonObject {
  let out = attributes as JsonObject;
  for (const rule of ITEM_DEFAULTS[type]) out = fillAt(out, rule.path, 0, rule.defaults) as JsonObject;
  return out;
}
