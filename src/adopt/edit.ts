/**
 * Edits of manifest files in place, for `gwops drift --adopt` (README.md "Drift"), with
 * the `yaml` library's document API: each file is parsed with `parseAllDocuments`, the
 * node of an edited value is found with `getIn(…, true)`, and only the text of that node
 * (its source range) is replaced, so comments, key order, quoting and layout everywhere
 * else stay byte for byte. A value the document does not hold yet (it came from a template
 * or is new) is set with `setIn`, and then only that document is written anew. Pure: text
 * in, text out.
 */
import type { Document, Node } from 'yaml';
import { isCollection, isMap, isNode, isScalar, isSeq, parseAllDocuments, stringify } from 'yaml';

/** One edit of one manifest document. */
export type DocumentEdit =
  /** Set the attribute at dotted `path` to `value` (`undefined`: remove it). */
  | { readonly type: 'attribute'; readonly path: string; readonly value: unknown }
  /** Add (`add`) or remove a name in `relationships.<relationship>`. */
  | { readonly type: 'link'; readonly relationship: string; readonly target: string; readonly add: boolean; readonly cardinality: 'one' | 'many' }
  /** Remove the whole document. */
  | { readonly type: 'remove-document' };

/** The document an edit addresses: its `kind` and `name`. */
export interface DocumentRef {
  readonly kind: string;
  readonly name: string;
}

/** Result of {@link editManifestText}. */
export interface EditResult {
  /** The new text; `''` when every document was removed. */
  readonly text: string;
  /** Edits whose document is not in the file. */
  readonly notFound: readonly DocumentRef[];
}

interface Splice {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

type AnyDocument = Document.Parsed;

function documentFor(docs: readonly AnyDocument[], ref: DocumentRef): AnyDocument | undefined {
  return docs.find((d) => d.get('kind') === ref.kind && d.get('name') === ref.name);
}

/** True when the file writes flow collections as `{ a: 1 }` (with padding) rather than `{a: 1}`. */
function padsFlow(text: string): boolean {
  const padded = (text.match(/[[{] \S/g) ?? []).length;
  const tight = (text.match(/[[{][^\s\]}]/g) ?? []).length;
  return padded >= tight;
}

/** The column of `offset` in `text`. */
function columnOf(text: string, offset: number): number {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return offset - lineStart;
}

/**
 * `value` as YAML text to stand where `node` stands: a block collection in block style at
 * the node's column, anything else in flow style on one line (a multi-line string as a
 * double-quoted scalar).
 */
function renderInPlace(value: unknown, node: Node, text: string, pad: boolean): string {
  const range = node.range ?? [0, 0, 0];
  const original = text.slice(range[0], range[1]);
  if (isCollection(node) && !node.flow && typeof value === 'object' && value !== null && Array.isArray(value) === isSeq(node)) {
    const indent = ' '.repeat(columnOf(text, range[0]));
    const lines = stringify(value, { lineWidth: 0, flowCollectionPadding: pad }).trimEnd().split('\n');
    return lines.map((line, i) => (i === 0 ? line : indent + line)).join('\n') + (original.endsWith('\n') ? '\n' : '');
  }
  if (typeof value === 'string' && value.includes('\n')) return JSON.stringify(value);
  // A flow collection keeps its own padding (`[a, b]` or `{ a: 1 }`); other values follow the file's.
  const padding = isCollection(node) && node.flow ? /^[[{] /.test(original) : pad;
  return stringify(value, { collectionStyle: 'flow', lineWidth: 0, flowCollectionPadding: padding }).trimEnd();
}

/** The source range of the key/value pair of `key` in a block map, whole lines, or undefined. */
function pairLines(text: string, doc: AnyDocument, parent: readonly string[], key: string): [number, number] | undefined {
  const map = parent.length === 0 ? doc.contents : doc.getIn(parent, true);
  if (!isMap(map) || map.flow) return undefined;
  const pair = map.items.find((p) => isScalar(p.key) && p.key.value === key);
  const keyRange = isNode(pair?.key) ? pair.key.range : undefined;
  const valueRange = isNode(pair?.value) ? pair.value.range : undefined;
  if (!keyRange) return undefined;
  const start = text.lastIndexOf('\n', keyRange[0] - 1) + 1;
  const endOffset = valueRange ? valueRange[1] : keyRange[1];
  const lineEnd = text.indexOf('\n', Math.max(endOffset - 1, keyRange[1]));
  return [start, lineEnd < 0 ? text.length : lineEnd + 1];
}

function relationshipNames(doc: AnyDocument, relationship: string): string[] {
  const value: unknown = doc.getIn(['relationships', relationship]);
  if (typeof value === 'string') return [value];
  if (isSeq(value)) return value.items.map((i) => (isScalar(i) ? String(i.value) : String(i)));
  return [];
}

/**
 * Applies `edits` to the documents of one manifest file's `text`.
 * @returns the new text, and the documents not found in it
 */
export function editManifestText(text: string, edits: readonly { readonly ref: DocumentRef; readonly edit: DocumentEdit }[]): EditResult {
  const docs = parseAllDocuments(text) as AnyDocument[];
  const pad = padsFlow(text);
  const splices: Splice[] = [];
  const rewritten = new Set<AnyDocument>();
  const removed = new Set<AnyDocument>();
  const notFound: DocumentRef[] = [];
  for (const { ref, edit } of edits) {
    const doc = documentFor(docs, ref);
    if (!doc) {
      notFound.push(ref);
      continue;
    }
    switch (edit.type) {
      case 'remove-document':
        removed.add(doc);
        break;
      case 'attribute': {
        const segments = ['attributes', ...edit.path.split('.')];
        const node = doc.getIn(segments, true);
        if (edit.value === undefined) {
          const lines = isNode(node) ? pairLines(text, doc, segments.slice(0, -1), segments[segments.length - 1] ?? '') : undefined;
          if (lines && !rewritten.has(doc)) splices.push({ start: lines[0], end: lines[1], text: '' });
          else {
            doc.deleteIn(segments);
            rewritten.add(doc);
          }
        } else if (isNode(node) && node.range && !rewritten.has(doc)) {
          splices.push({ start: node.range[0], end: node.range[1], text: renderInPlace(edit.value, node, text, pad) });
        } else {
          doc.setIn(segments, doc.createNode(edit.value, { flow: false }));
          rewritten.add(doc);
        }
        break;
      }
      case 'link': {
        const names = relationshipNames(doc, edit.relationship).filter((n) => n !== edit.target);
        if (edit.add) names.push(edit.target);
        const path = ['relationships', edit.relationship];
        const node = doc.getIn(path, true);
        const value: unknown = edit.cardinality === 'one' ? names[names.length - 1] : names;
        if (value === undefined || (Array.isArray(value) && value.length === 0)) {
          doc.deleteIn(path);
          const rels: unknown = doc.get('relationships');
          if (isMap(rels) && rels.items.length === 0) doc.delete('relationships');
          rewritten.add(doc);
        } else if (isNode(node) && node.range && !rewritten.has(doc)) {
          splices.push({ start: node.range[0], end: node.range[1], text: renderInPlace(value, node, text, pad) });
        } else {
          doc.setIn(path, doc.createNode(value));
          rewritten.add(doc);
        }
        break;
      }
    }
  }
  for (const doc of docs) {
    const range = doc.range;
    if (removed.has(doc)) {
      splices.push({ start: range[0], end: range[2], text: '' });
    } else if (rewritten.has(doc)) {
      // Only this document is written anew; the comment before the first one stays as it is.
      if (range[0] > 0 && doc === docs[0]) doc.commentBefore = null;
      const inner = splices.filter((s) => s.start >= range[0] && s.end <= range[2]);
      for (const s of inner) splices.splice(splices.indexOf(s), 1);
      splices.push({ start: range[0], end: range[2], text: doc.toString({ lineWidth: 0, flowCollectionPadding: pad }) });
    }
  }
  if (removed.size === docs.length && docs.length > 0) return { text: '', notFound };
  let out = text;
  for (const s of [...splices].sort((a, b) => b.start - a.start)) out = out.slice(0, s.start) + s.text + out.slice(s.end);
  // A removed first document leaves the next one's `---` first: harmless, but drop a leading one.
  return { text: out.replace(/^(\s*(?:#[^\n]*\n)*)---\n/, removed.has(docs[0] as AnyDocument) ? '$1' : '$&'), notFound };
}
