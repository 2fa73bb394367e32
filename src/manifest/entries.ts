/**
 * Documents between parsing and resolution: one {@link Entry} per base document (resource
 * kinds and `mapping-template`), with the overlays applied to it and what is needed to
 * locate any JSON pointer of the result in the YAML it came from.
 */
import type { SchemaKind } from '../schema/index.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { DiagnosticSpec, ParsedDocument } from './positions.js';
import { hasNode, makeDiagnostic, toPointer } from './positions.js';
import { setOwnMember } from '../core/own-member.js';

/** A document that contributed to an entry: the base, or an overlay. */
export interface Origin {
  readonly parsed: ParsedDocument;
  /** Where a pointer of the entry's value lives in this document's YAML, or undefined when it does not. */
  readonly mapPointer: (segments: readonly string[]) => readonly string[] | undefined;
  /** Pointers (segments joined with `/`, in this document's own terms) of strings that held `${...}` references. */
  readonly substituted: ReadonlySet<string>;
}

/** One base document with its overlays applied. */
export interface Entry {
  readonly kind: SchemaKind;
  readonly name: string;
  readonly base: ParsedDocument;
  /** The document value (apiVersion, kind, name, attributes, relationships, extends) after variables and overlays. */
  value: Record<string, unknown>;
  /** Overlays applied, latest first. */
  readonly overlays: Origin[];
  readonly baseOrigin: Origin;
}

/** `mapping 'shop-api'`: how an object is named in messages. */
export function labelOf(kind: string, name: string | undefined): string {
  return name === undefined ? `${kind} document` : `${kind} '${name}'`;
}

/**
 * An origin whose pointers are the document's own (base documents and merge-patch
 * overlays). A class: one per document, sharing `mapPointer` instead of a closure each.
 */
class IdentityOrigin implements Origin {
  constructor(
    readonly parsed: ParsedDocument,
    readonly substituted: ReadonlySet<string>,
  ) {}

  mapPointer(segments: readonly string[]): readonly string[] | undefined {
    return hasNode(this.parsed, segments) ? segments : undefined;
  }
}

/** An origin whose pointers are the document's own (base documents and merge-patch overlays). */
export function identityOrigin(parsed: ParsedDocument, substituted: ReadonlySet<string>): Origin {
  return new IdentityOrigin(parsed, substituted);
}

/** The origin that holds a pointer of the entry's value: the latest overlay that sets it, else the base. */
export function originOf(entry: Entry, segments: readonly string[]): { origin: Origin; segments: readonly string[] } {
  for (const origin of entry.overlays) {
    const mapped = origin.mapPointer(segments);
    if (mapped) return { origin, segments: mapped };
  }
  return { origin: entry.baseOrigin, segments };
}

/** A diagnostic about a pointer of an entry, located where that value was written. */
export function entryDiagnostic(entry: Entry, spec: DiagnosticSpec): Diagnostic {
  const { origin, segments } = originOf(entry, spec.pointer);
  const located = makeDiagnostic(origin.parsed, { ...spec, pointer: segments });
  // The pointer reported is always the one inside the resolved document.
  return { ...located, pointer: toPointer(spec.pointer) };
}

/** Where the value a pointer of an entry names (or with `at: 'key'` its key) was written (file, line, column), as {@link entryDiagnostic} locates it. */
export function entryLocation(entry: Entry, pointer: readonly string[], at: 'key' | 'value' = 'value'): { readonly file: string; readonly line: number; readonly column: number } {
  const { file, line, column } = entryDiagnostic(entry, { code: 'unresolved-link', pointer, message: '', at });
  return { file: file ?? entry.base.source.file, line: line ?? 1, column: column ?? 1 };
}

/** True when the value a pointer of an entry names was written as one whole `${...}` reference (src/manifest/variables.ts). */
export function isWholeReference(entry: Entry, segments: readonly string[]): boolean {
  const { origin, segments: own } = originOf(entry, segments);
  return origin.parsed.wholeReferences?.has(own.join('/')) === true;
}

/**
 * A copy of `attributes` with `name` set (where the attributes write it, else last), as
 * `{ ...attributes, name }` gives but built key by key: V8 gives spread copies of parsed
 * objects a hidden class of their own each (measured: one per document), which costs memory
 * and makes every later read of the attributes slow; copies built in order share one.
 */
export function withName(attributes: Readonly<Record<string, unknown>>, name: string): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(attributes)) {
    // `__proto__` read from YAML is an own key: it stays one.
    setOwnMember(copy, key, attributes[key]);
  }
  copy.name = name;
  return copy;
}
