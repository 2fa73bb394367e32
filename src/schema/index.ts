/**
 * The JSON Schemas of every kind, the single source of truth for their attributes, as data:
 * each kind module carries its hand-written attribute schema (`attributes.schema.json` in
 * its folder), and the document schema of each kind is made from it in memory
 * (src/schema/kind-schema.ts). Everything that needs to know an attribute (manifest
 * validation, the diff, the emulator's request checks, secret masking, variant rules)
 * derives it from here. Nothing here reads a file: `schemas/*.schema.json` are the same
 * schemas written out for editors and the package (`npm run generate`,
 * src/schema/generate.ts), read back only by src/schema/schema-files.ts.
 *
 * Schema conventions (draft 2020-12):
 * - `$defs.attributes` of `schemas/<type>.schema.json` is the attribute object of the API
 *   resource, `additionalProperties: false` at every level. It may refer to the shared
 *   definitions (`#/$defs/pattern`, `#/$defs/secretSource`, `#/$defs/jwksReference`;
 *   src/schema/kind-schema.ts), which the generator adds where they are used.
 * - `"x-gwops-variants": [...]` on a property: it exists only in those variants
 *   (docs/gateway-api.md "Variants").
 * - `"x-gwops-secret": true`: a secret; masked by every renderer. In manifests it may also
 *   be a `{fromFile}` / `{fromEnv}` source (`anyOf` with `$defs.secretSource`).
 * - `"x-gwops-file": true`: a value (a PEM certificate) that manifests may also read from a
 *   file, as `{ fromFile: path }` (`anyOf` with `$defs.fileSource`): relative to the
 *   manifest, inside the project (src/manifest/file-sources.ts).
 * - `"writeOnly": true`: accepted on create and update, never returned by GET.
 * - `"default"` on the `items` of a list of objects: the item the gateway holds for an
 *   item that leaves members out, nested objects included ({@link itemDefaultsRules}).
 * - `"x-gwops-public-key": { "algorithm": "<sibling>" }`: a public key (PEM) when the
 *   sibling attribute names a public-key algorithm. In manifests it may be a `{fromJwks}`
 *   reference (`anyOf` with `$defs.jwksReference`), and plans name its value by key id
 *   and RFC 7638 thumbprint, never by its bytes (docs/manifest-reference.md "Token keys
 *   from a JWKS").
 * - `"x-gwops-url": true` on a string: an absolute URL the gateway connects to. A user
 *   name or password in it is refused in manifests and masked in live state
 *   (src/schema/urls.ts; docs/manifest-reference.md "URLs with credentials").
 * - `"x-gwops-certificate": true` on a string (or on the `items` of a list of strings): an
 *   X.509 certificate in PEM, possibly several concatenated. Plans and drift reports show it
 *   by subject, SANs, validity and SHA-256 fingerprint; the PEM only with `--verbose`.
 */
import { KINDS, kindOfDocument } from '../kinds/index.js';
import type { KindDefinition, ResourceType, Variant } from '../kinds/index.js';
import { kindDocumentSchema, templateDocumentSchema } from './kind-schema.js';

/** A JSON Schema node (loosely typed: schemas are data). */
export interface JsonSchema {
  [keyword: string]: unknown;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  'x-gwops-variants'?: Variant[];
  'x-gwops-secret'?: boolean;
  'x-gwops-public-key'?: PublicKeyMark;
  'x-gwops-certificate'?: boolean;
  'x-gwops-file'?: boolean;
  'x-gwops-url'?: boolean;
  /**
   * The resource type whose object this value (or each item of this array) names:
   * manifests write the object's name,
   * the gateway holds its id as a JSON number (docs/architecture.md "Decisions": references
   * are names, never ids; `ipAddressListIds`, `openApiDocumentId`).
   */
  'x-gwops-reference'?: string;
  /**
   * With `x-gwops-reference`: the number that names no object (`-1`, an OpenAPI policy
   * that skips validation); it is written, compared and sent as it is.
   */
  'x-gwops-reference-none'?: number;
  writeOnly?: boolean;
}

/** The `x-gwops-public-key` mark: the sibling attribute that holds the key's algorithm. */
export interface PublicKeyMark {
  readonly algorithm: string;
}

/**
 * A document kind that has a schema file `schemas/<kind>.schema.json`: a resource type, or
 * the manifest-only template kind a resource kind names in `KindDefinition.template` (a
 * plain string, so this is one too). The known ones are {@link SCHEMA_KINDS}.
 */
export type SchemaKind = string;

/**
 * The document kinds of `kinds`, in the order gwops lists them (in messages and in the
 * generated schemas): the resource types from the top of the dependency order down (the
 * reverse of the registry, so a kind comes before the kinds it depends on), then each
 * kind's template kind.
 */
export function documentKinds(kinds: readonly KindDefinition[]): SchemaKind[] {
  const types = [...kinds].reverse().map((k): SchemaKind => k.type);
  const templates = kinds.flatMap((k) => (k.template === undefined ? [] : [k.template]));
  return [...types, ...templates];
}

/** Every document kind that has a schema file, derived from the registry (`KINDS`). */
export const SCHEMA_KINDS: readonly SchemaKind[] = documentKinds(KINDS);

/** The file name in `schemas/` of a document kind's schema: `<kind>.schema.json`. */
export function schemaFileName(kind: SchemaKind): string {
  return `${kind}.schema.json`;
}

const documentSchemas = new Map<SchemaKind, JsonSchema>();

/**
 * The manifest document schema of a kind, made in memory from its kind module (the same
 * value `npm run generate` writes to `schemas/<kind>.schema.json`, so nothing here reads a
 * file: the engine may use these facts). Cached by kind (asked for about every document);
 * callers must not change it.
 * @throws Error when `kind` is no document kind (a programming error)
 */
export function documentSchema(kind: SchemaKind): JsonSchema {
  let schema = documentSchemas.get(kind);
  if (!schema) {
    const owner = kindOfDocument(kind);
    schema = owner.template === kind ? templateDocumentSchema(owner) : kindDocumentSchema(owner, owner.attributes);
    documentSchemas.set(kind, schema);
  }
  return schema;
}

/** The attribute object schema of a resource type (`$defs.attributes`). */
export function attributesSchema(type: ResourceType): JsonSchema {
  const attrs = documentSchema(type).$defs?.attributes;
  if (!attrs) throw new Error(`schemas/${type}.schema.json has no $defs.attributes`);
  return attrs;
}

/** Resolves a local `#/$defs/...` reference inside `root`; other nodes are returned as they are. */
export function deref(node: JsonSchema, root: JsonSchema): JsonSchema {
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/$defs/')) return node;
  const target = root.$defs?.[ref.slice('#/$defs/'.length)];
  return target ? deref(target, root) : node;
}

/** One attribute path found by walking a schema. */
export interface AttributePath {
  /** Dotted path; array items appear as `[]`, e.g. `backendHosts[].port`. */
  readonly path: string;
  /** JSON pointer segments relative to `attributes` (`*` stands for an array index). */
  readonly segments: readonly string[];
  readonly schema: JsonSchema;
}

/**
 * Walks every property of a resource type's attributes (depth first), resolving `$ref`s.
 * Variant-specific, secret and write-only marks are read off `schema`.
 */
export function walkAttributes(type: ResourceType): AttributePath[] {
  const root = documentSchema(type);
  const out: AttributePath[] = [];
  const visit = (node: JsonSchema, segments: string[], path: string): void => {
    const n = deref(node, root);
    for (const [key, child] of Object.entries(n.properties ?? {})) {
      const childPath = path ? `${path}.${key}` : key;
      const childSegs = [...segments, key];
      out.push({ path: childPath, segments: childSegs, schema: child });
      visit(child, childSegs, childPath);
    }
    if (n.items) visit(n.items, [...segments, '*'], `${path}[]`);
  };
  visit(attributesSchema(type), [], '');
  return out;
}

/** Attribute paths with a schema mark, walked once per (type, mark) and cached. */
type Mark = 'x-gwops-secret' | 'writeOnly' | 'x-gwops-public-key' | 'x-gwops-reference' | 'x-gwops-url';

/** By mark, then type (two lookups of strings that exist already: asked for about every document). */
const markCache = new Map<Mark, Map<ResourceType, readonly AttributePath[]>>();

function markedAttributes(type: ResourceType, mark: Mark): readonly AttributePath[] {
  let byType = markCache.get(mark);
  if (!byType) markCache.set(mark, (byType = new Map<ResourceType, readonly AttributePath[]>()));
  let found = byType.get(type);
  if (!found) {
    found = walkAttributes(type).filter((p) =>
      mark === 'x-gwops-public-key' ? typeof p.schema[mark] === 'object' : mark === 'x-gwops-reference' ? typeof p.schema[mark] === 'string' : p.schema[mark] === true,
    );
    byType.set(type, found);
  }
  return found;
}

/** Attribute paths marked `x-gwops-secret` for a resource type (cached). */
export function secretAttributes(type: ResourceType): readonly AttributePath[] {
  return markedAttributes(type, 'x-gwops-secret');
}

/** Attribute paths marked `writeOnly` (never returned by GET) for a resource type (cached). */
export function writeOnlyAttributes(type: ResourceType): readonly AttributePath[] {
  return markedAttributes(type, 'writeOnly');
}

/**
 * Attribute paths marked `x-gwops-reference` for a resource type (cached): values that name
 * another object, written by name in manifests and held as ids by the gateway. The mark
 * (`schema['x-gwops-reference']`) is the target's resource type.
 */
export function referenceAttributes(type: ResourceType): readonly AttributePath[] {
  return markedAttributes(type, 'x-gwops-reference');
}

const filePathCache = new Map<ResourceType, readonly AttributePath[]>();

/**
 * Attribute paths marked `x-gwops-file` (a value manifests may read from a file with
 * `{ fromFile }`), on the attribute or on the items of a list attribute (segments ending
 * in `*`), for a resource type (cached).
 */
export function fileAttributes(type: ResourceType): readonly AttributePath[] {
  let found = filePathCache.get(type);
  if (!found) {
    found = walkAttributes(type).flatMap((p) => [
      ...(p.schema['x-gwops-file'] === true ? [p] : []),
      ...(p.schema.items?.['x-gwops-file'] === true ? [{ path: `${p.path}[]`, segments: [...p.segments, '*'], schema: p.schema.items }] : []),
    ]);
    filePathCache.set(type, found);
  }
  return found;
}

/** Attribute paths marked `x-gwops-url` (an absolute URL the gateway connects to) for a resource type (cached). */
export function urlAttributes(type: ResourceType): readonly AttributePath[] {
  return markedAttributes(type, 'x-gwops-url');
}

/** Attribute paths marked `x-gwops-public-key` (a PEM public key, or a `{fromJwks}` reference in manifests) for a resource type (cached). */
export function publicKeyAttributes(type: ResourceType): readonly AttributePath[] {
  return markedAttributes(type, 'x-gwops-public-key');
}

const certificatePathCache = new Map<ResourceType, ReadonlySet<string>>();

/**
 * Dotted paths (as plans name attributes, e.g. `certificateChain`) of the attributes that
 * hold X.509 certificates in PEM (schema `x-gwops-certificate`, on the attribute or on the
 * items of a list attribute) for a resource type. Cached.
 */
export function certificateAttributes(type: ResourceType): ReadonlySet<string> {
  let found = certificatePathCache.get(type);
  if (!found) {
    const marked = (node: JsonSchema | undefined): boolean => node?.['x-gwops-certificate'] === true;
    found = new Set(walkAttributes(type).filter((p) => marked(p.schema) || marked(p.schema.items)).map((p) => p.path));
    certificatePathCache.set(type, found);
  }
  return found;
}

/** The defaults of one list's items: schema `default` on the list's `items`. */
export interface ItemDefaultsRule {
  /** JSON pointer segments of the list relative to `attributes` (`*` stands for an array index). */
  readonly segments: readonly string[];
  /** What the gateway holds for a member an item leaves out (nested objects included). */
  readonly defaults: Readonly<Record<string, unknown>>;
}

const itemDefaultsCache = new Map<ResourceType, readonly ItemDefaultsRule[]>();

/**
 * The item defaults of every list of objects of a resource type, read from the `default`
 * of each list's `items` schema (docs/gateway-api.md "Attributes and server defaults",
 * list items), outer lists before the lists inside their items. Cached; callers must not
 * change the result.
 */
export function itemDefaultsRules(type: ResourceType): readonly ItemDefaultsRule[] {
  let rules = itemDefaultsCache.get(type);
  if (!rules) {
    const root = documentSchema(type);
    const found: ItemDefaultsRule[] = [];
    const visit = (node: JsonSchema, segments: readonly string[]): void => {
      const n = deref(node, root);
      for (const [key, child] of Object.entries(n.properties ?? {})) visit(child, [...segments, key]);
      if (!n.items) return;
      const defaults = n.items.default;
      if (typeof defaults === 'object' && defaults !== null && !Array.isArray(defaults)) {
        found.push({ segments, defaults: defaults as Record<string, unknown> });
      }
      visit(n.items, [...segments, '*']);
    };
    visit(attributesSchema(type), []);
    rules = found;
    itemDefaultsCache.set(type, rules);
  }
  return rules;
}

/** True when a property schema exists in `variant` (no `x-gwops-variants` means all). */
export function existsInVariant(schema: JsonSchema, variant: Variant): boolean {
  const variants = schema['x-gwops-variants'];
  return !Array.isArray(variants) || variants.includes(variant);
}

/** Options of {@link wireSchema}. */
export interface WireSchemaOptions {
  /** Keep `minimum`/`maximum`/`minLength` (the gateway itself reports ranges as validator messages). */
  readonly keepRanges: boolean;
}

/**
 * The attribute schema as the API sees it in one variant: properties of other variants
 * removed, secrets and values from files plain strings (no `{fromFile}` sources), `$ref`s inlined. Used by the
 * emulator to answer 400 `INVALID_VALUE` for unknown attributes and wrong types
 * (docs/gateway-api.md "Errors", "Rules for PATCH").
 */
export function wireSchema(type: ResourceType, variant: Variant, options: WireSchemaOptions): JsonSchema {
  const root = documentSchema(type);
  const convert = (node: JsonSchema): JsonSchema => {
    const n = deref(node, root);
    if (n['x-gwops-secret'] === true || n['x-gwops-file'] === true) return { type: 'string' };
    // The gateway holds a reference's id as a JSON number (manifests write the name).
    if (typeof n['x-gwops-reference'] === 'string') return n.type === 'array' ? { type: 'array', items: { type: 'integer' } } : { type: 'integer' };
    const out: JsonSchema = {};
    for (const [k, v] of Object.entries(n)) {
      if (k === 'properties' || k === 'items' || k === 'description' || k.startsWith('x-gwops')) continue;
      if (!options.keepRanges && (k === 'minimum' || k === 'maximum' || k === 'minLength')) continue;
      out[k] = v;
    }
    if (n.properties) {
      out.properties = {};
      for (const [k, v] of Object.entries(n.properties)) {
        // Sub-resources (KindDefinition `subResources`) are served apart from the attributes.
        if (existsInVariant(v, variant) && v['x-gwops-sub-resource'] !== true) out.properties[k] = convert(v);
      }
    }
    if (n.items) out.items = convert(n.items);
    return out;
  };
  return convert(attributesSchema(type));
}
