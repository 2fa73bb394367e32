/**
 * Where things are in a manifest: a YAML document with its parsed value and its syntax
 * tree ({@link ParsedDocument}), RFC 6901 pointers, the line and column of the node a
 * pointer names, and diagnostics located there. Positions are computed only when a
 * diagnostic needs one (lazy), so valid manifests pay nothing for them.
 */
import type { Document, LineCounter, Node } from 'yaml';
import { isAlias, isMap, isPair, isScalar, isSeq } from 'yaml';
import type { Diagnostic, DiagnosticCode } from '../core/diagnostics.js';
import type { SourceFile } from './source-file.js';

/** The `yaml` package's view of a document, for positions. */
export interface DocumentAst {
  readonly doc: Document.Parsed;
  readonly lineCounter: LineCounter;
}

/** One YAML document of a file, with its parsed value and what is needed to locate nodes in it. */
export interface ParsedDocument {
  readonly source: SourceFile;
  /** 0-based index of the document among the non-empty documents of its file. */
  readonly index: number;
  /** The plain JSON value (variables substituted later, in place). */
  value: unknown;
  /**
   * Pointers (segments joined with `/`) of the values that were exactly one `${...}`
   * reference, set when variables are substituted (src/manifest/variables.ts `whole`).
   */
  wholeReferences?: ReadonlySet<string>;
  /** Where the document's content starts. */
  readonly start: Position;
  /**
   * What the text of the document's file may hold ({@link textHints}), shared by the
   * documents of a file: passes that look for something no string or key can hold skip
   * the walk of the value. Undefined: anything (the value is walked).
   */
  readonly hints?: TextHints;
  /** The document's syntax tree, parsed on first use (only diagnostics need it). */
  readonly ast: () => DocumentAst | undefined;
  /** {@link hasNode} without the syntax tree, when the document can tell (undefined: ask the tree). */
  readonly hasNode?: (segments: readonly string[]) => boolean | undefined;
}

/**
 * What the strings and keys read from a YAML text may hold, from a scan of the text: a value
 * can hold `${` or a key `fromEnv` only where the text writes it, or where an escape of a
 * double-quoted scalar (`\x24{`, a `\` that joins lines) makes it; folded line breaks become a
 * space, never nothing.
 */
export interface TextHints {
  /** Some string may hold a `${...}` reference (src/manifest/variables.ts). */
  readonly references: boolean;
  /** Some key may be `fromEnv` (src/manifest/secret-variables.ts). */
  readonly fromEnv: boolean;
}

/** The {@link TextHints} of a YAML text (as written: before any rewriting for the parser). */
export function textHints(text: string): TextHints {
  const escapes = text.includes('\\');
  return { references: escapes || text.includes('${'), fromEnv: escapes || text.includes('fromEnv') };
}

/** A 1-based position. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** Splits an RFC 6901 JSON pointer into unescaped segments (`''` → `[]`). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Builds an RFC 6901 JSON pointer from segments. */
export function toPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** The 1-based position of a character offset of the text `lc` counted. */
export function positionAt(lc: LineCounter, offset: number): Position {
  const { line, col } = lc.linePos(offset);
  return { line, column: col };
}


/** Where a document starts: its first content node. */
export function documentStart(parsed: ParsedDocument): Position {
  return parsed.start;
}


/** Where the content of a parsed document starts (its first node). */
export function astStart(ast: DocumentAst): Position {
  return positionAt(ast.lineCounter, ast.doc.contents?.range[0] ?? ast.doc.range[0]);
}

/**
 * Finds the node a pointer names. Returns the deepest node reached and how many segments
 * matched, plus the key node when the last matched segment is a map key.
 */
function walk(ast: DocumentAst, segments: readonly string[]): { node: Node | null; key: Node | null; matched: number } {
  let node: Node | null = ast.doc.contents;
  let key: Node | null = null;
  let matched = 0;
  for (const segment of segments) {
    if (node && isAlias(node)) node = node.resolve(ast.doc) ?? null;
    if (node && isMap(node)) {
      let found: { key: Node | null; value: Node | null } | undefined;
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const k = pair.key;
        const name = isScalar(k) ? String(k.value) : undefined;
        if (name === segment) found = { key: isScalar(k) ? k : null, value: (pair.value as Node | null) ?? null };
      }
      if (!found) break;
      key = found.key;
      if (!found.value) {
        matched++;
        node = null;
        break;
      }
      node = found.value;
    } else if (node && isSeq(node)) {
      const item = node.items[Number(segment)];
      if (!/^\d+$/.test(segment) || item === undefined || item === null) break;
      key = null;
      node = item as Node;
    } else {
      break;
    }
    matched++;
  }
  return { node, key, matched };
}

/** True when the document's own YAML contains the node a pointer names. */
export function hasNode(parsed: ParsedDocument, segments: readonly string[]): boolean {
  if (segments.length === 0) return true;
  const known = parsed.hasNode?.(segments);
  if (known !== undefined) return known;
  const ast = parsed.ast();
  return ast !== undefined && walk(ast, segments).matched === segments.length;
}

/**
 * The position of the node a pointer names: its key (`at: 'key'`) or its value. When the
 * pointer leads outside the YAML (a value that came from a template or a default), the
 * deepest enclosing node is used.
 */
export function positionOf(parsed: ParsedDocument, segments: readonly string[], at: 'key' | 'value'): Position {
  const ast = parsed.ast();
  if (!ast) return parsed.start;
  const { node, key, matched } = walk(ast, segments);
  const complete = matched === segments.length;
  if (key && (at === 'key' || !node || !complete) && matched > 0) {
    if (key.range) return positionAt(ast.lineCounter, key.range[0]);
  }
  if (node?.range) return positionAt(ast.lineCounter, node.range[0]);
  return parsed.start;
}

/** Options of {@link makeDiagnostic}. */
export interface DiagnosticSpec {
  readonly code: DiagnosticCode;
  readonly pointer: readonly string[];
  readonly message: string;
  /** Point at the key of the last segment (unknown keys) instead of its value. Default 'value'. */
  readonly at?: 'key' | 'value';
  readonly severity?: 'error' | 'warning';
}

/** A diagnostic located in a document (the position is computed here, only for reported problems). */
export function makeDiagnostic(parsed: ParsedDocument, spec: DiagnosticSpec): Diagnostic {
  const pos = positionOf(parsed, spec.pointer, spec.at ?? 'value');
  return {
    severity: spec.severity ?? 'error',
    code: spec.code,
    file: parsed.source.file,
    line: pos.line,
    column: pos.column,
    pointer: toPointer(spec.pointer),
    message: spec.message,
  };
}
