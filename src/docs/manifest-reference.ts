/**
 * `docs/manifest-reference.md`, made from the JSON Schemas in `schemas/` and the kind
 * registry (`src/kinds/index.ts`): per document kind its envelope, its relationships
 * (target, cardinality, canonical side, from the registry) and every attribute path with
 * type, enum values, limits, variants (`x-gwops-variants`), secret (`x-gwops-secret`) and
 * write-only marks. Pure: the schemas come in through `schemaOf`; the same input gives the
 * same text, attributes in the schemas' own order.
 */
import type { KindDefinition, RelationshipDefinition, Variant } from '../kinds/index.js';
import { VARIANTS } from '../kinds/index.js';
import { documentKinds, schemaFileName } from '../schema/index.js';
import type { JsonSchema } from '../schema/index.js';
import { cell, code, headingAnchor, table } from './markdown.js';

/** The command that regenerates the documentation, as named in the generated files. */
export const DOCS_COMMAND = 'npm run docs';

/** Reads the manifest document schema of a document kind (`schemas/<kind>.schema.json`). */
export type SchemaReader = (kind: string) => JsonSchema;

/** One attribute path of a kind, as the reference lists it. */
export interface AttributeEntry {
  /** Dotted path below `attributes`; array items appear as `[]` (`backendHosts[].port`). */
  readonly path: string;
  /** The property's schema as written (before `$ref` resolution), for its marks. */
  readonly declared: JsonSchema;
  /** The property's schema with local `$ref`s resolved. */
  readonly schema: JsonSchema;
  /** Variants in which it exists (its own mark within those of the properties around it); undefined: all. */
  readonly variants: readonly Variant[] | undefined;
}

const LOCAL_REF = '#/$defs/';
const EXTERNAL_ATTRIBUTES_REF = /^([A-Za-z0-9._-]+)\.schema\.json#\/\$defs\/attributes$/;

/** `node` with local `#/$defs/...` references of `root` resolved (cycles stop at the reference). */
function resolve(node: JsonSchema, root: JsonSchema, seen: ReadonlySet<string> = new Set()): JsonSchema {
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith(LOCAL_REF) || seen.has(ref)) return node;
  const target = root.$defs?.[ref.slice(LOCAL_REF.length)];
  return target ? resolve(target, root, new Set([...seen, ref])) : node;
}

function variantsOf(node: JsonSchema): readonly Variant[] | undefined {
  const marked = node['x-gwops-variants'];
  return Array.isArray(marked) ? marked : undefined;
}

/** The variants of both: their intersection, in the order of `VARIANTS`. */
function within(outer: readonly Variant[] | undefined, inner: readonly Variant[] | undefined): readonly Variant[] | undefined {
  if (outer === undefined) return inner;
  if (inner === undefined) return outer;
  return VARIANTS.filter((v) => outer.includes(v) && inner.includes(v));
}

/**
 * Every attribute path of an attributes schema, depth first in the schema's property order,
 * with local `$ref`s of `root` resolved (a reference met again on the way down is not
 * followed again).
 */
export function attributeEntries(attributes: JsonSchema, root: JsonSchema): AttributeEntry[] {
  const out: AttributeEntry[] = [];
  const visit = (node: JsonSchema, path: string, variants: readonly Variant[] | undefined, refs: ReadonlySet<string>): void => {
    const n = resolve(node, root, refs);
    const seen = typeof node.$ref === 'string' ? new Set([...refs, node.$ref]) : refs;
    for (const [key, child] of Object.entries(n.properties ?? {})) {
      const childPath = path ? `${path}.${key}` : key;
      const childVariants = within(variants, variantsOf(child));
      out.push({ path: childPath, declared: child, schema: resolve(child, root, seen), variants: childVariants });
      visit(child, childPath, childVariants, seen);
    }
    if (n.items) visit(n.items, `${path}[]`, variants, seen);
  };
  visit(attributes, '', undefined, new Set());
  return out;
}

/** A short type of a schema node: `string`, `array of integer`, `string or { fromEnv } or { fromFile }`. */
export function typeText(node: JsonSchema, root: JsonSchema): string {
  const n = resolve(node, root);
  if ('const' in n) return code(JSON.stringify(n.const));
  const alternatives = n.anyOf ?? n.oneOf;
  if (alternatives) return alternatives.map((a) => alternativeText(a, root)).join(' or ');
  const types = Array.isArray(n.type) ? n.type : n.type === undefined ? [] : [n.type];
  if (types.length === 0) return n.enum ? 'enum' : 'any';
  return types.map((t) => (t === 'array' ? `array of ${n.items ? typeText(n.items, root) : 'any'}` : t)).join(' or ');
}

/** One alternative of an `anyOf`/`oneOf`: an object with properties is shown by its keys (`{ fromEnv }`). */
function alternativeText(node: JsonSchema, root: JsonSchema): string {
  const n = resolve(node, root);
  if (n.anyOf ?? n.oneOf) return typeText(n, root);
  const keys = Object.keys(n.properties ?? {});
  if (n.type === 'object' && keys.length > 0) return code(`{ ${keys.join(', ')} }`);
  return typeText(n, root);
}

const LIMITS: readonly (readonly [keyword: string, label: string])[] = [
  ['minimum', 'min'],
  ['exclusiveMinimum', 'greater than'],
  ['maximum', 'max'],
  ['exclusiveMaximum', 'less than'],
  ['minLength', 'min length'],
  ['maxLength', 'max length'],
  ['minItems', 'min items'],
  ['maxItems', 'max items'],
  ['format', 'format'],
];

/** Enum values, default and limits of a schema node, as one cell's text. */
export function valuesText(node: JsonSchema, root: JsonSchema): string {
  const n = resolve(node, root);
  const items = n.items ? resolve(n.items, root) : undefined;
  const parts: string[] = [];
  const values = n.enum ?? items?.enum;
  if (values) parts.push(`${n.enum ? 'one of' : 'each one of'} ${values.map((v) => code(typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}`);
  if ('default' in n) parts.push(`default ${code(JSON.stringify(n.default))}`);
  for (const [keyword, label] of LIMITS) {
    const value = n[keyword];
    if (typeof value === 'number' || typeof value === 'string') parts.push(`${label} ${typeof value === 'number' ? String(value) : code(value)}`);
  }
  if (typeof n.pattern === 'string') parts.push(`pattern ${code(n.pattern)}`);
  if (n.uniqueItems === true) parts.push('unique items');
  return parts.join('; ');
}

/**
 * The sections on value references beyond `{ fromEnv }` / `{ fromFile }`: public keys from a
 * JWK Set (`x-gwops-public-key`, src/jwks/) and versions of write-only secrets
 * (src/engine/secret-versions.ts). Code comments point to these headings.
 */
const VALUE_REFERENCES: readonly string[] = [
  '### Variables',
  '',
  '`${NAME}` in a value is replaced by the environment variable `NAME` (unset: an error at',
  'that value), `${NAME:-default}` by `default` when `NAME` is unset or empty, and `$${` stands',
  'for a literal `${`. Keys are never substituted. Where a value is one reference and nothing',
  'else, the result takes the type the schema expects there: it is read as if its text had',
  'been written in place of the reference, so `keepAliveTimeout: ${KA:-5}` is the integer 5',
  'and `enabled: ${TLS}` with `TLS=true` the boolean true. Where the schema expects a string',
  'the text stays a string (`hostName: ${PORT}` with `PORT=8080` is `"8080"`), and a reference',
  'with anything around it (`port-${N}`) is always a string. A text that does not fit (`KA=soon`',
  'for an integer) is reported at the value like any other wrong type. A reference may be',
  'written unquoted in a flow collection as well: `{ port: ${PORT}, enabled: true }`,',
  '`[${ALIAS}, b.example.com]`.',
  '',
  '### Token keys from a JWKS',
  '',
  'An attribute that holds a public key (marked `x-gwops-public-key` in the schema: a',
  "mapping's `access.tokenVerification.jwsKey`) may name a key of a JSON Web Key Set",
  'instead of holding the PEM, so that a key rotation of the token issuer becomes an',
  'ordinary reviewed change:',
  '',
  '```yaml',
  'access:',
  '  tokenVerification:',
  '    jwsAlgorithm: RS_256',
  '    jwsKey: { fromJwks: { source: login, alg: RS_256 } }   # the key the set announces for RS256',
  '    # or { fromJwks: { source: login, kid: 2026-05 } }     # one key, by its key id',
  '    # or { fromJwks: { url: https://login.example.com/auth/rest/public/signing-keys/jwks, kid: 2026-05 } }',
  '```',
  '',
  '`source` names an entry of `jwks:` in `gwops.yaml` (`url`, optional `caFile` relative to',
  'the project file, `timeoutMs`, default 10000); every mapping that names it shares one',
  'fetch. `kid` selects the key with that key id; `alg` selects the one key whose `alg`',
  'member names the algorithm (`RS_256` is `RS256`): a key published without `alg` (as the',
  "emulator's login application publishes a key during its grace period after a rotation)",
  'is never selected by `alg`, and a set that announces several keys for it is an error.',
  '',
  'At `plan`, `apply` and `drift` time, before the gateway is contacted, gwops fetches each',
  'JWK Set once per run (`https://` only, TLS verified against the system\'s root CAs or',
  '`caFile`, redirects refused, at most 256 KiB), selects the key, checks that its type fits',
  'the algorithm declared next to it (`jwsAlgorithm`: an RSA key for `RS_*` and `PS_*`),',
  'converts it to the PEM SubjectPublicKeyInfo form the gateway takes and uses that as the',
  'declared value. Any problem (an unreachable set, a body that is not a JWK Set, a missing',
  '`kid`, several candidates for `alg`, a key of the wrong type) stops the run with the',
  "reference's file:line and the URL; nothing is sent to the gateway. `fromJwks` next to an",
  '`HS_*` algorithm, whose key is a passphrase, a `source` that `gwops.yaml` does not',
  'define, and a URL (of the reference or of its source) with a user name or password are',
  'found by `gwops validate` too, which never fetches. A JWK Set is public: a URL with',
  'credentials is refused as the gateway URL is, and shown without them.',
  '',
  'Plans, drift reports and every format name a public key by key id and RFC 7638',
  'thumbprint, never by its bytes: `(public key kid 2026-05 (thumbprint NzbL…))`. The live',
  'value is named by the thumbprint of the PEM on the gateway, and by its kid when a fetched',
  'set still publishes it, so a rotation reads',
  '`(public key kid old (thumbprint …)) -> (public key kid new (thumbprint …))`. Two PEMs of',
  'the same key compare equal.',
  '',
  '### Secrets that rotate',
  '',
  'The gateway never returns a `write-only` attribute (a passphrase, an HMAC key), so gwops',
  "cannot compare it: when only the secret's value changes, the plan has no",
  'change. To roll out a new secret, give its source a `version` and raise it with the',
  "secret (after Terraform's write-only arguments and their `_wo_version`):",
  '',
  '```yaml',
  'passphrase: { fromEnv: TLS_PASSPHRASE, version: 3 }',
  '```',
  '',
  '`apply` records the versions it applied in a machine-readable trailer at the end of the',
  'activation comment, for example',
  '`gwops apply: 1a2b3c4 Rotate the shop passphrase gwops-secret-versions={"ssl-certificate":{"shop-tls":{"passphrase":3}}}`.',
  '`plan`, `apply` and `drift` read the trailer of the newest configuration of the',
  "gateway's configurations list that has one; a declared version that differs from the",
  'recorded one (or that is not recorded yet) plans an update of exactly that attribute,',
  'shown as `(sensitive value, version 2) -> (sensitive value, version 3)`. Only the',
  'numbers of the manifests are stored: never a secret, never a hash of one. `gwops rollback`',
  'writes the versions in effect at the configuration it goes back to. A `version` on',
  'a secret that the gateway returns is allowed and has no effect (such a secret is',
  'compared directly).',
  '',
  "A certificate's `privateKey` is returned by the gateway as it was uploaded (still",
  'encrypted when it was), so it needs no version: gwops compares the declared key with the',
  'live one by a digest of their PEM lines (line endings and blank space aside) and shows',
  'the change masked. A key replaced on the gateway by hand is drift (`gwops drift`) that',
  '`apply` undoes; `export` and `drift --adopt` write it as a `{ fromEnv }` source, never',
  'its value.',
  '',
  '### Document content',
  '',
  'An `openapi-document` or `graphql-document` holds its specification in a content',
  'sub-resource, not in an attribute ([gateway-api.md](gateway-api.md), "OpenAPI and GraphQL',
  'documents"). A document declares it beside `attributes`:',
  '',
  '```yaml',
  'apiVersion: gwops/v1',
  'kind: openapi-document',
  'name: example-orders-api',
  'content:',
  '  fromFile: orders.openapi.yaml   # relative to this manifest',
  '```',
  '',
  'The file is read as bytes: a regular file of at most 16 MiB inside the project (the',
  'deepest directory that holds `gwops.yaml`, or the working directory without one, and',
  'every manifest and overlay path the run reads; a symbolic link is followed and must end',
  'inside it too). A missing, unreadable or outside file is an error',
  "at the `fromFile` value's line and column, and nothing is sent to the gateway. A YAML",
  'file that a document names as its content is not read as a manifest, even in a',
  'directory the project scans. Without `content` the content is not managed: gwops never',
  'reads nor changes it.',
  '',
  '`plan` reads the live content of each declared document that has `content` (one GET',
  'each) and compares the SHA-256 digests. A difference is an update of the document, shown',
  'with both digests and a unified diff of the text (`gateway` against `manifest`, at most',
  '200 lines; content that is not UTF-8 text, or has more than 2,000 changed lines, shows',
  'the digests only). A new document is created, then its content uploaded',
  '(`PUT /{id}/content`) before anything that uses it is linked. The JSON plan carries the',
  'digests and the diff in the step, and the bytes once, base64, in the `content` call that',
  'uploads them; a plan file (`plan --out`) therefore holds the reviewed bytes, and',
  '`apply --plan` uploads exactly those (a call whose bytes no longer have its digest is',
  'refused before anything is sent), whatever the file holds by then.',
  '',
  'Content changed on the gateway is drift (`changed`, path `content`, the two digests);',
  '`drift --adopt` writes the live bytes into the `fromFile` file. `export` and',
  '`init --from-gateway` write each document\'s content beside its manifest as',
  '`<name>.content.json` or `<name>.content.yaml` (OpenAPI, by whether the bytes parse as',
  'JSON) or `<name>.content.graphql`, and declare it with `content: { fromFile }`.',
  '',
  '### Deny rule use',
  '',
  'How a mapping uses deny rules is declared in its `attributes`, in four maps keyed by what',
  'they use: `denyRuleGroups` and `denyRules` by the built-in short names the gateway lists',
  '(`GET /configuration/deny-rule-groups`, `/deny-rules`), `customDenyRuleGroups` and',
  '`customDenyRules` by the names of `custom-deny-rule-group` and `custom-deny-rule` objects:',
  '',
  '```yaml',
  'attributes:',
  '  denyRuleGroups:',
  '    SQLI_PARAM_VALUE:',
  '      logOnly: true',
  '      exceptions:',
  "        - { enabled: true, parameterNamePattern: { enabled: true, pattern: '^q$', name: search } }",
  '  denyRules: { SQL_001a: { logOnly: true } }',
  '  customDenyRuleGroups: { shop-rules: { logOnly: false } }',
  '```',
  '',
  'The gateway serves each entry as a resource of its own below the mapping',
  '(docs/gateway-api.md "Deny rules"), not as an attribute; the maps sit among the',
  "attributes all the same, so that templates, overlays, variables and positions work on",
  'them as on any attribute, and a plan or drift report names a change by its path, e.g.',
  '`denyRuleGroups.SQLI_PARAM_VALUE.logOnly`. Only the entries a manifest lists are managed:',
  "plans read each listed entry (one GET each), never the others, so a group's use that no",
  'manifest lists is never changed nor reported as drift; inside an entry only the members',
  'it declares are compared, and `exceptions` is a list, replaced whole. A changed entry is',
  "one PATCH after the mapping and the custom groups and rules it names exist. A short name",
  "the gateway does not list is an error at its key, with the nearest known one suggested,",
  'before anything is sent; a custom name that neither the manifests nor the gateway have is',
  'an error at its key too.',
  '',
  '`export` (and `init --from-gateway`) writes no deny rule use by default: reading it takes',
  'one call per group and rule of every mapping, which does not scale to 100,000 mappings.',
  'With `--deny-rule-use` it reads, for each exported mapping, its use of every built-in',
  'group and rule the gateway lists and of every custom group and rule the export includes,',
  'and writes only the entries that differ from the default use (a group enabled, not',
  'log-only, without exceptions; a rule or custom group or rule not log-only), and in them',
  'only the members that differ (every member with `--keep-defaults`). The export then',
  'plans no change, and hand-tuned exceptions and log-only settings become managed. Without',
  'it, declare the entries you want to manage by hand; `drift --adopt` takes the live value',
  'of a declared entry.',
  '',
];

/** The marks column: `secret`, `write-only`. */
function marksText(entry: AttributeEntry): string {
  const marks: string[] = [];
  if (entry.declared['x-gwops-secret'] === true || entry.schema['x-gwops-secret'] === true) marks.push('secret');
  if (entry.declared.writeOnly === true || entry.schema.writeOnly === true) marks.push('write-only');
  return marks.join(', ');
}

function variantsText(variants: readonly Variant[] | undefined): string {
  return variants === undefined ? '' : variants.join(', ');
}

function descriptionOf(declared: JsonSchema, resolved: JsonSchema): string {
  const text = declared.description ?? resolved.description;
  return typeof text === 'string' ? text : '';
}

/** The heading of a kind's section and of its parts, unique across the page. */
const heading = {
  kind: (kind: string): string => kind,
  envelope: (kind: string): string => `${kind} envelope`,
  relationships: (kind: string): string => `${kind} relationships`,
  attributes: (kind: string): string => `${kind} attributes`,
};

function link(text: string, title: string): string {
  return `[${text}](#${headingAnchor(title)})`;
}

/** The envelope table of a document schema: its top-level fields. */
function envelopeTable(schema: JsonSchema, kind: string): string {
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  const rows = Object.entries(schema.properties ?? {}).map(([field, node]) => {
    const resolved = resolve(node, schema);
    let type = typeText(node, schema);
    let description = descriptionOf(node, resolved);
    if (field === 'attributes') {
      type = 'object';
      description = description || `The API's attributes of the object, any subset: see ${link(heading.attributes(kind), heading.attributes(kind))}`;
    } else if (field === 'relationships') {
      description = description || `Links to other objects by their document name: see ${link(heading.relationships(kind), heading.relationships(kind))}`;
    }
    return [code(field), cell(type), required.has(field) ? 'yes' : '', cell(description)];
  });
  return table(['Field', 'Type', 'Required', 'Description'], rows);
}

/** Where gwops sends link and unlink calls for a relationship. */
function canonicalText(relationship: RelationshipDefinition): string {
  if (relationship.canonical) return 'this side';
  return `${link(code(relationship.target), heading.relationships(relationship.target))} ${code(relationship.inverse)}`;
}

/** The relationships table of a resource kind: the registry's definitions, the schema's descriptions. */
function relationshipsTable(kind: KindDefinition, schema: JsonSchema): string {
  const declared = resolve(schema.properties?.relationships ?? {}, schema).properties ?? {};
  const rows = Object.values(kind.relationships).map((r) => {
    const node = declared[r.name] ?? {};
    const form = r.cardinality === 'many' ? 'a list of names' : 'one name';
    const aliases = r.aliases && r.aliases.length > 0 ? ` Also read under ${r.aliases.map(code).join(', ')}.` : '';
    return [
      code(r.name),
      link(code(r.target), heading.kind(r.target)),
      r.cardinality,
      form,
      canonicalText(r),
      variantsText(r.variants ?? variantsOf(node)),
      cell(`${descriptionOf(node, node)}${aliases}`.trim()),
    ];
  });
  return table(['Relationship', 'Target', 'Cardinality', 'In a manifest', 'Canonical side', 'Variants', 'Description'], rows);
}

/** The attributes table of an attributes schema. */
function attributesTable(attributes: JsonSchema, root: JsonSchema): string {
  const rows = attributeEntries(attributes, root).map((entry) => [
    code(entry.path),
    cell(typeText(entry.declared, root)),
    cell(valuesText(entry.declared, root)),
    variantsText(entry.variants),
    marksText(entry),
    cell(descriptionOf(entry.declared, entry.schema)),
  ]);
  return table(['Path', 'Type', 'Values and limits', 'Variants', 'Marks', 'Description'], rows);
}

/** The section of one document kind. */
function kindSection(documentKind: string, kinds: readonly KindDefinition[], schemaOf: SchemaReader): string {
  const schema = schemaOf(documentKind);
  const resource = kinds.find((k) => k.type === documentKind);
  const owner = kinds.find((k) => k.template === documentKind);
  const parts: string[] = [`## ${heading.kind(documentKind)}`, ''];
  if (typeof schema.description === 'string') parts.push(`${schema.description}.`.replace(/\.\.$/, '.'), '');
  const facts: string[] = [`Schema: ${code(`schemas/${schemaFileName(documentKind)}`)}.`];
  if (resource) {
    facts.push(`API collection: ${code(`/configuration/${resource.collection}`)}.`);
    facts.push(`Exists in the variants ${resource.variants.join(', ')}.`);
    facts.push(
      resource.identity.byName
        ? "Identity: the document's `name` is the object's `name` attribute."
        : "Identity: the object has no usable `name`; the document's `name` is a local handle that relationships use.",
    );
    facts.push(`Dependency level ${resource.level} (lower levels are created first and deleted last).`);
    if (resource.template !== undefined) facts.push(`Its documents may \`extends\` a ${link(code(resource.template), heading.kind(resource.template))} document.`);
  } else if (owner) {
    facts.push(
      `Manifest only: no object on the gateway. ${link(code(owner.type), heading.kind(owner.type))} documents${
        schema.properties?.extends ? ` (and other ${code(documentKind)} documents)` : ''
      } name it in \`extends\` and inherit its attributes.`,
    );
  }
  parts.push(facts.join(' '), '');

  parts.push(`### ${heading.envelope(documentKind)}`, '', envelopeTable(schema, documentKind));

  if (resource) {
    parts.push(`### ${heading.relationships(documentKind)}`, '');
    parts.push(Object.keys(resource.relationships).length === 0 ? 'None.\n' : relationshipsTable(resource, schema));
  }

  parts.push(`### ${heading.attributes(documentKind)}`, '');
  const attributes = schema.$defs?.attributes ?? schema.properties?.attributes;
  const external = typeof attributes?.$ref === 'string' ? EXTERNAL_ATTRIBUTES_REF.exec(attributes.$ref)?.[1] : undefined;
  if (attributes === undefined) parts.push('None.\n');
  else if (external !== undefined) parts.push(`The same as those of ${link(code(external), heading.attributes(external))}.\n`);
  else parts.push(attributesTable(attributes, schema));
  return parts.join('\n');
}

/** `docs/manifest-reference.md` for the registry `kinds` and their schemas. */
export function manifestReference(kinds: readonly KindDefinition[], schemaOf: SchemaReader): string {
  const documents = documentKinds(kinds);
  const overview = documents.map((kind) => {
    const resource = kinds.find((k) => k.type === kind);
    const owner = kinds.find((k) => k.template === kind);
    const what = resource ? `resource type, ${code(`/configuration/${resource.collection}`)}` : owner ? `template of ${code(owner.type)} documents (manifest only)` : '';
    const variants = resource ? resource.variants.join(', ') : owner ? owner.variants.join(', ') : '';
    const description = schemaOf(kind).description;
    return [link(code(kind), heading.kind(kind)), what, variants, cell(typeof description === 'string' ? description : '')];
  });
  const intro = [
    '# Manifest reference',
    '',
    `<!-- Generated by \`${DOCS_COMMAND}\` (src/docs/manifest-reference.ts) from schemas/*.schema.json and the kind registry. Do not edit by hand. -->`,
    '',
    'Every document kind a manifest may hold, made from the JSON Schemas in `schemas/` and the',
    `kind registry (\`src/kinds/index.ts\`) by \`${DOCS_COMMAND}\`. Regenerate it instead of editing it.`,
    '',
    'A manifest document mirrors a JSON:API resource object of the gateway\'s configuration',
    'REST API ([gateway-api.md](gateway-api.md)): `apiVersion: gwops/v1`, the `kind`, the',
    '`name` that identifies the object, optionally `extends` (a template whose attributes it',
    'inherits), the `attributes` under the API\'s own names (any subset: an attribute left out',
    'keeps its live value, lists are replaced whole) and the `relationships`, which name other',
    'documents. Editors validate documents with',
    '`# yaml-language-server: $schema=<path>/schemas/manifest.schema.json`.',
    '',
    'How to read the tables:',
    '',
    '- **Path**: the attribute below `attributes`, dotted; `[]` stands for the items of a list',
    '  (`backendHosts[].port` is the `port` of every entry of `backendHosts`).',
    '- **Type**: the JSON type; `{ fromEnv }` and `{ fromFile }` are the secret sources',
    '  `{ fromEnv: NAME }` (an environment variable) and `{ fromFile: path }` (a file, relative',
    '  to the manifest), each with an optional `version` ([Secrets that rotate](#secrets-that-rotate));',
    '  `{ fromJwks }` reads a public key from a JSON Web Key Set ([Token keys from a JWKS](#token-keys-from-a-jwks)).',
    '- **Values and limits**: the allowed values, defaults and ranges the schema states.',
    '- **Variants**: the gateway variants in which the attribute exists (`x-gwops-variants`,',
    '  including those of the attributes around it); empty means every variant. Using it',
    '  against another variant is a manifest error.',
    '- **Marks**: `secret` (`x-gwops-secret`): masked in every output; write it as a',
    '  `{ fromEnv }` or `{ fromFile }` source rather than in Git. `write-only`: accepted on',
    '  create and update, never returned by the gateway\'s GET.',
    '- **Canonical side** of a relationship: the side from which gwops sends the link and',
    '  unlink calls. A manifest may declare a link from either side; both mean the same link.',
    '',
    table(['Kind', 'What', 'Variants', 'Description'], overview),
    '',
    ...VALUE_REFERENCES,
  ].join('\n');
  return [intro, ...documents.map((kind) => kindSection(kind, kinds, schemaOf))].join('\n');
}
