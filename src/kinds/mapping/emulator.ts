import type { EmulatorHooks, Emit, RuleContext, StoredObject, ValidatorRules } from '../emulator-hooks.js';
import { member } from '../emulator-hooks.js';
import { denyRuleArchive } from './deny-rule-archive.js';
import { denyRuleUsageRoutes } from './deny-rule-usage.js';
import { denyRuleRoutes } from './deny-rules.js';

/** docs/gateway-api.md "Attributes and server defaults" (value rules). */
const PRIORITY_MIN = -999;
const PRIORITY_MAX = 999;
const MAX_REQUEST_BODY_SIZE_MAX = 2147483647;
/** How many other mappings a DUPLICATE_REGEX_PRIORITY detail names (keeps the rule linear). */
const NAMES_LISTED = 3;

const TITLES = {
  DUPLICATE_REGEX_PRIORITY: 'Duplicate regular-expression mapping priority',
  MAPPING_WITHOUT_BACKEND_GROUP: 'Mapping without back-end group',
  MAPPING_WITHOUT_VIRTUAL_HOST: 'Mapping without virtual host',
  PRIORITY_OUT_OF_RANGE: 'Entry path priority out of range',
  MAX_REQUEST_BODY_SIZE_OUT_OF_RANGE: 'Maximum request body size out of range',
} as const;

/** `'shop'`, or `with id 4`. */
function shortName(object: StoredObject): string {
  const name = object.attributes.name;
  return typeof name === 'string' && name !== '' ? `'${name}'` : `with id ${object.id}`;
}

/**
 * - `DUPLICATE_REGEX_PRIORITY` (ERROR, one per mapping involved): two or more mappings with
 *   `entryPath.regexFormatEnforced` true share `entryPath.priority` (docs/gateway-api.md
 *   "Attributes and server defaults": unique among regular-expression mappings). The
 *   detail names up to three of the others.
 * - `PRIORITY_OUT_OF_RANGE` (ERROR): `entryPath.priority` outside -999..999;
 *   `MAX_REQUEST_BODY_SIZE_OUT_OF_RANGE` (ERROR): `limits.general.maxRequestBodySize`
 *   outside 0..2147483647 (docs/gateway-api.md "Attributes and server defaults").
 * - `MAPPING_WITHOUT_BACKEND_GROUP` (ERROR), `MAPPING_WITHOUT_VIRTUAL_HOST` (WARNING): no
 *   link to an existing object through `back-end-groups` / `virtual-hosts`.
 */
function check(mappings: ReadonlyMap<string, StoredObject>, context: RuleContext, emit: Emit<keyof typeof TITLES>): void {
  const { label, linked } = context;
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
    if (!linked(m, 'back-end-groups')) {
      emit('ERROR', 'MAPPING_WITHOUT_BACKEND_GROUP', m, `The ${label(m)} has no back-end group.`);
    }
    if (!linked(m, 'virtual-hosts')) {
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

const validator: ValidatorRules<keyof typeof TITLES> = { titles: TITLES, check };

/** The emulator's hooks for `mapping`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'mapping',
  defaults: {
    recorded: 'mapping.yaml',
    extra: {
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
  },
  validator,
  // docs/gateway-api.md "Resource types": mapping names are unique among mappings.
  uniqueNames: true,
  // docs/gateway-api.md "Export and import": real clients read `./Mappings/Mapping/Name`, the
  // allow rules and the deny rule usage of alec_table.xml.
  objectArchive: { file: 'alec_table.xml', listElement: 'Mappings', itemElement: 'Mapping', allowRulesAttribute: 'allowRules', usage: denyRuleArchive },
  // The built-in deny rules and a mapping's use of them (docs/gateway-api.md "Deny rules").
  routes: (self, kinds) => [...denyRuleRoutes, ...denyRuleUsageRoutes(self, kinds)],
  templates: {
    builtIn: [
      { id: '-1000', name: 'New_Mapping', given: { name: 'New_Mapping' } },
      { id: '-1001', name: 'REST_API', given: { name: 'REST_API', backendPath: '/api/', entryPath: { value: '/api/' } } },
    ],
    // docs/gateway-api.md "Mapping templates": the source is kept in `mappingTemplateName`.
    sourceAttribute: 'mappingTemplateName',
    notPulled: ['name', 'mappingTemplateName', 'entryPath'],
  },
};
