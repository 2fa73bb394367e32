/**
 * `docs/manifest-reference.md`, made from the JSON Schemas in `schemas/` and the kind
 * registry (`src/kinds/index.ts`): per document kind its envelope, its relationships
 * (target, cardinality, canonical side, from the registry) and every attribute path with
 * type, enum values, limits, variants (`x-gwops-variants`), secret (`x-gwops-secret`) and
 * write-only marks. Pure: the schemas come in through `schemaOf`; the same input gives the
 * same text, attributes in the schemas' own order.
 */
import type { KindDefinition, RelationshipDefinition, Variant } from '#src/kinds/index.js';
import { VARIANTS } from '#src/kinds/index.js';
import { documentKinds, schemaFileName } from '#src/schema/index.js';
import type { JsonSchema } from '#src/schema/index.js';
import { cell, code, headingAnchor, table } from './markdown.js';
import { VALUE_REFERENCES } from './manifest-reference-prose.js';

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
    facts.push(
      resource.singleton
        ? `A singleton at ${code(`/configuration/${resource.singleton.path}`)}: one object per gateway, read and patched, never created nor deleted (see "Singletons" above).`
        : `API collection: ${code(`/configuration/${resource.collection}`)}.`,
    );
    facts.push(`Exists in the variants ${resource.variants.join(', ')}.`);
    facts.push(
      resource.singleton
        ? 'Identity: the kind itself; the document has no `name`, and one target declares it at most once.'
        : resource.identity.byName
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
    `<!-- Generated by \`${DOCS_COMMAND}\` (tools/docs/manifest-reference.ts) from schemas/*.schema.json and the kind registry. Do not edit by hand. -->`,
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
