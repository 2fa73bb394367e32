/**
 * YAML → documents with positions. Uses the `yaml` package's Document API with a
 * `LineCounter`; positions are computed only when a diagnostic needs one (lazy), so valid
 * manifests pay nothing for them.
 */
import { LineCounter, isAlias, isMap, isPair, isScalar, isSeq, parseAllDocuments, visit } from 'yaml';
import type { Document, Node } from 'yaml';
import type { Diagnostic, DiagnosticCode } from './diagnostics.js';
import { fastParse } from './fast-yaml.js';

/** One input file (or stdin) as read. */
export interface SourceFile {
  /** Display name: as given on the command line or relative to the working directory; `-` for stdin. */
  readonly file: string;
  /** Directory that `fromFile` secret sources resolve against (absolute). */
  readonly dir: string;
  readonly text: string;
}

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
  /** Where the document's content starts. */
  readonly start: Position;
  /** The document's syntax tree, parsed on first use (only diagnostics need it). */
  readonly ast: () => DocumentAst | undefined;
}

interface FullParse {
  readonly lineCounter: LineCounter;
  /** Documents with content, in file order. */
  readonly docs: Document.Parsed[];
}

const fullParses = new WeakMap<SourceFile, FullParse>();

/** The file read with the `yaml` package's Document API (cached per file). */
function fullParse(source: SourceFile): FullParse {
  let parsed = fullParses.get(source);
  if (!parsed) {
    const lineCounter = new LineCounter();
    const all = parseAllDocuments(source.text, { lineCounter, uniqueKeys: false, merge: true, prettyErrors: false });
    // Empty documents (a trailing `---`, only comments, or just `null`) are not manifests.
    const empty = (d: Document.Parsed): boolean => d.contents === null || (isScalar(d.contents) && d.contents.value === null);
    const docs = (Array.isArray(all) ? all : []).filter((d) => d.errors.length > 0 || !empty(d));
    parsed = { lineCounter, docs };
    fullParses.set(source, parsed);
  }
  return parsed;
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

function positionAt(lc: LineCounter, offset: number): Position {
  const { line, col } = lc.linePos(offset);
  return { line, column: col };
}

/** Where a document starts: its first content node. */
export function documentStart(parsed: ParsedDocument): Position {
  return parsed.start;
}

function astStart(ast: DocumentAst): Position {
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

/** A `yaml-syntax` error at a position of a file (the document has no pointer yet). */
function yamlDiagnostic(source: SourceFile, pos: Position, message: string): Diagnostic {
  return { severity: 'error', code: 'yaml-syntax', file: source.file, line: pos.line, column: pos.column, pointer: '', message };
}

/**
 * Parses every document of a file. YAML syntax errors and duplicate keys become
 * diagnostics (pushed to `out`); documents with syntax errors are dropped, documents that
 * are empty (only comments) are skipped. Merge keys (`<<`) are supported. Plain files are
 * read by the fast path ({@link fastParse}); anything else by the `yaml` package.
 */
export function parseFile(source: SourceFile, out: Diagnostic[]): ParsedDocument[] {
  const fast = fastParse(source.text);
  if (fast) {
    return fast.map((d, index) => ({
      source,
      index,
      value: d.value,
      start: { line: d.line, column: d.column },
      ast: () => {
        const doc = fullParse(source).docs[index];
        return doc ? { doc, lineCounter: fullParse(source).lineCounter } : undefined;
      },
    }));
  }
  const { docs, lineCounter } = fullParse(source);
  const result: ParsedDocument[] = [];
  docs.forEach((doc, index) => {
    const ast: DocumentAst = { doc, lineCounter };
    if (doc.errors.length > 0) {
      const seen = new Set<number>();
      for (const error of doc.errors) {
        // One message per position: the library often reports one mistake twice.
        if (seen.has(error.pos[0])) continue;
        seen.add(error.pos[0]);
        // An unclosed collection or quote is detected later: point at where it opens.
        const opened = unclosedAt(doc, source.text, error.pos[0]);
        const pos = positionAt(lineCounter, opened ?? error.pos[0]);
        // The library's message ends with " at line L, column C" and source context: keep only
        // the sentence (context lines could hold a secret).
        const sentence = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
        out.push(yamlDiagnostic(source, pos, `YAML syntax error: ${sentence}`));
      }
      return;
    }
    if (doc.contents === null) return;
    const parsed: ParsedDocument = { source, index, value: undefined, start: astStart(ast), ast: () => ast };
    checkDuplicateKeys(ast, source.file, doc.contents, [], out);
    try {
      parsed.value = doc.toJS({ maxAliasCount: 1000 });
    } catch (error) {
      // Aliases and merge keys are resolved here: name the alias that has no anchor, if any.
      let unresolved: { source: string; offset: number } | undefined;
      visit(doc, {
        Alias: (_key, node) => {
          if (!unresolved && node.resolve(doc) === undefined) unresolved = { source: node.source, offset: node.range?.[0] ?? 0 };
        },
      });
      const pos = unresolved ? positionAt(lineCounter, unresolved.offset) : parsed.start;
      out.push(
        yamlDiagnostic(
          source,
          pos,
          unresolved
            ? `YAML error: alias '*${unresolved.source}' names no anchor of this document (anchors do not reach across '---')`
            : `YAML error: ${error instanceof Error ? (error.message.split('\n')[0] ?? '') : 'cannot read the document'}`,
        ),
      );
      return;
    }
    result.push(parsed);
  });
  return result;
}

/**
 * Start offset of the outermost flow collection (`{`, `[`) or quoted scalar that is still
 * open at `offset`, if any: yaml notices a missing `}`, `]` or quote only where the next
 * line starts (or at the end of the file), while the mistake is where it opens.
 */
function unclosedAt(doc: Document.Parsed, text: string, offset: number): number | undefined {
  let start: number | undefined;
  const consider = (range: readonly [number, number, number] | null | undefined, closing: string): void => {
    if (!range || range[0] >= offset || range[2] < offset) return;
    if (text[range[1] - 1] === closing && range[1] - 1 > range[0]) return; // properly closed
    if (start === undefined || range[0] < start) start = range[0];
  };
  visit(doc, {
    Map: (_key, node) => {
      if (node.flow === true) consider(node.range, '}');
    },
    Seq: (_key, node) => {
      if (node.flow === true) consider(node.range, ']');
    },
    Scalar: (_key, node) => {
      if (node.type === 'QUOTE_DOUBLE') consider(node.range, '"');
      else if (node.type === 'QUOTE_SINGLE') consider(node.range, "'");
    },
  });
  return start;
}

function checkDuplicateKeys(ast: DocumentAst, file: string, node: Node, path: string[], out: Diagnostic[]): void {
  if (isMap(node)) {
    const seen = new Map<string, Node>();
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      const k = pair.key;
      if (isScalar(k)) {
        const name = String(k.value);
        const first = seen.get(name);
        if (first && name !== '<<') {
          const firstPos = first.range ? positionAt(ast.lineCounter, first.range[0]) : undefined;
          const pos = k.range ? positionAt(ast.lineCounter, k.range[0]) : astStart(ast);
          out.push({
            severity: 'error',
            code: 'duplicate-key',
            file,
            line: pos.line,
            column: pos.column,
            pointer: toPointer([...path, name]),
            message: `duplicate key '${name}'${firstPos ? ` (first at line ${firstPos.line})` : ''}: a key may appear only once in a mapping`,
          });
        } else {
          seen.set(name, k);
        }
        if (pair.value && typeof pair.value === 'object') checkDuplicateKeys(ast, file, pair.value as Node, [...path, name], out);
      }
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => {
      if (item && typeof item === 'object') checkDuplicateKeys(ast, file, item as Node, [...path, String(i)], out);
    });
  }
}
