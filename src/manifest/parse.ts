/**
 * YAML → documents with positions. Uses the `yaml` package's Document API with a
 * `LineCounter`; positions are computed only when a diagnostic needs one (lazy), so valid
 * manifests pay nothing for them.
 */
import { LineCounter, isAlias, isMap, isNode, isPair, isScalar, isSeq, parseAllDocuments, visit } from 'yaml';
import type { Alias, Document, Node } from 'yaml';
import type { Diagnostic, DiagnosticCode } from '../diagnostics.js';
import { fastParse } from './fast-yaml.js';

/** One input file (or stdin) as read. */
export interface SourceFile {
  /** Display name: as given on the command line or relative to the working directory; `-` for stdin. */
  readonly file: string;
  /** Directory that `fromFile` secret sources resolve against (absolute). */
  readonly dir: string;
  readonly text: string;
  /** Set when the bytes read were not UTF-8: `text` then has U+FFFD from there on. */
  readonly invalidUtf8?: InvalidUtf8;
}

/** Where the first byte that is not UTF-8 is, in a file decoded leniently. */
export interface InvalidUtf8 {
  /** 1-based line and column (UTF-16 units of the decoded text, as every position). */
  readonly line: number;
  readonly column: number;
  /** The byte's value. */
  readonly byte: number;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Offset of the first byte of `bytes` that does not start or continue a well-formed UTF-8
 * character (overlong forms, surrogates and code points above U+10FFFF included), or -1.
 * For a truncated character, its first byte.
 */
function invalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] ?? 0;
    if (lead < 0x80) {
      i += 1;
      continue;
    }
    const more = lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : 0;
    if (more === 0) return i;
    // The second byte's range excludes overlong forms (E0, F0), surrogates (ED) and > U+10FFFF (F4).
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    const second = bytes[i + 1];
    if (second === undefined || second < low || second > high) return i;
    for (let k = 2; k <= more; k++) {
      const next = bytes[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return i;
    }
    i += more + 1;
  }
  return -1;
}

/**
 * Decodes a file's bytes as UTF-8, strictly: bytes that are not UTF-8 are not silently
 * replaced. A byte-order mark is kept (the YAML readers skip it). When the bytes are not
 * UTF-8, `text` is the lenient decoding (U+FFFD for each bad sequence, so the rest of the
 * file can still be checked) and `invalidUtf8` says where the first bad byte is (line and
 * column counted like the YAML positions: UTF-16 units of the decoded text, from 1).
 */
export function decodeUtf8(bytes: Uint8Array): { text: string; invalidUtf8?: InvalidUtf8 } {
  try {
    return { text: strictUtf8.decode(bytes) };
  } catch {
    const offset = Math.max(0, invalidUtf8Offset(bytes));
    const before = lenientUtf8.decode(bytes.subarray(0, offset));
    let line = 1;
    let lineStart = 0;
    for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) {
      line += 1;
      lineStart = i + 1;
    }
    return {
      text: lenientUtf8.decode(bytes),
      invalidUtf8: { line, column: before.length - lineStart + 1, byte: bytes[offset] ?? 0 },
    };
  }
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
  /**
   * Pointers (segments joined with `/`) of the values that were exactly one `${...}`
   * reference, set when variables are substituted (src/manifest/variables.ts `whole`).
   */
  wholeReferences?: ReadonlySet<string>;
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
  const docs = readDocuments(source, out);
  if (MAY_HOLD_CONTROL.test(source.text)) for (const parsed of docs) checkControlCharacters(parsed, out);
  return docs;
}

/* eslint-disable no-control-regex -- finding control characters is the point */
/** C0 control characters a value may not hold (all but tab, line feed and carriage return). */
const CONTROL = /[\x00-\x08\x0B\x0C\x0E-\x1F]/;
/**
 * Cheap test of a whole file: such a character written raw, or an escape of a double-quoted
 * scalar that may give one (`\0 \a \b \e \f \v`, `\x00`-`\x1F`, `\u0000`-`\u001F`,
 * `\U00000000`-`\U0000001F`). Only files that pass it have their values searched.
 */
const MAY_HOLD_CONTROL = /[\x00-\x08\x0B\x0C\x0E-\x1F]|\\(?:[0abefv]|x[01]|u00[01]|U000000[01])/;
/* eslint-enable no-control-regex */

/** Reports the keys and values of a document that hold a control character ({@link CONTROL}). */
function checkControlCharacters(parsed: ParsedDocument, out: Diagnostic[]): void {
  const seen = new Set<object>(); // an alias's value is shared: search it once
  const path: string[] = [];
  const report = (text: string, what: 'key' | 'value'): void => {
    const code = (text.match(CONTROL)?.[0] ?? '').charCodeAt(0);
    const name = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    out.push(
      makeDiagnostic(parsed, {
        code: 'control-character',
        pointer: [...path],
        at: what,
        message: `control character ${name} in a ${what}: only tab, line feed and carriage return may appear (written raw or as escapes such as "\\0" or "\\x01"); remove it`,
      }),
    );
  };
  const search = (value: unknown): void => {
    if (typeof value === 'string') {
      if (CONTROL.test(value)) report(value, 'value');
      return;
    }
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    for (const [key, item] of entries) {
      path.push(key);
      if (!Array.isArray(value) && CONTROL.test(key)) report(key, 'key');
      search(item);
      path.pop();
    }
  };
  search(parsed.value);
}

/**
 * Most that the aliases of a file may add to it, in characters of YAML with every alias
 * written out; a file longer than this may grow to twice its length.
 */
export const MAX_ALIAS_EXPANSION = 1_000_000;

/** An alias that cannot be resolved safely. */
interface AliasProblem {
  readonly kind: 'unresolved' | 'cyclic' | 'excessive';
  readonly alias: Alias;
}

/**
 * Checks the aliases of a document before they are resolved: each names an anchor earlier in
 * the document, none is inside the value it names (that value would contain itself), and
 * written out they add at most `budget.left` characters (shared by the documents of a file;
 * what they add is taken from it). Resolved aliases share their value, but what reads the
 * values later (variables, templates, schema checks, requests) reads every copy, and a few
 * hundred bytes of nested aliases ("billion laughs") stand for billions of nodes; merge keys
 * (`<<`) even copy while resolving. Linear in the size of the document: the size of each
 * anchored value is computed once.
 */
function aliasProblem(doc: Document.Parsed, budget: { left: number }): AliasProblem | undefined {
  const anchors = new Map<string, Node>();
  /** Written-out length of the anchored nodes read so far (not of those still being read). */
  const sizes = new Map<Node, number>();
  let problem: AliasProblem | undefined;
  const length = (node: Node): number => (node.range ? Math.max(1, node.range[1] - node.range[0]) : 1);
  /** Characters the aliases inside `node` add when written out. */
  const added = (node: unknown): number => {
    if (problem) return 0;
    if (isPair(node)) return added(node.key) + added(node.value);
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      const size = target ? sizes.get(target) : undefined;
      if (size === undefined) {
        problem = { kind: target ? 'cyclic' : 'unresolved', alias: node };
        return 0;
      }
      const extra = Math.max(0, size - length(node));
      budget.left -= extra;
      if (budget.left < 0) problem = { kind: 'excessive', alias: node };
      return extra;
    }
    if (!isNode(node)) return 0;
    if (node.anchor !== undefined) anchors.set(node.anchor, node);
    let extra = 0;
    if (isMap(node) || isSeq(node)) for (const item of node.items) extra += added(item);
    if (node.anchor !== undefined) sizes.set(node, length(node) + extra);
    return extra;
  };
  added(doc.contents);
  return problem;
}

function aliasMessage(problem: AliasProblem, limit: number): string {
  const name = `'*${problem.alias.source}'`;
  switch (problem.kind) {
    case 'unresolved':
      return `YAML error: alias ${name} names no anchor of this document (anchors do not reach across '---')`;
    case 'cyclic':
      return `YAML error: alias ${name} is inside the value its anchor names, so that value would contain itself without end; write the values out or use \`extends\` templates`;
    case 'excessive':
      return `YAML error: too many alias references (YAML anchors/aliases expand to more than ${limit.toLocaleString('en-US')} characters written out); write the values out or use \`extends\` templates`;
  }
}

/**
 * How deeply collections may nest in a manifest. Manifests need a handful of levels; a
 * bound keeps every later recursive walk (duplicate keys, aliases, schema checks) far from
 * the stack's limit, whatever a hostile file holds.
 */
export const MAX_NESTING = 100;

/** True when `value` (plain data) nests collections deeper than {@link MAX_NESTING}; iterative. */
function nestsTooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [item, depth] = top;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > MAX_NESTING) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/** The first collection node nested deeper than {@link MAX_NESTING} (aliases not followed); iterative. */
function tooDeepNode(root: unknown): Node | undefined {
  const stack: [unknown, number][] = [[root, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth] = top;
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth > MAX_NESTING) return node;
    for (const item of node.items as unknown[]) {
      if (isPair(item)) stack.push([item.value, depth + 1], [item.key, depth + 1]);
      else stack.push([item, depth + 1]);
    }
  }
  return undefined;
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

/** {@link parseFile} without the checks of the text and the values. */
function readDocuments(given: SourceFile, out: Diagnostic[]): ParsedDocument[] {
  const source = protectReferences(given);
  const docs = readProtected(source, out);
  if (source === given) return docs;
  for (const doc of docs) doc.value = restoreReferences(doc.value);
  return docs;
}

/** {@link readDocuments} of a text whose references are protected. */
function readProtected(source: SourceFile, out: Diagnostic[]): ParsedDocument[] {
  const read = fastParse(source.text);
  // Too deep a document takes the full parser, which says where.
  const fast = read?.some((d) => nestsTooDeep(d.value)) === true ? undefined : read;
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
    const parsed: ParsedDocument = { source, index, value: undefined, start: astStart(ast), ast: () => ast };
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
