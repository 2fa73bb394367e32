/**
 * Resolution of entries into final attributes: secret sources (`{ fromFile }`,
 * `{ fromEnv }`) read, and `extends` templates deep-merged (lists replace, the mapping's own
 * attributes win).
 */
import path from 'node:path';
import { FILE_LIMITS, readFileBounded } from '../core/files.js';
import { KINDS, kindOfDocument } from '../kinds/index.js';
import type { ResourceType } from '../kinds/index.js';
import { secretAttributes } from '../schema/index.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { EntryIndex } from './collect.js';
import type { Entry } from './entries.js';
import { entryDiagnostic, labelOf, originOf } from './entries.js';
import { decodeUtf8 } from './source-file.js';
import { attributePath, suggestion } from './schema-check.js';
import type { AttributeObject } from './types.js';
import { FileReadError } from '../core/errors.js';
import { withoutTrailingLineBreaks } from '../core/linear-text.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Deep merge for `extends`: objects merge key by key, everything else (lists included) is
 * replaced by `own`. Returns a new object; inputs are not modified.
 */
export function deepMerge(base: AttributeObject, own: AttributeObject): AttributeObject {
  const out: AttributeObject = { ...base };
  for (const [key, value] of Object.entries(own)) {
    const prev = out[key];
    out[key] = isObject(prev) && isObject(value) ? deepMerge(prev, value) : value;
  }
  return out;
}

/** Calls `visit` for every value at `segments` (`*` = every array item) under `root`. */
export function forEachAt(
  root: unknown,
  segments: readonly string[],
  visit: (at: string[], value: unknown, parent: Record<string, unknown>, key: string) => void,
  at: string[] = [],
): void {
  const [head, ...rest] = segments;
  if (head === undefined) return;
  if (head === '*') {
    if (Array.isArray(root)) root.forEach((item, i) => forEachAt(item, rest, visit, [...at, String(i)]));
    return;
  }
  if (!isObject(root) || !(head in root)) return;
  if (rest.length === 0) visit([...at, head], root[head], root, head);
  else forEachAt(root[head], rest, visit, [...at, head]);
}

/** Secret attribute paths of an entry's kind (a template has those of the kind that names it). */
function secretsOf(entry: Entry): readonly { segments: readonly string[] }[] {
  return secretAttributes(kindOfDocument(entry.kind).type);
}

/**
 * Where a resolved secret value came from: the variable of a `{ fromEnv }` source, or the
 * absolute path of a `{ fromFile }` source. A saved plan records these instead of values
 * (src/operations/steps/saved-plan.ts).
 */
export type SecretReference = { readonly fromEnv: string } | { readonly fromFile: string };

/** A literal secret found in an entry, checked for the warning once templates are merged. */
export interface LiteralSecret {
  readonly entry: Entry;
  /** Segments under `attributes`. */
  readonly at: readonly string[];
}

/**
 * Replaces every secret source in the entry's attributes with the secret it names:
 * `fromEnv` from `env`, `fromFile` relative to the directory of the manifest (or overlay)
 * that declares it, trailing line breaks removed. A missing variable or unreadable file is
 * an error naming the attribute path (never a value). Returns the literal secrets, which
 * are not resolved from variables, for the literal-secret warning. With `env` undefined,
 * sources are left as they are (only literals are collected).
 *
 * Every secret value found (resolved from a source, or written as a string, literally or
 * through `${VAR}`) is appended to `values`, for redaction (src/core/secrets.ts). Every value
 * resolved from a source is recorded in `references` with the source it came from. The
 * `version` of each source that gives one is set in `versions` under its dotted attribute
 * path (docs/manifest-reference.md "Secrets that rotate").
 */
export function resolveSecrets(
  entry: Entry,
  env: Readonly<Record<string, string | undefined>> | undefined,
  out: Diagnostic[],
  values?: string[],
  references?: Map<string, SecretReference>,
  versions?: Record<string, number>,
): LiteralSecret[] {
  const attributes = entry.value.attributes;
  if (!isObject(attributes)) return [];
  const literals: LiteralSecret[] = [];
  let copy: AttributeObject | undefined;
  for (const secret of secretsOf(entry)) {
    forEachAt(attributes, secret.segments, (at, value) => {
      const pointer = ['attributes', ...at];
      const label = `secret '${attributePath(at)}' of ${labelOf(entry.kind, entry.name)}`;
      if (typeof value === 'string') {
        values?.push(value);
        const { origin, segments } = originOf(entry, pointer);
        if (!origin.substituted.has(segments.join('/'))) literals.push({ entry, at });
        return;
      }
      if (!isObject(value)) return;
      if (versions && typeof value.version === 'number') versions[at.join('.')] = value.version;
      if (env === undefined) return;
      let resolved: string | undefined;
      let reference: SecretReference | undefined;
      if (typeof value.fromEnv === 'string') {
        resolved = env[value.fromEnv];
        reference = { fromEnv: value.fromEnv };
        if (resolved === undefined) {
          out.push(entryDiagnostic(entry, { code: 'secret-unavailable', pointer, message: `${label}: environment variable '${value.fromEnv}' is not set` }));
        }
      } else if (typeof value.fromFile === 'string') {
        const dir = originOf(entry, pointer).origin.parsed.source.dir;
        const file = path.resolve(dir, value.fromFile);
        reference = { fromFile: file };
        try {
          const decoded = decodeUtf8(readFileBounded(file, FILE_LIMITS.secret));
          if (decoded.invalidUtf8) {
            const { line, column } = decoded.invalidUtf8;
            out.push(
              entryDiagnostic(entry, {
                code: 'secret-unavailable',
                pointer,
                message: `${label}: file '${value.fromFile}' is not valid UTF-8 (first invalid byte at line ${line}, column ${column}); save it as UTF-8 text (a PEM file)`,
              }),
            );
          } else {
            resolved = withoutTrailingLineBreaks(decoded.text);
          }
        } catch (error) {
          if (!(error instanceof FileReadError)) throw error;
          out.push(entryDiagnostic(entry, { code: 'secret-unavailable', pointer, message: `${label}: cannot read file '${value.fromFile}': ${error.problem}` }));
        }
      }
      if (resolved === undefined) return;
      values?.push(resolved);
      if (reference) references?.set(resolved, reference);
      copy ??= structuredClone(attributes);
      let node: unknown = copy;
      for (const s of at.slice(0, -1)) node = Array.isArray(node) ? node[Number(s)] : isObject(node) ? node[s] : undefined;
      const last = at[at.length - 1];
      if (last !== undefined && isObject(node)) node[last] = resolved;
    });
  }
  if (copy) entry.value = { ...entry.value, attributes: copy };
  return literals;
}

/**
 * Effective attributes of every entry of a kind with a template kind (KindDefinition
 * `template`; mapping and mapping-template) and of its templates: the `extends` chain
 * deep-merged under the entry's own attributes. Reports `extends` naming a missing
 * template and cycles; the chain is cut at the problem.
 */
export function mergeTemplates(index: EntryIndex, out: Diagnostic[]): Map<Entry, AttributeObject> {
  const done = new Map<Entry, AttributeObject>();
  for (const kind of KINDS) {
    if (kind.template !== undefined) mergeKind(index, kind.type, kind.template, done, out);
  }
  return done;
}

/** {@link mergeTemplates} for one kind and its template kind: templates first, then the kind's entries. */
function mergeKind(index: EntryIndex, type: ResourceType, templateKind: string, done: Map<Entry, AttributeObject>, out: Diagnostic[]): void {
  const templates = index.get(templateKind) ?? new Map<string, Entry>();
  const resolving: Entry[] = [];
  const own = (e: Entry): AttributeObject => (isObject(e.value.attributes) ? e.value.attributes : {});
  const effective = (entry: Entry): AttributeObject => {
    const known = done.get(entry);
    if (known) return known;
    resolving.push(entry);
    const ext = entry.value.extends;
    let result = own(entry);
    if (typeof ext === 'string') {
      const template = templates.get(ext);
      if (!template) {
        out.push(
          entryDiagnostic(entry, {
            code: 'missing-template',
            pointer: ['extends'],
            message: `${labelOf(entry.kind, entry.name)} extends '${ext}', which no ${templateKind} document defines${
              index.get(type)?.has(ext) ? `: '${ext}' is a ${type}; extends names a kind: ${templateKind} document` : suggestion(ext, [...templates.keys()])
            }`,
          }),
        );
      } else if (resolving.includes(template)) {
        const cycle = [...resolving.slice(resolving.indexOf(template)), template].map((e) => e.name).join(' → ');
        out.push(
          entryDiagnostic(entry, {
            code: 'template-cycle',
            pointer: ['extends'],
            message: `${templateKind} cycle ${cycle}: a template may not extend itself, directly or through others`,
          }),
        );
      } else {
        result = deepMerge(effective(template), result);
      }
    }
    resolving.pop();
    done.set(entry, result);
    return result;
  };
  for (const kind of [templateKind, type]) {
    for (const entry of index.get(kind)?.values() ?? []) effective(entry);
  }
}
