/**
 * One example object per registered kind, for the tests that walk every kind
 * (test/kinds/walkthrough.test.ts, test/drills/export-roundtrip.test.ts). Test data, kept
 * out of the kind modules: production code never makes example objects.
 *
 * {@link KIND_EXAMPLES} is a record over `ResourceType`, which is read off the registry
 * (src/kinds/index.ts), so the test typecheck fails until a newly registered kind has its
 * example here.
 */
import type { KindAttributes, ResourceType } from '../../src/kinds/index.js';
import { attributesSchema } from '../../src/schema/index.js';

/** A PEM certificate with its private key, made for a test (see {@link ExampleFixtures}). */
export interface ExampleCertificate {
  readonly certificate: string;
  readonly privateKey: string;
}

/**
 * What an {@link ExampleHook} may ask the test that calls it for: data that production code
 * never makes (it generates no certificates). The tests that call the hooks provide them.
 */
export interface ExampleFixtures {
  /** A new self-signed certificate for `commonName` and its private key (each call a new one). */
  certificate(commonName: string): Promise<ExampleCertificate>;
}

/**
 * A link an example object needs to be valid (without it the gateway's validator reports an
 * ERROR, e.g. a mapping without a back-end group): through `relationship` (a relationship
 * of the kind that exists in the latest variant) to an example object of its target kind.
 */
export interface ExampleRequirement {
  readonly relationship: string;
}

/** One example object of a kind (see {@link ExampleHook}). */
export interface KindExample {
  /**
   * The attributes of a minimal valid object, without the document's `name` (which names
   * the object: its `name` attribute, or a certificate's local handle). Valid means: no
   * manifest diagnostic and, with the links in `requires`, no validator ERROR on the
   * gateway. Secret attributes (`x-gwops-secret`) hold their plain values: the caller
   * writes them to files and declares `{ fromFile }`.
   */
  readonly attributes: KindAttributes;
  /**
   * One change for the update step (empty when the kind has no attribute but its name, see
   * {@link hasUpdatableAttributes}): top-level attributes that replace (or add to) those of
   * `attributes`, each with a value the object does not have yet. The identity must stay
   * the same (not a certificate's `certificate`).
   */
  readonly update: KindAttributes;
  /** The links the object needs to be valid; none when it is valid on its own. */
  readonly requires?: readonly ExampleRequirement[];
}

/**
 * An example object of the kind named `name`, for tests that walk every registered kind
 * (test/kinds/walkthrough.test.ts: create, update, link and unlink through every canonical
 * relationship, delete, through the CLI against the emulator's latest variant, whose
 * attributes the example must use). Called once per object: a certificate's identity is
 * its PEM, so a second call gives another object.
 */
export type ExampleHook = (name: string, fixtures: ExampleFixtures) => KindExample | Promise<KindExample>;

/**
 * A server certificate for `<name>.example.com` with its private key, made by the caller's
 * fixture (its PEM is the identity, so the update changes `certType`, not the PEM).
 */
const sslCertificate: ExampleHook = async (name, fixtures) => {
  const { certificate, privateKey } = await fixtures.certificate(`${name}.example.com`);
  return {
    attributes: { certType: 'SERVER_CERT', certificate, privateKey },
    update: { certType: 'CLIENT_CERT' },
  };
};

/** An ACME account: the CA's directory and a contact (valid on its own); the update changes the contact. */
const acmeService: ExampleHook = (name) => ({
  attributes: { serverUrl: 'https://acme.example.com/directory', contactEmailAddress: `${name}@example.com` },
  update: { contactEmailAddress: `security-${name}@example.com` },
});

/**
 * One back-end host with a host name (a group without one is a validator ERROR,
 * BACKEND_GROUP_WITHOUT_HOSTS); the update moves it to another port (the list is replaced
 * whole).
 */
const backEndGroup: ExampleHook = (name) => ({
  attributes: { backendHosts: [{ protocol: 'HTTP', hostName: `${name}.example.internal`, port: 8080 }] },
  update: { backendHosts: [{ protocol: 'HTTP', hostName: `${name}.example.internal`, port: 8081 }] },
});

/**
 * A Kerberos environment: its only known attribute is its name, the identity, so there is
 * no attribute to update.
 */
const kerberosEnvironment: ExampleHook = () => ({
  attributes: {},
  update: {},
});

/** An ICAP environment that blocks while its server is down (valid on its own); the update lets traffic pass. */
const icapEnvironment: ExampleHook = () => ({
  attributes: { failOpen: false },
  update: { failOpen: true },
});

/** One network and one address (valid on its own); the update adds a range. */
const ipAddressList: ExampleHook = (name) => ({
  attributes: { ips: ['192.0.2.0/24', '198.51.100.7'] },
  update: { ips: ['192.0.2.0/24', '198.51.100.7', `203.0.113.0/${name.length % 8 + 24}`] },
});

/** A custom deny rule on a path pattern (valid on its own); the update makes it log only. */
const customDenyRule: ExampleHook = (name) => ({
  attributes: { logOnly: false, restrictions: { pathPattern: { enabled: true, name: `${name}-path`, pattern: '^/admin/' } } },
  update: { logOnly: true },
});

/** A custom deny rule group (valid on its own, empty); its name is its only attribute. */
const customDenyRuleGroup: ExampleHook = () => ({ attributes: {}, update: {} });

/** A policy service with its shared secret (valid on its own); the update moves its endpoint. */
const apiPolicyService: ExampleHook = (name) => ({
  attributes: { endpoint: '/auth-api-policy-service/rest/resolve-tech-client', sharedSecret: `shared-${name}-secret` },
  update: { endpoint: `/policy/${name}/resolve` },
});

/** A stored key set for one issuer (valid on its own); the update changes the issuer. */
const localJsonWebKeySet: ExampleHook = (name) => ({
  attributes: { issuer: `https://${name}.example.com` },
  update: { issuer: `https://login.${name}.example.com` },
});

/** A key set fetched from its issuer (valid on its own); the update moves its URL. */
const remoteJsonWebKeySet: ExampleHook = (name) => ({
  attributes: { issuer: `https://${name}.example.com`, url: `https://${name}.example.com/jwks` },
  update: { url: `https://${name}.example.com/keys/jwks` },
});

/**
 * An OpenAPI document: its only attribute is its name, the identity (the specification is
 * its content sub-resource), so there is no attribute to update.
 */
const openapiDocument: ExampleHook = () => ({
  attributes: {},
  update: {},
});

/** A GraphQL document: like an OpenAPI document, nothing to update but its content. */
const graphqlDocument: ExampleHook = () => ({
  attributes: {},
  update: {},
});

/**
 * A plain (not regular-expression) entry path; it needs a back-end group (without one the
 * validator reports MAPPING_WITHOUT_BACKEND_GROUP, an ERROR; without a virtual host only a
 * WARNING). The update changes the back-end path.
 */
const mapping: ExampleHook = (name) => ({
  attributes: { entryPath: { value: `/${name}/` }, backendPath: '/' },
  update: { backendPath: '/v2/' },
  requires: [{ relationship: 'back-end-groups' }],
});

/**
 * An HTTP-only host: with HTTPS disabled (and HTTP/2 with it, which needs HTTPS) its
 * certificate mode needs no link, so it is valid on its own and each of its links can be
 * made and removed alone. The update sets the server admin's address.
 */
const virtualHost: ExampleHook = (name) => ({
  attributes: { hostName: `${name}.example.com`, networkInterface: { https: { enabled: false, http2Allowed: false } } },
  update: { serverAdmin: `webmaster@${name}.example.com` },
});

/** The example of every registered kind, by resource type. */
export const KIND_EXAMPLES: Readonly<Record<ResourceType, ExampleHook>> = {
  'ssl-certificate': sslCertificate,
  'acme-service': acmeService,
  'kerberos-environment': kerberosEnvironment,
  'back-end-group': backEndGroup,
  'icap-environment': icapEnvironment,
  'ip-address-list': ipAddressList,
  'api-policy-service': apiPolicyService,
  'custom-deny-rule': customDenyRule,
  'custom-deny-rule-group': customDenyRuleGroup,
  'local-json-web-key-set': localJsonWebKeySet,
  'remote-json-web-key-set': remoteJsonWebKeySet,
  'openapi-document': openapiDocument,
  'graphql-document': graphqlDocument,
  mapping,
  'virtual-host': virtualHost,
};

/**
 * True when objects of `type` have a top-level attribute besides `name` (their identity),
 * so that the example names an update; false for a kind whose only attribute is its name.
 */
export function hasUpdatableAttributes(type: ResourceType): boolean {
  return Object.keys(attributesSchema(type).properties ?? {}).some((key) => key !== 'name');
}
