/**
 * The one interface every resource kind implements (see docs/architecture.md "Habits": one
 * module per kind, in an explicit registry). A kind module holds the kind's data and its
 * behaviour: generic code calls the hooks below and never names a kind.
 *
 * Names follow the gateway configuration API: `type` is the JSON:API resource type,
 * `collection` the path segment under `/configuration`, relationship names are the
 * API's own (docs/gateway-api.md "Resource types", "Relationships").
 */

import type { CertificateTools } from '../crypto/port.js';
import type { EmulatorHooks } from './emulator-hooks.js';
import type { KIND_MODULES } from './index.js';

/**
 * The API's resource types that gwops manages: the `type` of every module in the registry
 * (`KIND_MODULES` in index.ts), so a new kind needs no edit here.
 */
export type ResourceType = (typeof KIND_MODULES)[number]['type'];

/** The manifest-only template document kinds, one per kind that names one in `template`. */
export type TemplateKind = (typeof KIND_MODULES)[number] extends infer K ? (K extends { readonly template: infer T extends string } ? T : never) : never;

/** Every kind a manifest document may have: a resource type or a template kind. */
export type DocumentKind = ResourceType | TemplateKind;

/** Gateway variants, as in docs/gateway-api.md "Variants". */
export type Variant = 'earliest' | 'middle' | 'latest';

export const VARIANTS: readonly Variant[] = ['earliest', 'middle', 'latest'];

/** One relationship of a kind, as served under `/{collection}/{id}/relationships/{name}`. */
export interface RelationshipDefinition<Target extends string = ResourceType> {
  /** The API's relationship name, e.g. `mappings`, `ssl-certificate`. */
  readonly name: string;
  /** The resource type at the other end. */
  readonly target: Target;
  /** `one`: `data` is one identifier or null; `many`: `data` is an array. */
  readonly cardinality: 'one' | 'many';
  /** The relationship name on the target that shows the same link. */
  readonly inverse: string;
  /**
   * The cardinality of the {@link inverse} relationship, for a target whose module does not
   * declare it: the registry then adds it to the target (src/kinds/index.ts `KINDS`), with
   * this relationship's variants and the other side canonical. So a new kind that links to
   * existing ones is its own folder; a target that declares the inverse itself wins.
   */
  readonly inverseCardinality?: 'one' | 'many';
  /**
   * False when real gateways do not document the {@link inverse} that the registry adds for
   * {@link inverseCardinality}: it is added with `documented: false`, so gwops never calls it
   * (an anomaly-shield traffic matcher's IP address lists, which no source shows from the
   * list's side). Documented when absent.
   */
  readonly inverseDocumented?: boolean;
  /** Variants in which this relationship exists; all when absent. */
  readonly variants?: readonly Variant[];
  /**
   * True on the side on which a link of this pair is declared, stored and shown (virtual
   * host → mappings / ssl-certificate / acme-service, mapping → back-end-groups, back-end
   * group → client-certificate). Exactly one side of each pair is canonical. Calls may go
   * to either side when both are documented: the planner batches on the side that needs
   * fewer calls (src/engine/batch.ts).
   */
  readonly canonical: boolean;
  /**
   * False when real gateways do not document this side's endpoint (the emulator serves it
   * all the same): gwops then never sends a call to it, and links of the pair go through
   * the other side. Documented when absent.
   */
  readonly documented?: boolean;
  /**
   * Other names under which gateways serve the same relationship, read as this one
   * (older gateways name a mapping's link to its back-end group `back-end-group`).
   */
  readonly aliases?: readonly string[];
  /**
   * The link endpoint's name when it is not the relationship's name (the `data.relationships`
   * key in GET): an IP address list shows its whitelisting mappings under
   * `ip-address-whitelists` but links them through `.../relationships/mappings-whitelist`
   * (docs/gateway-api.md "Relationships"). Calls go to it; the emulator serves it too.
   * The name itself when absent.
   */
  readonly endpoint?: string;
  /**
   * How the kind's schema describes the relationship in manifests; `Names of linked
   * <target>s` (to-many) or `Name of the linked <target> (to-one)` when absent.
   */
  readonly description?: string;
}

/** An object's attributes, as a manifest declares them or as a GET list returns them. */
export interface KindAttributes {
  readonly [key: string]: unknown;
}

/**
 * How objects of a kind are matched between the manifests and the gateway
 * (docs/architecture.md "Decisions": identity is the name; a certificate, which has no
 * `name`, is matched by the SHA-256 fingerprint of its PEM). Name-identified kinds share
 * one implementation (`nameIdentity`, src/kinds/identity.ts).
 */
export interface IdentityHooks {
  /**
   * True when the `name` attribute is the identity: ownership filters on `name` can then
   * narrow a GET list without losing a declared object.
   */
  readonly byName: boolean;
  /** Attributes a fetched live object must keep for {@link IdentityHooks.live} (`name`; a certificate's `certificate`). */
  readonly attributes: readonly string[];
  /**
   * Top-level attributes the diff never compares: they are the identity, so a different
   * value is another object (a certificate's `certificate`).
   */
  readonly ignoredInDiff: readonly string[];
  /**
   * The gateway identity of a declared object when it is not the document's name:
   * `{ key }` (unique per kind; stored as `StateObject.identityKey`), or `{ problem }`,
   * why the declared attributes give none (a message part such as `attributes.certificate
   * must hold a PEM certificate (...)`). Undefined when the name is the identity.
   */
  declared(attributes: KindAttributes): { readonly key: string } | { readonly problem: string } | undefined;
  /**
   * The name a live object gets in the state model, and its identity key when the name
   * is not the identity. `handleOf` gives the desired object's name for an identity key
   * (so that a live certificate is named like its manifest); a key no manifest declares
   * gets a display name (`sha256:<first 16 hex digits>`). `name` is undefined when the
   * object carries no usable identity (generic code then names it `#id:<id>`).
   */
  live(attributes: KindAttributes, handleOf: (key: string) => string | undefined): { readonly name: string | undefined; readonly key?: string };
  /**
   * How to tell whether a create that failed may have landed anyway (docs/architecture.md
   * "Habits": retry what is safe): `{ name }` looks the object up with the API's name
   * filter; `{ matches }` recognises it among the listed objects of the kind.
   */
  lookup(name: string, attributes: KindAttributes): { readonly name: string } | { readonly matches: (listed: KindAttributes) => boolean };
  /**
   * True when a live object that no manifest declares is deleted once the plan unlinks it
   * from everything that used it: the identity is the content, so a changed object is a
   * new one and the old one is left orphaned (a replaced certificate).
   */
  readonly deleteWhenOrphaned: boolean;
  /**
   * The readable part of the name `export` generates for a live object of a kind whose
   * identity is not its name (a certificate's subject common name, e.g. `shop.example.com`);
   * undefined when the attributes give none: the name then starts with the kind's type.
   * None when absent. `certificates` reads X.509 certificates (the export hands in the
   * one on `node:crypto`: kind modules import no `node:*`).
   */
  readonly exportName?: (attributes: KindAttributes, certificates: CertificateTools) => string | undefined;
}

/** A resolved manifest document as a kind's rules see it (a ManifestDocument). */
export interface RuleDocument {
  readonly kind: ResourceType;
  readonly name: string;
  /** The effective attributes (templates merged, secrets resolved: never put values in messages). */
  readonly attributes: KindAttributes;
  /** Declared links by relationship name as written, each a list of target names. */
  readonly relationships: Readonly<Record<string, readonly string[]>>;
}

/**
 * The diagnostic codes of the kinds: every code of a module's `diagnosticCodes` (read off
 * the registry, as {@link ResourceType} is). src/core/diagnostics.ts adds them to its
 * `DiagnosticCode`, so the generic code lists none of them.
 */
export type KindDiagnosticCode = (typeof KIND_MODULES)[number] extends infer K ? (K extends { readonly diagnosticCodes: infer C } ? keyof C & string : never) : never;

/**
 * The generic codes of src/core/diagnostics.ts that a kind's rules report too (the kinds import
 * nothing of gwops outside src/kinds): a regular expression that does not compile, a to-one
 * link declared from both sides to two objects.
 */
export type GenericRuleCode = 'invalid-regex' | 'conflicting-link';

/** One problem a kind's rules report about a document; always an error. */
export interface RuleProblem {
  /** One of the kind's own `diagnosticCodes`, or a {@link GenericRuleCode}. */
  readonly code: KindDiagnosticCode | GenericRuleCode;
  /** JSON pointer segments from the document root, e.g. `['attributes', 'entryPath', 'priority']`. */
  readonly pointer: readonly string[];
  /** Says what would be right; names attribute paths, never values of secrets. */
  readonly message: string;
}

/** What the generic manifest checks offer a kind's {@link ManifestRules}. */
export interface ManifestRuleContext {
  /**
   * Every resolved document of `type`, or of every kind when `type` is absent, in one
   * fixed order (the order the loader resolved them in; the first of two conflicting
   * declarations is the first in this order).
   */
  documents(type?: ResourceType): readonly RuleDocument[];
  /** Reports a problem, positioned where the value at its pointer is written (in the base document or an overlay). */
  report(document: RuleDocument, problem: RuleProblem): void;
  /** Where the value at `pointer` of `document` is written: `file:line:column`. */
  where(document: RuleDocument, pointer: readonly string[]): string;
  /** How messages name a document's object: `mapping 'shop-api'`. */
  label(document: RuleDocument): string;
  /** Reads X.509 certificates and PEM private keys (on `node:crypto`: kind modules import no `node:*`). */
  readonly certificates: CertificateTools;
  /** Why `pattern` is no valid regular expression of the gateway's dialect, or undefined when it is one. */
  regexProblem(pattern: string): string | undefined;
}

/**
 * The semantic rules of one kind's manifests beyond its schema (docs/architecture.md "The
 * data path", step 1): called once with every resolved document of the kind, in the
 * order of `context.documents`. Rules across kinds read the others through it.
 */
export type ManifestRules = (documents: readonly RuleDocument[], context: ManifestRuleContext) => void;

/** A kind's hand-written attribute schema, as data (loosely typed: schemas are data). */
export type AttributeSchema = { readonly [keyword: string]: unknown };

/**
 * The fixed shape of a kind module. Modules declare themselves `as const satisfies
 * KindModule` (types and names loose, so that {@link ResourceType} can be read off them);
 * the registry then checks each one against the strict `KindDefinition`.
 */
export interface KindDefinition<Type extends string = ResourceType> {
  readonly type: Type;
  /**
   * What a manifest document of this kind is, in one sentence with the docs section it comes
   * from: the `description` of its schema (`schemas/<type>.schema.json`, made from this
   * module and `attributes.schema.json` in the kind's folder by `npm run generate`).
   */
  readonly description: string;
  /**
   * The kind's attribute schema (JSON Schema draft 2020-12): `attributes.schema.json` in the
   * kind's folder, imported as data (`with { type: 'json' }`). It is the `$defs.attributes`
   * of the kind's document schema, which src/schema/kind-schema.ts makes from it in memory;
   * its `x-gwops-*` marks are described in src/schema/index.ts.
   */
  readonly attributes: AttributeSchema;
  /** What the gateway emulator needs of this kind (defaults, validator rules, label). */
  readonly emulator: EmulatorHooks;
  /** Path segment under `/configuration`, e.g. `virtual-hosts`. */
  readonly collection: string;
  /** Relationships that exist on this kind, keyed by the API's relationship name. */
  readonly relationships: Readonly<Record<string, RelationshipDefinition<Type>>>;
  /**
   * Relationships (names of {@link KindDefinition.relationships}) that the API accepts in
   * the `relationships` member of this kind's create body (docs/gateway-api.md
   * "Relationships"): the links of a new object through them are sent with its create call
   * instead of separate link calls. None when absent.
   */
  readonly createRelationships?: readonly string[];
  /**
   * Whether `name` is how gwops names a built-in object of this kind (docs/gateway-api.md
   * "Documents and ids"): the virtual host `default`; a certificate no manifest declares,
   * `sha256:<first 16 hex digits>`, as the default certificate is named. A manifest links to
   * such a name without declaring it, whether or not the project allows external links: the
   * plan resolves it against the gateway (and says so when the gateway has none). None when absent.
   */
  readonly builtInName?: (name: string) => boolean;
  /**
   * Dependency level: lower levels are created first and deleted last
   * (certificates, ACME services, back-end groups = 0; mappings = 1; virtual hosts = 2).
   */
  readonly level: number;
  /** How objects are matched between manifests and the gateway. */
  readonly identity: IdentityHooks;
  /** Variants in which the kind exists at all. */
  readonly variants: readonly Variant[];
  /**
   * The manifest-only document kind whose documents this kind's manifests may name in
   * `extends` (mapping: `mapping-template`); none when absent. {@link TemplateKind} is the
   * union of these, read off the modules.
   */
  readonly template?: string;
  /**
   * Properties of the API's GET filters that test another attribute than their name says,
   * with the attribute path they read (a mapping's `label` tests its `labels`;
   * docs/gateway-api.md "Filter syntax"). Fetched lists keep that attribute, and callers of
   * `matchesFilter` (src/api/filter.ts) hand these in when they match objects of the kind.
   */
  readonly filterProperties?: Readonly<Record<string, readonly string[]>>;
  /**
   * False when the secret attribute at `path` (segments under `attributes`; marked
   * `x-gwops-secret` in the schema) holds no secret with these effective attributes, so a
   * value written in the manifest is no leak (a mapping's `jwsKey` is a public key unless
   * `jwsAlgorithm` is HS_*). All secret attributes hold secrets when absent.
   */
  readonly holdsSecret?: (path: readonly string[], attributes: KindAttributes) => boolean;
  /**
   * False when the write-only secret at `path` (segments under `attributes`) takes no value
   * for an object with these live attributes, so `export` writes no `{ fromEnv }` source
   * for it (a certificate's `passphrase` when its `privateKey` is not encrypted). Every
   * write-only secret takes one when absent, or when this answers true. `certificates`
   * reads private keys (handed in by the export).
   */
  readonly takesWriteOnly?: (path: readonly string[], live: KindAttributes, certificates: CertificateTools) => boolean;
  /**
   * True when objects of the kind have a binary content sub-resource `/{id}/content`
   * (docs/gateway-api.md "OpenAPI and GraphQL documents"): `GET` with `Accept:
   * application/octet-stream` answers its bytes, `PUT` with that content type stores them
   * (204). None when absent.
   */
  readonly content?: boolean;
  /**
   * Where and as what the {@link content} sub-resource is served when not at `/{id}/content`
   * as `application/octet-stream`: a virtual host's certificate revocation list is
   * `/{id}/crl`, `application/pkix-crl` (docs/gateway-api.md "Virtual hosts"). The
   * document content's when absent ({@link contentResourceOf}).
   */
  readonly contentResource?: ContentResource;
  /**
   * The file extension (without the dot) that export gives the content `data` of an object
   * of the kind (docs/manifest-reference.md "Document content"); `bin` when absent.
   */
  readonly contentExtension?: (data: Uint8Array) => string;
  /** Semantic rules of the kind's manifests; none when the schema says everything. */
  readonly rules?: ManifestRules;
  /**
   * The diagnostic codes only this kind's {@link KindDefinition.rules} report, each with what
   * it means: stable, as every code of src/core/diagnostics.ts (tests and CI scripts may rely on
   * them). Unique across the kinds and the generic codes; none when absent.
   */
  readonly diagnosticCodes?: Readonly<Record<string, string>>;
  /**
   * Attributes of the kind's manifests that the API serves as separate resources below the
   * object, one per key of the attribute's map (a mapping's use of deny rule groups:
   * `GET`/`PATCH .../mappings/{id}/deny-rule-groups/{shortName}`), by the manifest
   * attribute's name; none when absent. Only declared keys are read and changed.
   */
  readonly subResources?: Readonly<Record<string, SubResourceDefinition<Type>>>;
  /**
   * Set when the kind is a singleton (docs/gateway-api.md "Singletons"): one object per
   * gateway, read with `GET /configuration/{path}` and changed with `PATCH` on the same
   * path, never created nor deleted. A manifest document of the kind has no `name` (one per
   * target); plans only ever update it, `--prune` never touches it, and a project that
   * declares none never reads nor changes it. None when absent.
   */
  readonly singleton?: SingletonDefinition;
  /**
   * The command-line switch with which `gwops export` and `gwops init --from-gateway` read
   * or skip this kind's {@link KindDefinition.subResources} (a mapping's `--deny-rule-use`);
   * registered by the commands for every kind that has one. None when absent.
   */
  readonly exportOption?: ExportOption;
}

/**
 * A switch a kind adds to `gwops export` and `gwops init --from-gateway`: `--<name>` (the
 * default) reads the kind's sub-resources of every exported object, one GET per object
 * and key, and writes those that differ from their defaults; `--no-<name>` skips them, and
 * the export lists them as not read.
 */
export interface ExportOption {
  /** The option's name without dashes, e.g. `deny-rule-use`. */
  readonly name: string;
  /**
   * The help of `--<name>` (`on`) and `--no-<name>` (`off`) in each command; `init` shows
   * them after `with --from-gateway: `.
   */
  readonly help: Readonly<Record<'export' | 'init', { readonly on: string; readonly off: string }>>;
}

/**
 * One map attribute of a manifest served as sub-resources (KindDefinition `subResources`):
 * each key names one sub-resource at `{object path}/{segment}/{id}`, whose attributes are
 * the key's value. Plans read each declared key with a GET and change it with a PATCH.
 */
export interface SubResourceDefinition<Target extends string = ResourceType> {
  /** The path segment below the object, e.g. `deny-rule-groups`. */
  readonly segment: string;
  /** The JSON:API type of the sub-resource, e.g. `mapping-deny-rule-group`. */
  readonly type: string;
  /**
   * What a key names: `{ catalogue }`, an id listed by `GET /configuration/{catalogue}`
   * (the built-in short names); `{ target }`, the name of an object of that kind, sent as
   * its id.
   */
  readonly key: { readonly catalogue: string } | { readonly target: Target };
  /** True when the PATCH body's `data` carries the id (the key's id); else it has none. */
  readonly bodyId: boolean;
  /** The attributes of a sub-resource nobody changed (what a new object starts with). */
  readonly defaults: Readonly<Record<string, unknown>>;
  /** How plans and messages name one entry, e.g. `deny rule group`. */
  readonly label: string;
}

/** A content sub-resource: the path segment below the object and the media type of its bytes. */
export interface ContentResource {
  /** E.g. `content`, `crl`. */
  readonly segment: string;
  /** E.g. `application/octet-stream`, `application/pkix-crl`. */
  readonly mediaType: string;
  /**
   * True when an object may have none (a virtual host without a revocation list): a GET
   * answered 404 reads as empty, and export writes no content file for an empty one.
   */
  readonly optional?: boolean;
}

/** The content sub-resource of the documents (docs/gateway-api.md "OpenAPI and GraphQL documents"). */
export const DOCUMENT_CONTENT: ContentResource = { segment: 'content', mediaType: 'application/octet-stream' };

/** Where `kind` serves its content: its `contentResource`, else {@link DOCUMENT_CONTENT}. */
export function contentResourceOf(kind: { readonly contentResource?: ContentResource }): ContentResource {
  return kind.contentResource ?? DOCUMENT_CONTENT;
}

/** Where a singleton kind's one object is served (KindDefinition `singleton`). */
export interface SingletonDefinition {
  /** The path under `/configuration`, e.g. `log`, `routes/default` (no id). */
  readonly path: string;
}

/** The loose shape a kind module declares itself with (see {@link KindDefinition}). */
export type KindModule = KindDefinition<string>;
