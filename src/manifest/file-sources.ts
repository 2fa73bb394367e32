/**
 * Values read from files: an attribute marked `x-gwops-file` in its kind's schema (a
 * certificate's PEM, each certificate of its chain) may be written as `{ fromFile: path }`
 * instead of the value itself (docs/manifest-reference.md "Values from files"). The path is
 * relative to the manifest (or overlay) that writes it; the file must be a regular file of
 * at most `FILE_LIMITS.secret` bytes of UTF-8 inside the project (content.ts
 * `projectRoot`), symbolic links resolved first, so that a manifest cannot read a file
 * from elsewhere on the machine. Trailing line breaks are removed, as for secrets.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import { FileReadError } from '../core/errors.js';
import { FILE_LIMITS, readFileBounded } from '../core/files.js';
import { kindOfDocument } from '../kinds/index.js';
import { withoutTrailingLineBreaks } from '../core/linear-text.js';
import { fileAttributes } from '../schema/index.js';
import { fileInsideProject } from './content.js';
import type { Entry } from './entries.js';
import { entryDiagnostic, labelOf, originOf } from './entries.js';
import { attributePath } from './schema-check.js';
import { decodeUtf8 } from './source-file.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Calls `visit` with every value at `segments` (`*`: every item of a list, also as the last segment) under `root`. */
function forEachValue(root: unknown, segments: readonly string[], visit: (at: string[], value: unknown) => void, at: string[] = []): void {
  const [head, ...rest] = segments;
  if (head === undefined) {
    visit(at, root);
    return;
  }
  if (head === '*') {
    if (Array.isArray(root)) root.forEach((item: unknown, i) => forEachValue(item, rest, visit, [...at, String(i)]));
  } else if (isObject(root) && Object.hasOwn(root, head)) {
    forEachValue(root[head], rest, visit, [...at, head]);
  }
}

/**
 * What a `{ fromFile }` names, read: the text, or the problem (said in words, never the
 * file's content).
 * @param given the path as written; @param dir the directory it is relative to; @param root the project's directory
 */
function readInside(given: string, dir: string, root: string): { text: string } | { problem: string } {
  const found = fileInsideProject(given, dir, root, 'a PEM file');
  if ('problem' in found) return found;
  const { real } = found;
  try {
    const decoded = decodeUtf8(readFileBounded(real, FILE_LIMITS.secret));
    if (decoded.invalidUtf8) {
      const { line, column } = decoded.invalidUtf8;
      return { problem: `file '${given}' is not valid UTF-8 (first invalid byte at line ${line}, column ${column}); save it as UTF-8 text (a PEM file)` };
    }
    return { text: withoutTrailingLineBreaks(decoded.text) };
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    return { problem: `cannot read file '${given}': ${error.problem}; give a regular file of at most ${FILE_LIMITS.secret / 1024 / 1024} MiB` };
  }
}

/**
 * Replaces every `{ fromFile: path }` at an attribute of the entry's kind marked
 * `x-gwops-file` with the text of the file it names. A file that cannot be read or lies
 * outside the project is a `file-unavailable` error at the `fromFile` value (file, line,
 * column), appended to `out`; the value then stays as written.
 * @param root the project's directory (absolute; content.ts `projectRoot`)
 */
export function resolveFiles(entry: Entry, root: string, out: Diagnostic[]): void {
  const attributes = entry.value.attributes;
  if (!isObject(attributes)) return;
  let copy: Record<string, unknown> | undefined;
  for (const marked of fileAttributes(kindOfDocument(entry.kind).type)) {
    forEachValue(attributes, marked.segments, (at, value) => {
      if (!isObject(value) || typeof value.fromFile !== 'string' || value.fromFile === '') return;
      const pointer = ['attributes', ...at, 'fromFile'];
      const read = readInside(value.fromFile, originOf(entry, pointer).origin.parsed.source.dir, root);
      if ('problem' in read) {
        out.push(entryDiagnostic(entry, { code: 'file-unavailable', pointer, message: `'${attributePath(at)}' of ${labelOf(entry.kind, entry.name)}: ${read.problem}` }));
        return;
      }
      copy ??= structuredClone(attributes);
      let node: unknown = copy;
      for (const s of at.slice(0, -1)) node = Array.isArray(node) ? node[Number(s)] : isObject(node) ? node[s] : undefined;
      const last = at[at.length - 1];
      if (last === undefined) return;
      if (Array.isArray(node)) node[Number(last)] = read.text;
      else if (isObject(node)) node[last] = read.text;
    });
  }
  if (copy) entry.value = { ...entry.value, attributes: copy };
}
