/**
 * YAML → documents with positions (src/manifest/positions.ts). Plain files take the fast
 * reader (src/manifest/fast-yaml.ts); anything else the `yaml` package's Document API with
 * a `LineCounter`, which also gives the syntax tree that positions are read from when a
 * diagnostic needs one. Syntax errors, duplicate keys and what src/manifest/yaml-guards.ts
 * limits become diagnostics.
 */
import { LineCounter, isMap, isPair, isScalar, isSeq, parseAllDocuments, visit } from 'yaml';
import type { Document, Node } from 'yaml';
import type { Diagnostic } from '../core/diagnostics.js';
import { fastParse } from './fast-yaml.js';
import type { DocumentAst, ParsedDocument, Position, TextHints } from './positions.js';
import { astStart, positionAt, textHints, toPointer } from './positions.js';
import type { SourceFile } from './source-file.js';
import { MAX_ALIAS_EXPANSION, MAX_NESTING, MAY_HOLD_CONTROL, aliasMessage, aliasProblem, checkControlCharacters, tooDeepNode } from './yaml-guards.js';

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

/** A `yaml-syntax` error at a position of a file (the document has no pointer yet). */
function yamlDiagnostic(source: SourceFile, pos: Position, message: string): Diagnostic {
  return { severity: 'error', code: 'yaml-syntax', file: source.file, line: pos.line, column: pos.column, pointer: '', message };
}

/**
 * Parses every document of a file. YAML syntax errors and duplicate keys become
 * diagnostics (pushed to `out`); documents with syntax errors are dropped, documents that
 * are empty (only comments) are skipped. Merge keys (`<<`) are supported. Plain files are
 * read by the fast path ({@link fastParse}); anything else by the `yaml` package.
 *
 * Also reported: bytes that are not UTF-8 (`invalid-encoding`, at the first one; the rest of
 * the file is still checked), aliases that would expand beyond {@link MAX_ALIAS_EXPANSION}
 * or without end (the document is dropped), and control characters other than tab, line
 * feed and carriage return in keys and values, written raw or as escapes such as `"\0"`
 * (`control-character`, at the value).
 */
export function parseFile(source: SourceFile, out: Diagnostic[]): ParsedDocument[] {
  if (source.invalidUtf8) {
    const { line, column, byte } = source.invalidUtf8;
    const hex = byte.toString(16).toUpperCase().padStart(2, '0');
    out.push({
      severity: 'error',
      code: 'invalid-encoding',
      file: source.file,
      line,
      column,
      pointer: '',
      message: `the file is not valid UTF-8 (byte 0x${hex} here is not part of a UTF-8 character): save it as UTF-8`,
    });
  }
  const docs = readDocuments(source, textHints(source.text), out);
  if (MAY_HOLD_CONTROL.test(source.text)) for (const parsed of docs) checkControlCharacters(parsed, out);
  return docs;
}


/*
 * `${NAME}` in a flow collection (`{ port: ${PORT} }`, `[${A}]`): YAML reads its braces as a
 * flow mapping, and one reference becomes a cascade of syntax errors. Before parsing, the
 * braces of every reference are replaced by two private-use characters of the same length
 * (positions stay exact), so each reference reads as a plain scalar wherever it is written;
 * the braces are put back into every key and value read. Files that hold either character
 * themselves are read as written.
 */
const OPEN_BRACE = '\uE000';
const CLOSE_BRACE = '\uE001';
const REFERENCE_BRACES = /\$\{([A-Za-z_][A-Za-z0-9_]*(?::-[^{}\n]*)?)\}/g;

/** `source` with the braces of its `${...}` references replaced; `source` itself when it has none. */
function protectReferences(source: SourceFile): SourceFile {
  if (!source.text.includes('${') || source.text.includes(OPEN_BRACE) || source.text.includes(CLOSE_BRACE)) return source;
  return { ...source, text: source.text.replace(REFERENCE_BRACES, `$${OPEN_BRACE}$1${CLOSE_BRACE}`) };
}

/** A value read from a protected text with the braces of its references put back (a new value). */
function restoreReferences(value: unknown): unknown {
  if (typeof value === 'string') return value.includes(OPEN_BRACE) ? value.replaceAll(OPEN_BRACE, '{').replaceAll(CLOSE_BRACE, '}') : value;
  if (Array.isArray(value)) return value.map(restoreReferences);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [restoreReferences(k) as string, restoreReferences(v)]));
  }
  return value;
}

/**
 * A document the fast path read: its syntax tree is parsed (for the whole file, once) only
 * when a position inside it is asked for. A class, so that the documents of a file share
 * one `ast` function instead of holding a closure each.
 */
class FastReadDocument implements ParsedDocument {
  wholeReferences?: ReadonlySet<string>;
  constructor(
    readonly source: SourceFile,
    readonly index: number,
    public value: unknown,
    readonly start: Position,
    readonly hints: TextHints,
  ) {}

  ast(): DocumentAst | undefined {
    const { docs, lineCounter } = fullParse(this.source);
    const doc = docs[this.index];
    return doc ? { doc, lineCounter } : undefined;
  }

  /**
   * Whether the YAML holds a node at `segments`, read from the value without the syntax
   * tree: the fast path reads no aliases and no merge keys, so the value has the YAML's
   * shape, except that a value that was one whole `${...}` reference is a scalar in the
   * YAML. Undefined (ask the tree) where the value cannot tell: a null list item (`-` and
   * `- null` differ there) or a file that may use collections as keys.
   */
  hasNode(segments: readonly string[]): boolean | undefined {
    if (mayHoldComplexKeys(this.source)) return undefined;
    let node: unknown = this.value;
    for (const [i, segment] of segments.entries()) {
      if (i > 0 && this.wholeReferences?.has(segments.slice(0, i).join('/')) === true) return false;
      if (Array.isArray(node)) {
        if (!/^\d+$/.test(segment)) return false;
        const item: unknown = node[Number(segment)];
        if (item === null) return undefined;
        if (item === undefined) return false;
        node = item;
      } else if (typeof node === 'object' && node !== null) {
        if (!Object.hasOwn(node, segment)) return false;
        node = (node as Record<string, unknown>)[segment];
      } else {
        return false;
      }
    }
    return true;
  }
}

const complexKeys = new WeakMap<SourceFile, boolean>();

/** True when the text may write a collection as a key (`? ` or a flow collection before `:`), which a value cannot show. */
function mayHoldComplexKeys(source: SourceFile): boolean {
  let may = complexKeys.get(source);
  if (may === undefined) {
    may = /(?:^|[\s,[{])\?(?:\s|$)|[\]}][ \t]*:/m.test(source.text);
    complexKeys.set(source, may);
  }
  return may;
}

/** {@link parseFile} without the checks of the text and the values. */
function readDocuments(given: SourceFile, hints: TextHints, out: Diagnostic[]): ParsedDocument[] {
  const source = protectReferences(given);
  const docs = readProtected(source, hints, out);
  if (source === given) return docs;
  for (const doc of docs) doc.value = restoreReferences(doc.value);
  return docs;
}

/** {@link readDocuments} of a text whose references are protected. */
function readProtected(source: SourceFile, hints: TextHints, out: Diagnostic[]): ParsedDocument[] {
  // Too deep a document takes the full parser, which says where.
  const fast = fastParse(source.text, { maxNesting: MAX_NESTING });
  if (fast) return fast.map((d, index) => new FastReadDocument(source, index, d.value, { line: d.line, column: d.column }, hints));
  const { docs, lineCounter } = fullParse(source);
  const result: ParsedDocument[] = [];
  const aliasLimit = Math.max(MAX_ALIAS_EXPANSION, source.text.length);
  const aliasBudget = { left: aliasLimit };
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
    const deep = tooDeepNode(doc.contents);
    if (deep) {
      const where = positionAt(lineCounter, deep.range?.[0] ?? 0);
      out.push(yamlDiagnostic(source, where, `YAML error: collections nested more than ${MAX_NESTING} levels deep; a manifest needs only a few`));
      return;
    }
    const parsed: ParsedDocument = { source, index, value: undefined, start: astStart(ast), ast: () => ast, hints };
    checkDuplicateKeys(ast, source.file, doc.contents, [], out);
    const aliases = aliasProblem(doc, aliasBudget);
    if (aliases) {
      const offset = aliases.alias.range?.[0];
      out.push(yamlDiagnostic(source, offset === undefined ? parsed.start : positionAt(lineCounter, offset), aliasMessage(aliases, aliasLimit)));
      return;
    }
    try {
      // aliasProblem bounds what aliases (and merge keys) expand to, exactly: the `yaml`
      // package's own estimate (maxAliasCount) is not needed on top of it.
      parsed.value = doc.toJS({ maxAliasCount: -1 });
    } catch (error) {
      const sentence = error instanceof Error ? (error.message.split('\n')[0] ?? '') : 'cannot read the document';
      out.push(yamlDiagnostic(source, parsed.start, `YAML error: ${sentence}`));
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
