/**
 * From parsed YAML documents to {@link Entry}s: the envelope checks (`apiVersion`, `kind`,
 * `name`), duplicate objects, and the overlays of a target (JSON merge patch, RFC 7386, by
 * default; RFC 6902 JSON Patch with `patch: [...]`).
 */
import fjp from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import mergePatch from 'json-merge-patch';
import { SCHEMA_KINDS } from '../schema/index.js';
import { isResourceType, kindOf } from '../kinds/index.js';
import type { SchemaKind } from '../schema/index.js';
import { API_VERSION } from '../schema/kind-schema.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { Entry, Origin } from './entries.js';
import { identityOrigin, labelOf } from './entries.js';
import type { ParsedDocument } from './positions.js';
import { documentStart, hasNode, makeDiagnostic, pointerSegments } from './positions.js';
import { attributePath, suggestion } from './schema-check.js';
import { checkGuardedReferences } from './secret-variables.js';
import type { VariableGuard } from './secret-variables.js';
import { substituteVariables } from './variables.js';
import { escapeInvisible, hasInvisible } from '../core/display.js';

export { API_VERSION };

/** Entries by `kind` then `name`. */
export type EntryIndex = Map<SchemaKind, Map<string, Entry>>;

/** A value as shown in messages (only for envelope fields, never attributes). */
const shown = (v: unknown): string => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v));

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The pointers of a document without references (shared: never modified). */
const NO_POINTERS: ReadonlySet<string> = new Set();

/**
 * Substitutes variables in a parsed document in place (and records its whole references in
 * `wholeReferences`); unset ones become diagnostics, and so does every reference to a
 * variable of `guard` (src/manifest/secret-variables.ts), which is substituted from the
 * guard's environment (empty). Returns the substituted pointers.
 */
export function applyVariables(
  parsed: ParsedDocument,
  env: Readonly<Record<string, string | undefined>>,
  out: Diagnostic[],
  guard?: VariableGuard,
): ReadonlySet<string> {
  if (parsed.hints?.references === false) {
    // No string of the document holds `${`: nothing to substitute, report or record.
    parsed.wholeReferences = NO_POINTERS;
    return NO_POINTERS;
  }
  if (guard) checkGuardedReferences(parsed, guard, out);
  const result = substituteVariables(parsed.value, guard?.env ?? env);
  parsed.value = result.value;
  parsed.wholeReferences = result.whole;
  for (const u of result.unset) {
    out.push(
      makeDiagnostic(parsed, {
        code: 'unset-variable',
        pointer: u.path,
        message: `environment variable '${u.name}' is not set (used at '${attributePath(u.path)}'): set it or write \${${u.name}:-default}`,
      }),
    );
  }
  return result.substituted;
}

/** The document kinds by name: the kind of a document is this string, not the copy read from its file (one string for every lookup). */
const KNOWN_KINDS = new Map<string, SchemaKind>(SCHEMA_KINDS.map((k) => [k, k]));

function checkKind(parsed: ParsedDocument, value: Record<string, unknown>, out: Diagnostic[]): SchemaKind | undefined {
  const kind = value.kind;
  if (kind === undefined) {
    out.push(
      makeDiagnostic(parsed, { code: 'unknown-kind', pointer: [], message: `document has no kind: add 'kind:' with one of ${SCHEMA_KINDS.join(', ')}` }),
    );
    return undefined;
  }
  const known = typeof kind === 'string' ? KNOWN_KINDS.get(kind) : undefined;
  if (known === undefined) {
    const shown = typeof kind === 'string' ? kind : JSON.stringify(kind);
    out.push(
      makeDiagnostic(parsed, {
        code: 'unknown-kind',
        pointer: ['kind'],
        message: `unknown kind '${shown}'${typeof kind === 'string' ? suggestion(kind, SCHEMA_KINDS) : ''}${
          typeof kind === 'string' && suggestion(kind, SCHEMA_KINDS) ? '' : `: expected one of ${SCHEMA_KINDS.join(', ')}`
        }`,
      }),
    );
    return undefined;
  }
  return known;
}

/**
 * The handle under which the document of a singleton kind is indexed (the kind's type, as
 * the live object is named: src/kinds/identity.ts `singletonIdentity`), or undefined for
 * other kinds.
 */
function singletonHandle(kind: SchemaKind): string | undefined {
  return isResourceType(kind) && kindOf(kind).singleton ? kind : undefined;
}

function checkName(parsed: ParsedDocument, kind: SchemaKind, value: Record<string, unknown>, out: Diagnostic[]): string | undefined {
  const name = value.name;
  const handle = singletonHandle(kind);
  if (handle !== undefined) {
    if (name === undefined) return handle;
    out.push(
      makeDiagnostic(parsed, {
        code: 'singleton-name',
        pointer: ['name'],
        at: 'key',
        message: `a ${kind} document has no name: ${kind} is a singleton, one object per gateway; remove 'name:' and keep 'kind: ${kind}' with its attributes`,
      }),
    );
    return undefined;
  }
  if (typeof name === 'string' && hasInvisible(name)) {
    // Such a name could look like another one, or break the lines that show it (src/core/display.ts).
    out.push(
      makeDiagnostic(parsed, {
        code: 'invalid-name',
        pointer: ['name'],
        message: `name ${escapeInvisible(JSON.stringify(name))} of a ${kind} document holds a control, zero-width or bidi character: names may hold visible characters and spaces only`,
      }),
    );
    return undefined;
  }
  if (typeof name === 'string' && name.length > 0) return name;
  out.push(
    makeDiagnostic(parsed, {
      code: 'missing-name',
      pointer: name === undefined ? [] : ['name'],
      message:
        name === undefined
          ? `${kind} document has no name: add 'name:' with the object's identity`
          : `name of a ${kind} document must be a non-empty string`,
    }),
  );
  return undefined;
}

/** Reports a missing (when `required`; overlays may omit it) or unknown `apiVersion`. */
function checkApiVersion(parsed: ParsedDocument, apiVersion: unknown, required: boolean, out: Diagnostic[]): void {
  if (apiVersion === undefined) {
    if (required) {
      out.push(makeDiagnostic(parsed, { code: 'missing-api-version', pointer: [], message: `document has no apiVersion: add 'apiVersion: ${API_VERSION}'` }));
    }
  } else if (apiVersion !== API_VERSION) {
    out.push(
      makeDiagnostic(parsed, {
        code: 'unknown-api-version',
        pointer: ['apiVersion'],
        message: `unknown apiVersion ${shown(apiVersion)}: expected '${API_VERSION}'`,
      }),
    );
  }
}

/**
 * Checks the envelope of base documents and builds the entry index. Documents without a
 * valid kind or name, and second declarations of the same kind and name, are reported and
 * left out of the index (unnamed documents are returned separately for schema checks).
 */
export function collectEntries(
  docs: readonly { parsed: ParsedDocument; substituted: ReadonlySet<string> }[],
  out: Diagnostic[],
): { index: EntryIndex; unnamed: { parsed: ParsedDocument; kind: SchemaKind }[] } {
  const index: EntryIndex = new Map();
  const unnamed: { parsed: ParsedDocument; kind: SchemaKind }[] = [];
  for (const { parsed, substituted } of docs) {
    const value = parsed.value;
    if (!isObject(value)) {
      out.push(
        makeDiagnostic(parsed, {
          code: 'not-an-object',
          pointer: [],
          message: 'a manifest document must be a mapping with apiVersion, kind and name',
        }),
      );
      continue;
    }
    checkApiVersion(parsed, value.apiVersion, true, out);
    const kind = checkKind(parsed, value, out);
    if (!kind) continue;
    const name = checkName(parsed, kind, value, out);
    if (name === undefined) {
      unnamed.push({ parsed, kind });
      continue;
    }
    let byName = index.get(kind);
    if (!byName) index.set(kind, (byName = new Map<string, Entry>()));
    const first = byName.get(name);
    if (first) {
      const at = documentStart(first.base);
      out.push(
        makeDiagnostic(parsed, {
          code: 'duplicate-object',
          pointer: singletonHandle(kind) === undefined ? ['name'] : ['kind'],
          message:
            singletonHandle(kind) === undefined
              ? `${labelOf(kind, name)} is declared twice (first at ${first.base.source.file}:${at.line}:${at.column}): names must be unique per kind`
              : `${kind} is declared twice (first at ${first.base.source.file}:${at.line}:${at.column}): ${kind} is a singleton, one document per target; merge the attributes into the first document`,
        }),
      );
      continue;
    }
    byName.set(name, { kind, name, base: parsed, value, overlays: [], baseOrigin: identityOrigin(parsed, substituted) });
  }
  return { index, unnamed };
}

const MERGE_KEYS = ['attributes', 'relationships', 'extends', 'content'] as const;
const OVERLAY_KEYS = new Set(['apiVersion', 'kind', 'name', 'patch', ...MERGE_KEYS]);

/** An origin for a JSON Patch overlay: a pointer maps to the value of the last operation whose path covers it. */
function patchOrigin(parsed: ParsedDocument, ops: readonly { path: string }[], substituted: ReadonlySet<string>): Origin {
  return {
    parsed,
    substituted,
    mapPointer: (segments) => {
      for (let i = ops.length - 1; i >= 0; i--) {
        const opSegments = pointerSegments(ops[i]?.path ?? '');
        if (opSegments.length > segments.length || opSegments.some((s, j) => s !== segments[j])) continue;
        const inside = ['patch', String(i), 'value', ...segments.slice(opSegments.length)];
        return hasNode(parsed, inside) ? inside : ['patch', String(i)];
      }
      return undefined;
    },
  };
}

/**
 * Applies overlay documents to the entries they name (in file order). Each overlay has
 * `kind`, `name` and either `attributes`/`relationships`/`extends` (JSON merge patch of the
 * document) or `patch: [ops]` (RFC 6902 JSON Patch against the document, paths such as
 * `/attributes/threatHandling`). An overlay naming an object no manifest defines is an error.
 */
export function applyOverlays(
  overlays: readonly { parsed: ParsedDocument; substituted: ReadonlySet<string> }[],
  index: EntryIndex,
  out: Diagnostic[],
): void {
  for (const { parsed, substituted } of overlays) {
    const value = parsed.value;
    const invalid = (pointer: string[], message: string): void => {
      out.push(makeDiagnostic(parsed, { code: 'overlay-invalid', pointer, message }));
    };
    if (!isObject(value)) {
      invalid([], 'an overlay document must be a mapping with kind, name and attributes/relationships or patch');
      continue;
    }
    let bad = false;
    for (const key of Object.keys(value)) {
      if (!OVERLAY_KEYS.has(key)) {
        out.push(
          makeDiagnostic(parsed, {
            code: 'unknown-key',
            pointer: [key],
            at: 'key',
            message: `unknown key '${key}' in overlay${suggestion(key, [...OVERLAY_KEYS])}`,
          }),
        );
        bad = true;
      }
    }
    checkApiVersion(parsed, value.apiVersion, false, out);
    const kind = checkKind(parsed, value, out);
    const name = kind ? checkName(parsed, kind, value, out) : undefined;
    if (!kind || name === undefined || bad) continue;
    const hasMerge = MERGE_KEYS.some((k) => value[k] !== undefined);
    const patch = value.patch;
    if (patch !== undefined && hasMerge) {
      invalid(['patch'], `overlay of ${labelOf(kind, name)} has both 'patch' and merge keys (attributes, relationships, extends): use one form`);
      continue;
    }
    if (patch === undefined && !hasMerge) {
      invalid([], `overlay of ${labelOf(kind, name)} changes nothing: give attributes/relationships (merge patch) or patch (JSON Patch)`);
      continue;
    }
    const entry = index.get(kind)?.get(name);
    if (!entry) {
      const names = [...(index.get(kind)?.keys() ?? [])];
      out.push(
        makeDiagnostic(parsed, {
          code: 'overlay-target-missing',
          pointer: ['name'],
          message: `overlay patches ${labelOf(kind, name)}, which no manifest defines${suggestion(name, names)}`,
        }),
      );
      continue;
    }
    if (patch === undefined) {
      const doc: Record<string, unknown> = {};
      for (const k of MERGE_KEYS) if (value[k] !== undefined) doc[k] = value[k];
      const merged: unknown = mergePatch.apply(structuredClone(entry.value), doc);
      entry.value = isObject(merged) ? merged : entry.value;
      entry.overlays.unshift(identityOrigin(parsed, substituted));
      continue;
    }
    if (!Array.isArray(patch) || !patch.every((op) => isObject(op) && typeof op.op === 'string' && typeof op.path === 'string')) {
      invalid(['patch'], `patch of the overlay of ${labelOf(kind, name)} must be a list of JSON Patch operations ({ op, path, value })`);
      continue;
    }
    const ops = patch as unknown as Operation[];
    const outside = ops.findIndex((op) => !/^\/(attributes|relationships|extends)(\/|$)/.test(op.path));
    if (outside >= 0) {
      invalid(['patch', String(outside), 'path'], `a JSON Patch overlay may change /attributes, /relationships or /extends only`);
      continue;
    }
    try {
      const result = fjp.applyPatch(structuredClone(entry.value), ops, true, true);
      entry.value = result.newDocument;
      entry.overlays.unshift(patchOrigin(parsed, ops, substituted));
    } catch (error) {
      // Never print the library's message: it embeds the operation and the document.
      const e = error instanceof fjp.JsonPatchError ? error : undefined;
      out.push(
        makeDiagnostic(parsed, {
          code: 'overlay-patch-failed',
          pointer: e?.index !== undefined ? ['patch', String(e.index)] : ['patch'],
          message: `JSON Patch operation ${e?.index !== undefined ? `#${e.index + 1} ` : ''}of the overlay of ${labelOf(kind, name)} cannot be applied (${e?.name ?? 'invalid'})`,
        }),
      );
    }
  }
}
