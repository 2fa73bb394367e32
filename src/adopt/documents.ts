/**
 * Where each document of a manifest file is and which object it declares, read from the
 * `yaml` package's concrete syntax tree (its lexer and parser, without building nodes:
 * about twice as fast as `parseAllDocuments`), for edits that parse only the documents they
 * change (edit.ts).
 */
import { CST, Parser } from 'yaml';
import type { DocumentRef } from './edit.js';
import { isResourceType, kindOf } from '../kinds/index.js';

/**
 * The name under which a document is addressed: its `name`, or for a singleton's document,
 * which has none, the kind itself (as the state model names the one object: src/kinds/identity.ts
 * `singletonIdentity`).
 */
export function addressedName(kind: unknown, name: unknown): string | undefined {
  if (typeof name === 'string') return name;
  return name === undefined && isResourceType(kind) && kindOf(kind).singleton ? kind : undefined;
}

/** One document of a file: its text is `text.slice(start, end)`; `kind` and `name` as its top-level keys give them. */
export interface DocumentSpan {
  readonly start: number;
  readonly end: number;
  readonly kind: string | undefined;
  readonly name: string | undefined;
}

/**
 * The documents of `text` in order, each from its start (its `---`, or its first token) to
 * the next one's start (the last to the end of the text); undefined when a document's `kind`
 * or `name` cannot be read plainly (written twice, through an alias, anchor or tag), for the
 * caller to parse the whole text instead.
 */
export function documentSpans(text: string): DocumentSpan[] | undefined {
  const starts: { start: number; token: CST.Document }[] = [];
  for (const token of new Parser().parse(text)) if (token.type === 'document') starts.push({ start: token.offset, token });
  const spans: DocumentSpan[] = [];
  for (const [i, { start, token }] of starts.entries()) {
    const keys = topScalars(token.value);
    if (keys === undefined) return undefined;
    spans.push({ start, end: starts[i + 1]?.start ?? text.length, kind: keys.get('kind'), name: addressedName(keys.get('kind'), keys.get('name')) });
  }
  return spans;
}

/**
 * The plain scalar values of the `kind` and `name` keys of a top-level mapping (block or
 * flow); empty for another top-level node; undefined when one of them is not plainly written.
 */
function topScalars(value: CST.Token | undefined): Map<string, string> | undefined {
  const found = new Map<string, string>();
  if (!value || (value.type !== 'block-map' && !(value.type === 'flow-collection' && value.start.source === '{'))) return found;
  for (const item of value.items) {
    const key = item.key ? CST.resolveAsScalar(item.key) : null;
    if (!key || (key.value !== 'kind' && key.value !== 'name')) continue;
    const plain = [...item.start, ...(item.sep ?? [])].every((t) => t.type !== 'anchor' && t.type !== 'tag');
    const read = item.value ? CST.resolveAsScalar(item.value) : null;
    if (!plain || !read || found.has(key.value)) return undefined;
    found.set(key.value, read.value);
  }
  return found;
}

/**
 * A function that gives each `ref` as `text` writes it: itself when a document of `text` has
 * its kind and name, else, when `ref.line` is known, the kind and name written in the
 * document whose text holds that line, when it is of the same kind and its name is a plain
 * string (e.g. `${TEAM}-shop`, which the loader substituted). The documents are read once,
 * on the first ref that needs them.
 */
export function writtenRefs(text: string): (ref: DocumentRef) => DocumentRef {
  let index: { spans: DocumentSpan[]; names: Set<string>; lines: number[] } | null | undefined;
  const read = (): typeof index => {
    const spans = documentSpans(text);
    if (!spans) return null;
    // The first line of each document and of the text after the last one.
    const lines: number[] = [];
    let line = 1;
    let at = 0;
    for (const offset of [...spans.map((s) => s.start), text.length]) {
      for (let i = text.indexOf('\n', at); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
      at = offset;
      lines.push(line);
    }
    return { spans, names: new Set(spans.map((s) => JSON.stringify([s.kind, s.name]))), lines };
  };
  return (ref) => {
    if (ref.line === undefined) return ref;
    if (index === undefined) index = read();
    if (!index || index.names.has(JSON.stringify([ref.kind, ref.name]))) return ref;
    const line = ref.line;
    const { lines } = index;
    const found = index.spans.find((_, i) => (lines[i] ?? 0) <= line && (i + 1 === index?.spans.length || line < (lines[i + 1] ?? 0)));
    if (found === undefined || found.kind !== ref.kind || found.name === undefined) return ref;
    return { kind: ref.kind, name: found.name };
  };
}
