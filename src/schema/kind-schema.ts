/**
 * The manifest document schema of a kind (`schemas/<kind>.schema.json`) made from its kind
 * module and its hand-written attribute schema (`src/kinds/<kind>/attributes.schema.json`):
 * the envelope (`apiVersion`, `kind`, `name`, `extends`), the `relationships` with their
 * cardinality and variants, the kind's own variants, and the shared `$defs` its attributes
 * refer to. A template kind's schema (`schemas/<template>.schema.json`) is made from the
 * kind that names it. Pure: src/schema/generate.ts reads and writes the files.
 */
import type { KindDefinition, RelationshipDefinition } from '../kinds/index.js';
import { VARIANTS } from '../kinds/index.js';
import type { JsonSchema } from './index.js';
import { schemaFileName } from './index.js';

/** The manifest format version, the `apiVersion` of every document (README.md "Manifests"). */
export const API_VERSION = 'gwops/v1';

/** Where every schema of this repository is published (the base of each `$id`). */
export const SCHEMA_BASE = 'https://gwops.dev/schemas/';

/**
 * The URL of a JSON Web Key Set (`fromJwks.url`, gwops.yaml `jwks.*.url`): `https://`, or
 * plain `http://` to a loopback host only (localhost, 127.0.0.0/8, [::1]: the emulator's
 * login app on one machine; src/gateway/base-url.ts `isLoopbackHost` for the fetch).
 */
export const JWKS_URL_PATTERN = '^(?:https://|http://(?:localhost|127(?:\\.[0-9]{1,3}){3}|\\[::1\\])(?::[0-9]{1,5})?(?:[/?#]|$))';

const LOCAL_REF = '#/$defs/';

/** What the `version` of a secret source means (the same for both sources). */
const SECRET_VERSION: JsonSchema = {
  type: 'integer',
  minimum: 0,
  description:
    'Version of the secret: raise it when the secret changes, so that gwops plans an update of a write-only attribute (the gateway never returns its value to compare)',
};

/**
 * Definitions that any kind's attribute schema may refer to as `#/$defs/<name>`; a kind's
 * document schema carries those its attributes refer to (directly or through another of
 * them), in this order.
 */
export const SHARED_DEFS: Readonly<Record<string, JsonSchema>> = {
  pattern: {
    type: 'object',
    additionalProperties: false,
    properties: {
      pattern: { type: 'string', description: 'The pattern (regular expression)' },
      caseIgnored: { type: 'boolean', description: 'Ignore case' },
      inverted: { type: 'boolean', description: 'Invert the match' },
      enabled: { type: 'boolean', description: 'Pattern is enabled (where present)' },
      multipleSingleLineRegex: { type: 'boolean', description: 'Line breaks act as logical OR (where present)' },
      name: { type: 'string', description: 'Pattern name; generated when empty' },
    },
    description: 'Pattern object (docs/gateway-api.md "Attributes and server defaults")',
  },
  secretSource: {
    description:
      'A secret taken from a file or an environment variable instead of the manifest; `version` marks a rotation of a write-only secret (docs/manifest-reference.md "Secrets that rotate")',
    oneOf: [
      {
        type: 'object',
        additionalProperties: false,
        required: ['fromFile'],
        properties: { fromFile: { type: 'string', minLength: 1 }, version: SECRET_VERSION },
      },
      {
        type: 'object',
        additionalProperties: false,
        required: ['fromEnv'],
        properties: { fromEnv: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }, version: SECRET_VERSION },
      },
    ],
  },
  fileSource: {
    description:
      'A value read from a file instead of written in the manifest (a PEM certificate): the path is relative to this manifest and must lie inside the project (docs/manifest-reference.md "Values from files")',
    type: 'object',
    additionalProperties: false,
    required: ['fromFile'],
    properties: { fromFile: { type: 'string', minLength: 1, description: 'Path of the file, relative to this manifest and inside the project' } },
  },
  jwksReference: {
    description: 'A public key read from a JSON Web Key Set at plan, apply and drift time (docs/manifest-reference.md "Token keys from a JWKS")',
    type: 'object',
    additionalProperties: false,
    required: ['fromJwks'],
    properties: {
      fromJwks: {
        type: 'object',
        additionalProperties: false,
        properties: {
          url: { type: 'string', pattern: JWKS_URL_PATTERN, description: 'https:// URL of the JWK Set (plain http:// only to a loopback host: localhost, 127.0.0.0/8, [::1])' },
          source: { type: 'string', minLength: 1, description: 'Name of a `jwks` entry of gwops.yaml (one fetch for all mappings that name it)' },
          kid: { type: 'string', minLength: 1, description: 'Key id of the key to use' },
          alg: {
            type: 'string',
            enum: ['RS_256', 'RS_384', 'RS_512', 'PS_256', 'PS_384', 'PS_512'],
            description: 'Use the one key the set announces for this algorithm (its `alg` member)',
          },
        },
        allOf: [{ oneOf: [{ required: ['url'] }, { required: ['source'] }] }, { oneOf: [{ required: ['kid'] }, { required: ['alg'] }] }],
      },
    },
  },
};

/** The names of the local `#/$defs/<name>` references anywhere in `node`. */
function localRefs(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const item of node) localRefs(item, into);
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(LOCAL_REF)) into.add(value.slice(LOCAL_REF.length));
      else localRefs(value, into);
    }
  }
  return into;
}

/**
 * The shared definitions `attributes` refers to, with those they refer to in turn, in the
 * order of {@link SHARED_DEFS}.
 * @throws Error when `attributes` refers to a definition that is neither shared nor `attributes`
 */
function sharedDefsFor(type: string, attributes: JsonSchema): Record<string, JsonSchema> {
  const wanted = localRefs(attributes, new Set());
  for (const name of wanted) {
    const shared = SHARED_DEFS[name];
    if (shared === undefined) throw new Error(`src/kinds/${type}/attributes.schema.json refers to #/$defs/${name}, which is no shared definition (one of ${Object.keys(SHARED_DEFS).join(', ')})`);
    localRefs(shared, wanted);
  }
  return Object.fromEntries(Object.entries(SHARED_DEFS).filter(([name]) => wanted.has(name)));
}

/** The document's `name`: the object's name attribute, or a local handle when the name is no identity. */
function nameSchema(kind: KindDefinition): JsonSchema {
  const description = kind.identity.byName ? "Identity on the gateway: the object's `name` attribute" : 'Local handle that relationships use (the API object has no name)';
  return { type: 'string', minLength: 1, description };
}

/** One relationship as a manifest declares it: a name (to-one) or a list of unique names (to-many). */
function relationshipSchema(relationship: RelationshipDefinition): JsonSchema {
  const name: JsonSchema = { type: 'string', minLength: 1 };
  const schema: JsonSchema =
    relationship.cardinality === 'many'
      ? { type: 'array', items: name, uniqueItems: true, description: relationship.description ?? `Names of linked ${relationship.target}s` }
      : { ...name, description: relationship.description ?? `Name of the linked ${relationship.target} (to-one)` };
  if (relationship.variants) schema['x-gwops-variants'] = [...relationship.variants];
  return schema;
}

/** The members every document schema starts with: `$schema`, `$id`, title, description and the closed object. */
function envelope(documentKind: string, description: string): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${SCHEMA_BASE}${schemaFileName(documentKind)}`,
    title: `gwops ${documentKind}`,
    description,
    type: 'object',
    additionalProperties: false,
    required: ['apiVersion', 'kind', 'name'],
  };
}

/**
 * `schemas/<kind.type>.schema.json`: the manifest document of `kind`, whose attribute object
 * schema is `attributes` (kept as `$defs.attributes`; see src/schema/index.ts for its
 * conventions).
 * @throws Error when `attributes` refers to an unknown `#/$defs/` entry
 */
export function kindDocumentSchema(kind: KindDefinition, attributes: JsonSchema): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    apiVersion: { const: API_VERSION, description: 'Manifest format version' },
    kind: { const: kind.type },
    name: nameSchema(kind),
    attributes: { $ref: `${LOCAL_REF}attributes` },
  };
  if (kind.template !== undefined) {
    properties.extends = {
      type: 'string',
      minLength: 1,
      description: `Name of a ${kind.template} document whose attributes this ${kind.type} inherits`,
    };
  }
  if (kind.content === true) {
    properties.content = {
      type: 'object',
      additionalProperties: false,
      required: ['fromFile'],
      properties: {
        fromFile: { type: 'string', minLength: 1, description: 'Path of the file that holds the bytes, relative to this manifest and inside the project' },
      },
      description:
        kind.contentResource === undefined
          ? "The document's content sub-resource (the specification itself), uploaded as bytes and compared by SHA-256 digest; absent: the content is not managed (docs/manifest-reference.md \"Document content\")"
          : `The ${kind.type}'s ${kind.contentResource.segment} sub-resource (${kind.contentResource.mediaType}), uploaded as bytes and compared by SHA-256 digest; absent: it is not managed (docs/manifest-reference.md "Document content")`,
    };
  }
  properties.relationships = {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(Object.entries(kind.relationships).map(([name, r]) => [name, relationshipSchema(r)])),
  };
  // A singleton's document has no name: there is one object of the kind per gateway.
  if (kind.singleton) delete properties.name;
  const schema: JsonSchema = {
    ...envelope(kind.type, kind.description),
    ...(kind.singleton ? { required: ['apiVersion', 'kind'] } : {}),
    properties,
    $defs: { attributes, ...sharedDefsFor(kind.type, attributes) },
  };
  if (VARIANTS.some((v) => !kind.variants.includes(v))) schema['x-gwops-variants'] = [...kind.variants];
  return schema;
}

/**
 * `schemas/<kind.template>.schema.json`: a template document of `kind` (docs/manifest-reference.md
 * "Templates"), whose attributes are `kind`'s and which may extend another template.
 * @throws Error when `kind` names no template kind
 */
export function templateDocumentSchema(kind: KindDefinition): JsonSchema {
  const template = kind.template;
  if (template === undefined) throw new Error(`${kind.type} names no template kind`);
  return {
    ...envelope(template, `Shared ${kind.type} attributes that ${kind.type}s inherit with \`extends\` (deep-merged, lists replace)`),
    properties: {
      apiVersion: { const: API_VERSION, description: 'Manifest format version' },
      kind: { const: template },
      name: nameSchema(kind),
      attributes: { $ref: `${LOCAL_REF}attributes` },
      extends: {
        type: 'string',
        minLength: 1,
        description: `Name of another ${template} document whose attributes this template inherits (deep-merged, lists replace, this template's own attributes win)`,
      },
    },
    $defs: { attributes: { $ref: `${schemaFileName(kind.type)}${LOCAL_REF}attributes` } },
  };
}
