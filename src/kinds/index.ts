import { acmeService } from './acme-service/index.js';
import { allowedNetworkEndpoint } from './allowed-network-endpoint/index.js';
import { anomalyShieldApplication } from './anomaly-shield-application/index.js';
import { anomalyShieldRule } from './anomaly-shield-rule/index.js';
import { anomalyShieldTrafficMatcher } from './anomaly-shield-traffic-matcher/index.js';
import { anomalyShieldTrigger } from './anomaly-shield-trigger/index.js';
import { apiPolicyService } from './api-policy-service/index.js';
import { backEndGroup } from './back-end-group/index.js';
import { icapEnvironment } from './icap-environment/index.js';
import { customDenyRule } from './custom-deny-rule/index.js';
import { customDenyRuleGroup } from './custom-deny-rule-group/index.js';
import { ipAddressList } from './ip-address-list/index.js';
import type { KindDefinition, ResourceType, TemplateKind, Variant } from './kind.js';
import { graphqlDocument } from './graphql-document/index.js';
import { host } from './host/index.js';
import { kerberosEnvironment } from './kerberos-environment/index.js';
import { localJsonWebKeySet } from './local-json-web-key-set/index.js';
import { mapping } from './mapping/index.js';
import { node } from './node/index.js';
import { openapiDocument } from './openapi-document/index.js';
import { remoteJsonWebKeySet } from './remote-json-web-key-set/index.js';
import { routeIpv4Destination } from './route-ipv4-destination/index.js';
import { routeIpv4Source } from './route-ipv4-source/index.js';
import { routeIpv6Destination } from './route-ipv6-destination/index.js';
import { routeIpv6Source } from './route-ipv6-source/index.js';
import { sslCertificate } from './ssl-certificate/index.js';
import { virtualHost } from './virtual-host/index.js';
import { routeDefault } from './route-default/index.js';
import { log } from './log/index.js';
import { anomalyShield } from './anomaly-shield/index.js';
import { session } from './session/index.js';
import { networkServices } from './network-services/index.js';
import { reporting } from './reporting/index.js';
import { dynamicIpAddressBlacklist } from './dynamic-ip-address-blacklist/index.js';
import { expertSettings } from './expert-settings/index.js';
import { errorPages } from './error-pages/index.js';

export type {
  AttributeSchema,
  ContentResource,
  DocumentKind,
  ExportOption,
  IdentityHooks,
  GenericRuleCode,
  KindAttributes,
  KindDefinition,
  KindDiagnosticCode,
  KindModule,
  ManifestRuleContext,
  ManifestRules,
  RelationshipDefinition,
  ResourceType,
  RuleDocument,
  RuleProblem,
  SingletonDefinition,
  SubResourceDefinition,
  TemplateKind,
  Variant,
} from './kind.js';
export { VARIANTS, DOCUMENT_CONTENT, contentResourceOf } from './kind.js';

/**
 * The registry with each module's own literal type, from which `ResourceType` and
 * `TemplateKind` are read (kind.ts). Use {@link KINDS}.
 */
export const KIND_MODULES = [
  // The singletons first: level 0, no links (src/kinds/kind.ts `singleton`).
  routeDefault,
  log,
  anomalyShield,
  session,
  networkServices,
  reporting,
  dynamicIpAddressBlacklist,
  expertSettings,
  errorPages,
  sslCertificate,
  acmeService,
  kerberosEnvironment,
  backEndGroup,
  openapiDocument,
  graphqlDocument,
  ipAddressList,
  apiPolicyService,
  icapEnvironment,
  host,
  allowedNetworkEndpoint,
  routeIpv4Source,
  routeIpv4Destination,
  routeIpv6Source,
  routeIpv6Destination,
  customDenyRule,
  customDenyRuleGroup,
  anomalyShieldTrigger,
  anomalyShieldTrafficMatcher,
  anomalyShieldRule,
  anomalyShieldApplication,
  node,
  localJsonWebKeySet,
  remoteJsonWebKeySet,
  mapping,
  virtualHost,
] as const;

/**
 * Every kind gwops manages, in dependency order (the one explicit registry). The type
 * annotation checks every module against the strict `KindDefinition` (relationship
 * targets are resource types).
 */
export const KINDS: readonly KindDefinition[] = withInverses(KIND_MODULES);

/**
 * `modules` with the inverse of every relationship that names an `inverseCardinality` added
 * to its target, unless the target's module declares it (see
 * RelationshipDefinition.inverseCardinality, inverseDocumented). Kinds that gain nothing are returned as they are.
 */
function withInverses(modules: readonly KindDefinition[]): KindDefinition[] {
  const added = new Map<string, Record<string, KindDefinition['relationships'][string]>>();
  for (const kind of modules) {
    for (const rel of Object.values(kind.relationships)) {
      const target = modules.find((k) => k.type === rel.target);
      if (rel.inverseCardinality === undefined || !target || Object.hasOwn(target.relationships, rel.inverse)) continue;
      const inverse = { name: rel.inverse, target: kind.type, cardinality: rel.inverseCardinality, inverse: rel.name, canonical: !rel.canonical, ...(rel.variants ? { variants: rel.variants } : {}), ...(rel.inverseDocumented === false ? { documented: false } : {}) };
      added.set(target.type, { ...added.get(target.type), [rel.inverse]: inverse });
    }
  }
  return modules.map((kind) => {
    const more = added.get(kind.type);
    return more ? { ...kind, relationships: { ...kind.relationships, ...more } } : kind;
  });
}

const byType = new Map<string, KindDefinition>(KINDS.map((k) => [k.type, k]));
const byCollection = new Map<string, KindDefinition>(KINDS.map((k) => [k.collection, k]));

/** True when `value` is one of the managed resource types. */
export function isResourceType(value: unknown): value is ResourceType {
  return typeof value === 'string' && byType.has(value);
}

/**
 * The kind module for a resource type.
 * @throws Error when `type` is not a managed resource type (a programming error).
 */
export function kindOf(type: ResourceType): KindDefinition {
  const kind = byType.get(type);
  if (!kind) throw new Error(`unknown resource type ${type}`);
  return kind;
}

/** The kind served under `/configuration/{collection}`, or undefined. */
export function kindByCollection(collection: string): KindDefinition | undefined {
  return byCollection.get(collection);
}

/** Relationships of `kind` that exist in `variant`. */
export function relationshipsIn(kind: KindDefinition, variant: Variant): KindDefinition['relationships'][string][] {
  return Object.values(kind.relationships).filter((r) => !r.variants || r.variants.includes(variant));
}

/** True when the kind exists in `variant`. */
export function kindExistsIn(kind: KindDefinition, variant: Variant): boolean {
  return kind.variants.includes(variant);
}

/**
 * The relationship of `kind` named `name`, also under its link endpoint or one of its
 * aliases (see RelationshipDefinition.endpoint, aliases), whatever the variant; undefined when gwops does not
 * manage it.
 */
export function relationshipNamed(kind: KindDefinition, name: string): KindDefinition['relationships'][string] | undefined {
  return kind.relationships[name] ?? Object.values(kind.relationships).find((r) => r.endpoint === name || r.aliases?.includes(name));
}

const byTemplate = new Map<string, KindDefinition>(KINDS.flatMap((k) => (k.template === undefined ? [] : [[k.template, k] as const])));

/** The template document kinds (`KindDefinition.template`), in registry order. */
export function templateKinds(): TemplateKind[] {
  return [...byTemplate.keys()] as TemplateKind[];
}

/** True when `value` is a template document kind such as `mapping-template`. */
export function isTemplateKind(value: unknown): value is TemplateKind {
  return typeof value === 'string' && byTemplate.has(value);
}

/**
 * The kind whose objects a document of `kind` describes: the resource kind itself, or for
 * a template kind the kind that names it in `template` (its attributes, secrets and
 * variants are that kind's).
 * @throws Error when `kind` is no document kind (a programming error).
 */
export function kindOfDocument(kind: string): KindDefinition {
  const found = byType.get(kind) ?? byTemplate.get(kind);
  if (!found) throw new Error(`unknown document kind ${kind}`);
  return found;
}
