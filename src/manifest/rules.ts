/**
 * Semantic rules beyond the schema (docs/architecture.md "The data path", step 1): variants,
 * links to names no manifest defines, regex priorities, regular expressions, HTTP/2 and
 * certificate modes. Each rule pushes diagnostics; none throws.
 */
import { isResourceType, kindOf } from '../kinds/index.js';
import type { Variant } from '../kinds/index.js';
import { attributesSchema, deref, documentSchema, existsInVariant } from '../schema/index.js';
import type { JsonSchema } from '../schema/index.js';
import type { Diagnostic } from './diagnostics.js';
import type { EntryIndex } from './collect.js';
import type { Entry } from './entries.js';
import { entryDiagnostic, labelOf } from './entries.js';
import { attributePath, suggestion } from './schema-check.js';
import type { AttributeObject, ManifestDocument } from './types.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const variantsText = (schema: JsonSchema): string => {
  const v = schema['x-gwops-variants'] ?? [];
  return v.length === 1 ? `the ${v[0] ?? ''} variant` : `the ${v.join(' and ')} variants`;
};

/**
 * Reports attributes, relationships and kinds that do not exist in `variant`
 * (docs/gateway-api.md "Variants"; the schemas' `x-gwops-variants` marks).
 */
export function checkVariant(entry: Entry, variant: Variant, out: Diagnostic[]): void {
  const label = labelOf(entry.kind, entry.name);
  const docSchema = documentSchema(entry.kind);
  if (!existsInVariant(docSchema, variant)) {
    out.push(
      entryDiagnostic(entry, {
        code: 'variant-kind',
        pointer: ['kind'],
        message: `kind '${entry.kind}' exists only in ${variantsText(docSchema)}, not in the ${variant} variant of this target`,
      }),
    );
    return;
  }
  const type = entry.kind === 'mapping-template' ? 'mapping' : entry.kind;
  const root = documentSchema(type);
  const visit = (value: unknown, schema: JsonSchema, segments: string[]): void => {
    const n = deref(schema, root);
    if (isObject(value) && n.properties) {
      for (const key in value) {
        const childSchema = n.properties[key];
        if (!childSchema) continue;
        const child = value[key];
        if (!existsInVariant(childSchema, variant)) {
          const at = [...segments, key];
          out.push(
            entryDiagnostic(entry, {
              code: 'variant-attribute',
              pointer: at,
              at: 'key',
              message: `${at[0] === 'relationships' ? 'relationship' : 'attribute'} '${attributePath(at.slice(1))}' of ${label} exists only in ${variantsText(childSchema)}, not in the ${variant} variant of this target`,
            }),
          );
          continue;
        }
        if (typeof child !== 'object' || child === null) continue;
        segments.push(key);
        visit(child, childSchema, segments);
        segments.pop();
      }
    } else if (Array.isArray(value) && n.items) {
      const items = n.items;
      value.forEach((item, i) => {
        segments.push(String(i));
        visit(item, items, segments);
        segments.pop();
      });
    }
  };
  if (isResourceType(type)) visit(entry.value.attributes, attributesSchema(type), ['attributes']);
  const rels = docSchema.properties?.relationships;
  if (rels) visit(entry.value.relationships, rels, ['relationships']);
}

/** `attributes.name`, when given, must equal the document's `name`. */
export function checkNameAttribute(entry: Entry, out: Diagnostic[]): void {
  const attrs = entry.value.attributes;
  if (isObject(attrs) && attrs.name !== undefined && attrs.name !== entry.name) {
    out.push(
      entryDiagnostic(entry, {
        code: 'name-mismatch',
        pointer: ['attributes', 'name'],
        message: `attributes.name of ${labelOf(entry.kind, entry.name)} differs from its name: leave attributes.name out (it is set from name)`,
      }),
    );
  }
}

/**
 * The regular-expression dialect of the gateway is PCRE-like; JavaScript lacks a few of its
 * constructs. These are rewritten to equivalents before compiling, so that only patterns
 * that are broken in any dialect are reported.
 */
function jsCompatible(pattern: string): string {
  return pattern
    .replace(/\(\?[imsxU]+\)/g, '') // inline flags (?i)
    .replace(/\(\?[imsxU]+-?[imsxU]*:/g, '(?:') // scoped flags (?i:...)
    .replace(/\(\?>/g, '(?:') // atomic groups
    .replace(/\(\?P</g, '(?<') // named groups, Python/PCRE spelling
    .replace(/\(\?P=(\w+)\)/g, '\\k<$1>') // named back-references
    .replace(/\(\?#[^)]*\)/g, '') // comments
    .replace(/\\[AZz]/g, '') // anchors \A \Z \z
    .replace(/([*+?}])\+/g, '$1'); // possessive quantifiers
}

const regexCache = new Map<string, string | undefined>();

/** The reason a pattern does not compile, or undefined when it does (results cached per pattern). */
export function regexProblem(pattern: string): string | undefined {
  if (regexCache.has(pattern)) return regexCache.get(pattern);
  let problem: string | undefined;
  try {
    new RegExp(jsCompatible(pattern));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    problem = message.split(': ').pop() ?? message;
  }
  if (regexCache.size < 10_000) regexCache.set(pattern, problem);
  return problem;
}

/** Keys whose string value is a regular expression: pattern objects' `pattern`, and `statusContentPattern` of error-page rewrites. */
const REGEX_KEYS = new Set(['pattern', 'statusContentPattern']);

/** Every pattern object (`{ pattern: '...' }`) and regex string in an entry's own attributes must compile. */
export function checkPatterns(entry: Entry, out: Diagnostic[]): void {
  const label = labelOf(entry.kind, entry.name);
  const visit = (value: unknown, segments: string[]): void => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        segments.push(String(i));
        visit(item, segments);
        segments.pop();
      });
      return;
    }
    if (!isObject(value)) return;
    for (const key in value) {
      const child = value[key];
      if (REGEX_KEYS.has(key) && typeof child === 'string') {
        const problem = regexProblem(child);
        if (problem !== undefined) {
          const at = [...segments, key];
          out.push(
            entryDiagnostic(entry, {
              code: 'invalid-regex',
              pointer: at,
              message: `invalid regular expression in '${attributePath(at.slice(1))}' of ${label}: ${problem}`,
            }),
          );
        }
      } else if (typeof child === 'object' && child !== null) {
        segments.push(key);
        visit(child, segments);
        segments.pop();
      }
    }
  };
  visit(entry.value.attributes, ['attributes']);
}

const get = (root: unknown, ...keys: string[]): unknown => {
  let node = root;
  for (const k of keys) node = isObject(node) ? node[k] : undefined;
  return node;
};

/** One resolved document with the entry it came from (for positions). */
export interface Resolved {
  readonly doc: ManifestDocument;
  readonly entry: Entry;
}

/**
 * Rules across documents: links to names no manifest defines (unless `allowExternalLinks`),
 * unique priorities of regex mappings (docs/gateway-api.md "Attributes and server
 * defaults"), valid regex entry paths, HTTP/2 only with HTTPS, and `tls.certificateMode`
 * with its link.
 */
export function checkDocuments(resolved: readonly Resolved[], index: EntryIndex, allowExternalLinks: boolean, out: Diagnostic[]): void {
  const priorities = new Map<number, Resolved>();
  checkToOneConflicts(resolved, out);
  // Links declared from the other side, for certificate-mode checks: virtual host name → kinds linking it.
  const linkedFrom = new Map<string, Set<string>>();
  for (const r of resolved) {
    if (r.doc.kind !== 'ssl-certificate' && r.doc.kind !== 'acme-service') continue;
    for (const vh of r.doc.relationships['virtual-hosts'] ?? []) {
      let set = linkedFrom.get(vh);
      if (!set) linkedFrom.set(vh, (set = new Set()));
      set.add(r.doc.kind);
    }
  }
  for (const r of resolved) {
    const { doc, entry } = r;
    const label = labelOf(doc.kind, doc.name);
    const kind = kindOf(doc.kind);
    if (!allowExternalLinks) {
      for (const [rel, names] of Object.entries(doc.relationships)) {
        const def = kind.relationships[rel];
        if (!def) continue;
        const known = index.get(def.target);
        names.forEach((name, i) => {
          if (known?.has(name)) return;
          // A name of another kind is the likelier mistake than a typo.
          const other = [...index.entries()].find(([k, m]) => k !== def.target && k !== 'mapping-template' && m.has(name))?.[0];
          const hint = other !== undefined ? `: '${name}' is a ${other}` : suggestion(name, [...(known?.keys() ?? [])]);
          out.push(
            entryDiagnostic(entry, {
              code: 'unresolved-link',
              pointer: def.cardinality === 'one' ? ['relationships', rel] : ['relationships', rel, String(i)],
              message: `${label} links to ${def.target} '${name}' (relationship '${rel}'), which no manifest defines${hint}`,
            }),
          );
        });
      }
    }
    const attrs: AttributeObject = doc.attributes;
    if (doc.kind === 'mapping') {
      const regex = get(attrs, 'entryPath', 'regexFormatEnforced') === true;
      const value = get(attrs, 'entryPath', 'value');
      if (regex && typeof value === 'string') {
        const problem = regexProblem(value);
        if (problem !== undefined) {
          out.push(
            entryDiagnostic(entry, {
              code: 'invalid-regex',
              pointer: ['attributes', 'entryPath', 'value'],
              message: `invalid regular expression in 'entryPath.value' of ${label} (regexFormatEnforced is true): ${problem}`,
            }),
          );
        }
      }
      const priority = get(attrs, 'entryPath', 'priority');
      if (regex && typeof priority === 'number') {
        const first = priorities.get(priority);
        if (first) {
          const at = entryDiagnostic(first.entry, { code: 'duplicate-priority', pointer: ['attributes', 'entryPath', 'priority'], message: '' });
          out.push(
            entryDiagnostic(entry, {
              code: 'duplicate-priority',
              pointer: ['attributes', 'entryPath', 'priority'],
              message: `regex ${label} has entryPath.priority ${priority}, already used by regex mapping '${first.doc.name}' (${at.file}:${at.line}:${at.column}): priorities of regex mappings must be unique`,
            }),
          );
        } else {
          priorities.set(priority, r);
        }
      }
    }
    if (doc.kind === 'virtual-host') {
      const https = get(attrs, 'networkInterface', 'https');
      if (get(https, 'http2Allowed') === true && get(https, 'enabled') === false) {
        out.push(
          entryDiagnostic(entry, {
            code: 'http2-without-https',
            pointer: ['attributes', 'networkInterface', 'https', 'http2Allowed'],
            message: `${label} allows HTTP/2 but HTTPS is disabled: HTTP/2 needs networkInterface.https.enabled: true`,
          }),
        );
      }
      const mode = get(attrs, 'tls', 'certificateMode');
      const needs = mode === 'CERTIFICATE' ? 'ssl-certificate' : mode === 'ACME_SERVICE' ? 'acme-service' : undefined;
      if (needs && (doc.relationships[needs] ?? []).length === 0 && !linkedFrom.get(doc.name)?.has(needs)) {
        out.push(
          entryDiagnostic(entry, {
            code: 'certificate-mode-link',
            pointer: ['attributes', 'tls', 'certificateMode'],
            message: `${label} has tls.certificateMode ${String(mode)} but no ${needs} link: add relationships: { ${needs}: <name> }`,
          }),
        );
      }
    }
  }
}

/**
 * A to-one link declared from both sides must name the same object: a virtual host has one
 * `ssl-certificate` and one `acme-service` (docs/gateway-api.md "Relationships"), whichever
 * side declares it.
 */
function checkToOneConflicts(resolved: readonly Resolved[], out: Diagnostic[]): void {
  // virtual-host name → relationship → declared targets with where they are declared
  type Claim = { target: string; by: Resolved; pointer: string[] };
  const claims = new Map<string, Map<string, Claim[]>>();
  const claim = (vh: string, rel: string, target: string, by: Resolved, pointer: string[]): void => {
    let rels = claims.get(vh);
    if (!rels) claims.set(vh, (rels = new Map<string, Claim[]>()));
    let list = rels.get(rel);
    if (!list) rels.set(rel, (list = []));
    if (!list.some((c) => c.target === target)) list.push({ target, by, pointer });
  };
  for (const r of resolved) {
    const { doc } = r;
    if (doc.kind === 'virtual-host') {
      for (const rel of ['ssl-certificate', 'acme-service']) {
        const target = doc.relationships[rel]?.[0];
        if (target !== undefined) claim(doc.name, rel, target, r, ['relationships', rel]);
      }
    } else if (doc.kind === 'ssl-certificate' || doc.kind === 'acme-service') {
      (doc.relationships['virtual-hosts'] ?? []).forEach((vh, i) => claim(vh, doc.kind, doc.name, r, ['relationships', 'virtual-hosts', String(i)]));
    }
  }
  for (const [vh, rels] of claims) {
    for (const [rel, list] of rels) {
      const [first, ...others] = list;
      if (!first) continue;
      for (const other of others) {
        const at = entryDiagnostic(first.by.entry, { code: 'conflicting-link', pointer: first.pointer, message: '' });
        out.push(
          entryDiagnostic(other.by.entry, {
            code: 'conflicting-link',
            pointer: other.pointer,
            message: `virtual-host '${vh}' can link one ${rel} only: '${other.target}' here and '${first.target}' at ${at.file}:${at.line}:${at.column}`,
          }),
        );
      }
    }
  }
}
