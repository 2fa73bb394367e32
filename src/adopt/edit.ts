/**
 * Edits of manifest files in place, for `gwops drift --adopt` (README.md "Drift"), with
 * the `yaml` library's document API: each edit parses the current text with
 * `parseAllDocuments`, finds the smallest node it changes (a scalar inside a list item, not
 * the list) and replaces only the source range of that node, or inserts or removes the
 * lines (block style) or the item text (flow style) of one map pair or list item. Every
 * byte outside the changed values stays as it was: comments, key order, quoting, flow or
 * block style. Strings are written with `${` escaped as `$${` (src/manifest/variables.ts),
 * so that they read back as the value written. Pure: text in, text out.
 */
import { addressedName } from './documents.js';
import type { Document, Node, Pair, YAMLMap, YAMLSeq } from 'yaml';
import { isMap, isNode, isPair, isScalar, isSeq, parseAllDocuments, Scalar, stringify } from 'yaml';
import { escapeVariables } from '../manifest/variables.js';
import { documentSpans, writtenRefs } from './documents.js';

/** One edit of one manifest document; paths are segments from the document's root (`['attributes', 'backendHosts', '0', 'port']`). */
export type DocumentEdit =
  /** Set the value at `path`, adding the keys that are missing; an index one past the end of a list appends an item. */
  | { readonly type: 'set'; readonly path: readonly string[]; readonly value: unknown }
  /** Remove the map pair or list item at `path` (nothing when it is not there). */
  | { readonly type: 'delete'; readonly path: readonly string[] }
  /** Add (`add`) or remove a name in `relationships.<relationship>`. */
  | { readonly type: 'link'; readonly relationship: string; readonly target: string; readonly add: boolean; readonly cardinality: 'one' | 'many' }
  /** Remove the whole document. */
  | { readonly type: 'remove-document' };

/** The document an edit addresses: its `kind` and `name`. */
export interface DocumentRef {
  readonly kind: string;
  readonly name: string;
  /**
   * The line (1-based) where the document starts in the file, when known: a document whose
   * `name` is written otherwise than the object's name (a `${VAR}` the loader substituted) is
   * found there.
   */
  readonly line?: number;
}

/** Result of {@link editManifestText}. */
export interface EditResult {
  /** The new text; `''` when every document was removed. */
  readonly text: string;
  /** Edits whose document is not in the file. */
  readonly notFound: readonly DocumentRef[];
  /** Edits that cannot be written in place (a value inside an alias, a path through a scalar), each with its document. */
  readonly unwritable: readonly { readonly ref: DocumentRef; readonly edit: DocumentEdit }[];
}

interface Splice {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

type AnyDocument = Document.Parsed;
type Collection = YAMLMap | YAMLSeq;

function documentFor(docs: readonly AnyDocument[], ref: DocumentRef): AnyDocument | undefined {
  return docs.find((d) => d.get('kind') === ref.kind && addressedName(d.get('kind'), d.get('name')) === ref.name);
}

/** Every string inside `value` with `${` escaped as `$${` (src/manifest/variables.ts), so that it reads back as itself. */
export function escapeStrings(value: unknown): unknown {
  if (typeof value === 'string') return escapeVariables(value);
  if (Array.isArray(value)) return value.map(escapeStrings);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escapeStrings(v)]));
  return value;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function columnOf(text: string, offset: number): number {
  return offset - lineStart(text, offset);
}

/** `value` in flow style on one line, safe inside a flow collection; `pad`: `{ a: 1 }` rather than `{a: 1}`. */
function flowText(value: unknown, pad: boolean): string {
  const v = escapeStrings(value);
  if (typeof v === 'object' && v !== null) return stringify(v, { collectionStyle: 'flow', lineWidth: 0, flowCollectionPadding: pad }).trimEnd();
  // A scalar as a list item is quoted where a flow collection needs it (`a,b`, `x]`).
  return stringify([v], { collectionStyle: 'flow', lineWidth: 0, flowCollectionPadding: false }).trimEnd().slice(1, -1);
}

/** A scalar value written where `node` (a scalar) stands, in its quoting style where that can hold the value. */
function scalarText(value: unknown, node: Scalar, inFlow: boolean): string {
  if (typeof value === 'string') {
    const v = escapeVariables(value);
    if (node.type === Scalar.QUOTE_DOUBLE || v.includes('\n')) return JSON.stringify(v);
    if (node.type === Scalar.QUOTE_SINGLE) return `'${v.replace(/'/g, "''")}'`;
    if (!inFlow) return stringify(v, { lineWidth: 0 }).trimEnd();
  }
  return flowText(value, false);
}

/** True when the file writes flow collections as `{ a: 1 }` (with padding) rather than `{a: 1}`. */
function padsFlow(text: string): boolean {
  const pads = (text.match(/[[{] \S/g) ?? []).length;
  const tight = (text.match(/[[{][^\s\]}]/g) ?? []).length;
  return pads >= tight;
}

/** `key: value` (a map entry) or `- value` (a list item) as block lines at column `indent`, ending in a newline. */
function blockEntry(key: string | undefined, value: unknown, indent: number, pad: boolean): string {
  const head = ' '.repeat(indent);
  const scalarOrEmpty = typeof value !== 'object' || value === null || (Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0);
  if (scalarOrEmpty) return `${head}${key === undefined ? '- ' : `${flowText(key, false)}: `}${flowText(value, pad)}\n`;
  const body = stringify(key === undefined ? [escapeStrings(value)] : { [key]: escapeStrings(value) }, { lineWidth: 0, flowCollectionPadding: pad });
  return body
    .trimEnd()
    .split('\n')
    .map((line) => head + line)
    .join('\n')
    .concat('\n');
}

/** The items of a collection as nodes (a map's pairs, a list's items). */
function itemsOf(collection: Collection): readonly (Pair | Node)[] {
  return collection.items as readonly (Pair | Node)[];
}

function itemStart(item: Pair | Node): number | undefined {
  if (isPair(item)) return isNode(item.key) ? item.key.range?.[0] : undefined;
  return item.range?.[0];
}

function itemEnd(item: Pair | Node): number | undefined {
  if (isPair(item)) return (isNode(item.value) ? item.value.range?.[1] : undefined) ?? (isNode(item.key) ? item.key.range?.[1] : undefined);
  return item.range?.[1];
}

/** The splice that removes item `index` of `collection` (its lines in block style, its text and one comma in flow style). */
function removeItem(text: string, collection: Collection, index: number): Splice | undefined {
  const items = itemsOf(collection);
  const item = items[index];
  const start = item && itemStart(item);
  const end = item && itemEnd(item);
  if (start === undefined || end === undefined) return undefined;
  const next = items[index + 1];
  const nextStart = next && itemStart(next);
  if (collection.flow) {
    if (nextStart !== undefined) return { start, end: nextStart, text: '' };
    const previous = items[index - 1];
    const previousEnd = previous && itemEnd(previous);
    if (previousEnd !== undefined) return { start: previousEnd, end, text: '' };
    return { start, end, text: '' }; // the only item: `[]` stays
  }
  const from = lineStart(text, start);
  if (nextStart !== undefined) return { start: from, end: lineStart(text, nextStart), text: '' };
  const to = collection.range?.[1] ?? end;
  return { start: from, end: text[to - 1] === '\n' || to === text.length ? to : text.indexOf('\n', end) + 1 || text.length, text: '' };
}

/** The splice that adds `key: value` (map) or `- value` (list, `key` undefined) at the end of `collection`. */
function appendItem(text: string, collection: Collection, key: string | undefined, value: unknown, pad: boolean): Splice | undefined {
  const items = itemsOf(collection);
  const range = collection.range;
  if (!range) return undefined;
  if (collection.flow) {
    const close = text.lastIndexOf(isMap(collection) ? '}' : ']', range[1] - 1);
    if (close < range[0]) return undefined;
    const last = items[items.length - 1];
    const lastEnd = last && itemEnd(last);
    const entry = key === undefined ? flowText(value, pad) : `${flowText(key, false)}: ${flowText(value, pad)}`;
    if (lastEnd === undefined) return { start: close, end: close, text: /^[[{] $/.test(text.slice(range[0], close)) ? `${entry} ` : entry };
    return { start: lastEnd, end: lastEnd, text: `, ${entry}` };
  }
  const first = items[0];
  const firstStart = first && itemStart(first);
  if (firstStart === undefined) return undefined;
  // A list item's column is its dash's: the first non-blank of its line.
  const indent = isSeq(collection) ? (/^ */.exec(text.slice(lineStart(text, firstStart))) ?? [''])[0].length : columnOf(text, firstStart);
  const at = range[1];
  const lead = at > 0 && text[at - 1] !== '\n' ? '\n' : '';
  return { start: at, end: at, text: lead + blockEntry(key, value, indent, pad) };
}

/** Nested maps for `segments` (no list index) around `value`, or undefined when a segment is a list index. */
function nested(segments: readonly string[], value: unknown): unknown {
  let out = value;
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i] ?? '';
    if (/^\d+$/.test(segment)) return undefined;
    out = { [segment]: out };
  }
  return out;
}

/** The splice of one `set` edit, or undefined when it cannot be written in place. */
function setSplice(text: string, doc: AnyDocument, path: readonly string[], value: unknown, pad: boolean): Splice | undefined {
  // The deepest node of the path the document holds.
  let depth = path.length;
  let node: unknown = doc.getIn(path, true);
  while (!isNode(node) && depth > 0) {
    depth -= 1;
    node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
  }
  if (!isNode(node) || !node.range) return undefined;
  const rest = path.slice(depth);
  if (rest.length === 0) {
    const [start, end] = node.range;
    if (isScalar(node) && (typeof value !== 'object' || value === null)) {
      const parent: unknown = path.length <= 1 ? doc.contents : doc.getIn(path.slice(0, -1), true);
      return { start, end, text: scalarText(value, node, (isMap(parent) || isSeq(parent)) && parent.flow === true) };
    }
    if ((isMap(node) || isSeq(node)) && !node.flow && typeof value === 'object' && value !== null) {
      // A block collection is written anew in block style at its own column.
      const first = itemsOf(node)[0];
      const firstStart = first && itemStart(first);
      if (firstStart === undefined) return undefined;
      const from = lineStart(text, firstStart);
      const body = stringify(escapeStrings(value), { lineWidth: 0, flowCollectionPadding: pad });
      const indent = ' '.repeat(isSeq(node) ? firstStart - 2 - from : firstStart - from);
      const lines = body.trimEnd().split('\n').map((line) => indent + line);
      return { start: from, end: node.range[1], text: `${lines.join('\n')}\n` };
    }
    return { start, end, text: flowText(value, isMap(node) || isSeq(node) ? /^[[{] /.test(text.slice(start, end)) : pad) };
  }
  const [head, ...tail] = rest;
  if (head === undefined) return undefined;
  if (isMap(node)) {
    const inner = nested(tail, value);
    return inner === undefined ? undefined : appendItem(text, node, head, inner, pad);
  }
  if (isSeq(node) && tail.length === 0 && head === String(node.items.length)) return appendItem(text, node, undefined, value, pad);
  if (isScalar(node) && node.value === null && (node.source === undefined || node.source === '')) {
    // `key:` with nothing after it: the value becomes a flow collection on that line.
    const inner = nested(rest, value);
    if (inner === undefined) return undefined;
    const at = node.range[0];
    return { start: at, end: node.range[1], text: `${text[at - 1] === ':' ? ' ' : ''}${flowText(inner, pad)}` };
  }
  return undefined;
}

/** The splice of one `delete` edit; `null` when there is nothing to delete. */
function deleteSplice(text: string, doc: AnyDocument, path: readonly string[]): Splice | undefined | null {
  const parentPath = path.slice(0, -1);
  const parent: unknown = parentPath.length === 0 ? doc.contents : doc.getIn(parentPath, true);
  const key = path[path.length - 1];
  if (key === undefined) return undefined;
  if (isMap(parent)) {
    const index = parent.items.findIndex((p) => isScalar(p.key) && String(p.key.value) === key);
    return index < 0 ? null : removeItem(text, parent, index);
  }
  if (isSeq(parent)) {
    const index = Number(key);
    return index < parent.items.length ? removeItem(text, parent, index) : null;
  }
  return parent === undefined ? null : undefined;
}

function relationshipNames(doc: AnyDocument, relationship: string): string[] {
  const value: unknown = doc.getIn(['relationships', relationship], true);
  if (isScalar(value)) return typeof value.value === 'string' ? [value.value] : [];
  if (isSeq(value)) return value.items.map((i) => (isScalar(i) ? String(i.value) : String(i)));
  return [];
}

/** The splice of one link edit. */
function linkSplice(text: string, doc: AnyDocument, edit: Extract<DocumentEdit, { type: 'link' }>, pad: boolean): Splice | undefined | null {
  const path = ['relationships', edit.relationship];
  const names = relationshipNames(doc, edit.relationship);
  const node: unknown = doc.getIn(path, true);
  if (!edit.add) {
    const index = names.indexOf(edit.target);
    if (index < 0) return null;
    if (isSeq(node) && names.length > 1) return removeItem(text, node, index);
    const rels: unknown = doc.get('relationships', true);
    // The relationship's last name: the key goes, and `relationships` too when it held nothing else.
    if (isMap(rels) && rels.items.length === 1) return deleteSplice(text, doc, ['relationships']);
    return deleteSplice(text, doc, path);
  }
  if (names.includes(edit.target)) return null;
  if (edit.cardinality === 'one' || (isScalar(node) && node.value !== null)) return setSplice(text, doc, path, edit.cardinality === 'one' ? edit.target : [...names, edit.target], pad);
  if (isSeq(node)) return setSplice(text, doc, [...path, String(node.items.length)], edit.target, pad);
  return setSplice(text, doc, path, [edit.target], pad);
}

/** The splice that removes a whole document (with its `---` line when it has one). */
function removeDocumentSplice(doc: AnyDocument): Splice {
  return { start: doc.range[0], end: doc.range[2], text: '' };
}

/** An edit with its place in the list given. */
interface Numbered {
  readonly at: number;
  readonly item: { readonly ref: DocumentRef; readonly edit: DocumentEdit };
}

/**
 * Applies `edits` in order to the documents of one manifest file's `text`, each on the
 * text the previous ones left.
 *
 * The file's documents are found once (documents.ts); each document's edits then parse
 * that document's own text (from its start to the next document's): a file of 1,000
 * documents with an edit in each parses 1,000 small texts instead of 1,000 times the whole
 * file. A file with directives (`%YAML`, `%TAG`, which a document's text alone would lose)
 * or whose `kind` or `name` is not plainly written has every edit made on the whole text
 * instead, with the same result.
 * @returns the new text, the edits whose document is not in it, and those it cannot write
 */
export function editManifestText(text: string, edits: readonly { readonly ref: DocumentRef; readonly edit: DocumentEdit }[]): EditResult {
  // Each edit addresses its document by the kind and name written in the file; the results name the objects.
  const original = new Map<DocumentRef, DocumentRef>();
  const writtenRef = writtenRefs(text);
  const written = edits.map((item) => {
    const ref = writtenRef(item.ref);
    if (ref === item.ref) return item;
    original.set(ref, item.ref);
    return { ...item, ref };
  });
  const result = editByWrittenName(text, written);
  if (original.size === 0) return result;
  const back = (ref: DocumentRef): DocumentRef => original.get(ref) ?? ref;
  return { text: result.text, notFound: result.notFound.map(back), unwritable: result.unwritable.map((item) => ({ ...item, ref: back(item.ref) })) };
}

/** {@link editManifestText} once each edit's document is addressed by its written kind and name. */
function editByWrittenName(text: string, edits: readonly { readonly ref: DocumentRef; readonly edit: DocumentEdit }[]): EditResult {
  const spans = /^%/m.test(text) ? undefined : documentSpans(text);
  if (!spans) return editEachOnWholeText(text, edits);
  const documentsOf = new Map<string, number[]>();
  spans.forEach((span, index) => {
    const key = JSON.stringify([span.kind, span.name]);
    documentsOf.set(key, [...(documentsOf.get(key) ?? []), index]);
  });
  const addressed = (ref: DocumentRef): readonly number[] => documentsOf.get(JSON.stringify([ref.kind, ref.name])) ?? [];
  // Two documents declaring one object (a file loading refuses): after the first is removed,
  // the next edit of it goes to the second, which only the whole text shows.
  if (edits.some((e) => addressed(e.ref).length > 1)) return editEachOnWholeText(text, edits);
  const byDocument = new Map<number, Numbered[]>();
  const notFound: { at: number; ref: DocumentRef }[] = [];
  edits.forEach((item, at) => {
    const [index] = addressed(item.ref);
    if (index === undefined) notFound.push({ at, ref: item.ref });
    else byDocument.set(index, [...(byDocument.get(index) ?? []), { at, item }]);
  });
  const pad = padsFlow(text);
  const unwritable: Numbered[] = [];
  // The new text in pieces, from the end: each edited document's own text edited, the text between as it was.
  const pieces: string[] = [];
  let rest = text.length;
  for (const index of [...byDocument.keys()].sort((a, b) => b - a)) {
    const span = spans[index];
    const numbered = byDocument.get(index) ?? [];
    if (!span) continue;
    const own = editWhole(text.slice(span.start, span.end), numbered.map((n) => n.item), pad);
    for (const ref of own.notFound) notFound.push({ at: numbered.find((n) => n.item.ref === ref)?.at ?? 0, ref });
    for (const item of own.unwritable) unwritable.push({ at: numbered.find((n) => n.item === item)?.at ?? 0, item });
    pieces.push(text.slice(span.end, rest), own.text);
    rest = span.start;
  }
  pieces.push(text.slice(0, rest));
  const inOrder = <T extends { at: number }>(list: T[]): T[] => list.sort((a, b) => a.at - b.at);
  return finished(text, { text: pieces.reverse().join(''), notFound: inOrder(notFound).map((n) => n.ref), unwritable: inOrder(unwritable).map((n) => n.item) }, removes(edits));
}

/**
 * {@link editManifestText} with every edit made on the whole text, each parsing the text the
 * last left: the same result, in time that grows with the file's size times the edits (for
 * files with directives, and as the reference the faster way is checked against).
 */
export function editEachOnWholeText(text: string, edits: readonly { readonly ref: DocumentRef; readonly edit: DocumentEdit }[]): EditResult {
  return finished(text, editWhole(text, edits, padsFlow(text)), removes(edits));
}

/** The edits made one after another on the whole of `text`, each parsing the text the last left. */
function editWhole(text: string, edits: readonly { readonly ref: DocumentRef; readonly edit: DocumentEdit }[], pad: boolean): EditResult {
  const notFound: DocumentRef[] = [];
  const unwritable: { ref: DocumentRef; edit: DocumentEdit }[] = [];
  let out = text;
  for (const item of edits) {
    const { ref, edit } = item;
    const docs = parseAllDocuments(out) as AnyDocument[];
    const doc = documentFor(docs, ref);
    if (!doc) {
      notFound.push(ref);
      continue;
    }
    let splice: Splice | undefined | null;
    switch (edit.type) {
      case 'remove-document':
        splice = removeDocumentSplice(doc);
        break;
      case 'set':
        splice = setSplice(out, doc, edit.path, edit.value, pad);
        break;
      case 'delete':
        splice = deleteSplice(out, doc, edit.path);
        break;
      case 'link':
        splice = linkSplice(out, doc, edit, pad);
        break;
    }
    if (splice === undefined) unwritable.push(item);
    else if (splice !== null) out = out.slice(0, splice.start) + splice.text + out.slice(splice.end);
  }
  return { text: out, notFound, unwritable };
}

/** True when one of the edits removes a document. */
function removes(edits: readonly { readonly edit: DocumentEdit }[]): boolean {
  return edits.some((e) => e.edit.type === 'remove-document');
}

/** The edited text of a file once every edit is made: empty when no document is left, without a leading `---` it did not have. */
function finished(text: string, edited: EditResult, removesDocuments: boolean): EditResult {
  let out = edited.text;
  // Every document removed: the file goes (its comments with it). Only a removal can leave none.
  if (removesDocuments && out !== text && parseAllDocuments(out).every((d) => d.contents === null)) return { ...edited, text: '' };
  // A removed first document leaves the next one's `---` first: harmless, but drop it.
  if (out !== text && !/^(\s*(?:#[^\n]*\n)*)---\n/.test(text)) out = out.replace(/^(\s*(?:#[^\n]*\n)*)---\n/, '$1');
  return { ...edited, text: out };
}
