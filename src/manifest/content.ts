/**
 * A document's content (`content: { fromFile: path }` beside `attributes`, for kinds with a
 * content sub-resource; docs/manifest-reference.md "Document content"): the file is read
 * as bytes, relative to the manifest (or overlay) that names it. It must be a regular file
 * of at most `FILE_LIMITS.content` bytes inside the project ({@link projectRoot}: the
 * directory that holds the project file, or the working directory without one, and every
 * manifest and overlay path the run reads), symbolic links resolved first, so that a
 * manifest cannot upload a file from elsewhere on the machine.
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../core/diagnostics.js';
import { FileReadError } from '../core/errors.js';
import { FILE_LIMITS, errnoWords, readFileBounded } from '../core/files.js';
import { objectContent } from '../core/object-content.js';
import type { ObjectContent } from '../core/object-content.js';
import type { Entry } from './entries.js';
import { entryDiagnostic, labelOf, originOf } from './entries.js';
import type { ParsedDocument } from './positions.js';
import { makeDiagnostic } from './positions.js';
import { API_VERSION } from '../schema/kind-schema.js';
import type { SourceFile } from './source-file.js';

const POINTER = ['content', 'fromFile'];

/** `file`'s real path (symbolic links resolved) when it exists, else `file`. */
function realOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/**
 * The project's directory: the deepest directory that holds every one of `paths` (the
 * project file's directory or the working directory, and the manifest and overlay paths
 * the run reads; a file stands for its directory), symbolic links resolved.
 * @param paths absolute paths
 */
export function projectRoot(paths: readonly string[]): string {
  const dirs = paths.map((p) => {
    const real = realOrSelf(p);
    try {
      return statSync(real).isDirectory() ? real : path.dirname(real);
    } catch {
      return path.dirname(real);
    }
  });
  let root = dirs[0] ?? path.sep;
  for (const dir of dirs.slice(1)) while (!isInside(root, dir)) root = path.dirname(root);
  return root;
}

/** True when `inner` is `outer` or lies below it (absolute paths). */
export function isInside(outer: string, inner: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * The file a manifest's `{ fromFile }` names, resolved through symbolic links and kept
 * inside the project: `{ file, real }` (as written, resolved), or the problem in words.
 * @param given the path as written; @param dir the directory it is relative to;
 * @param root the project's directory; @param what what the file should hold ("a PEM file")
 */
export function fileInsideProject(given: string, dir: string, root: string, what: string): { file: string; real: string } | { problem: string } {
  const file = path.resolve(dir, given);
  let real: string;
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
    real = realpathSync(file);
  } catch (error) {
    return { problem: `cannot read file '${given}': ${errnoWords(error)}; give the path of ${what}, relative to this manifest` };
  }
  if (!isInside(realRoot, real)) {
    const how = isInside(realRoot, file) ? ' through a symbolic link' : '';
    return { problem: `file '${given}' lies outside the project${how} (${realRoot}); keep ${what} inside the project, beside its manifest` };
  }
  return { file, real };
}

/**
 * The content an entry declares, read from its file, or undefined when it declares none
 * (its content is then not managed) or the file cannot be used: each such problem is a
 * `content-unavailable` diagnostic at the `fromFile` value, appended to `out`.
 * @param root the project's directory (absolute)
 */
export function readDeclaredContent(entry: Entry, root: string, out: Diagnostic[]): ObjectContent | undefined {
  const content = entry.value.content;
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return undefined;
  const given = (content as Record<string, unknown>).fromFile;
  if (typeof given !== 'string' || given === '') return undefined;
  const dir = originOf(entry, POINTER).origin.parsed.source.dir;
  const label = `content of ${labelOf(entry.kind, entry.name)}`;
  const problem = (message: string): undefined => {
    out.push(entryDiagnostic(entry, { code: 'content-unavailable', pointer: POINTER, message: `${label}: ${message}` }));
    return undefined;
  };
  const found = fileInsideProject(given, dir, root, 'the specification');
  if ('problem' in found) return problem(found.problem);
  const { file, real } = found;
  try {
    return objectContent(readFileBounded(real, FILE_LIMITS.content), file);
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    return problem(`cannot read file '${given}': ${error.problem}; give a regular file of at most ${FILE_LIMITS.content / 1024 / 1024} MiB`);
  }
}

/** One file read as manifests: its documents and the diagnostics of parsing it. */
export interface ParsedFile {
  readonly source: SourceFile;
  readonly documents: readonly ParsedDocument[];
  readonly diagnostics: readonly Diagnostic[];
}

/** The absolute path of a file read (undefined for standard input). */
function absoluteOf(source: SourceFile): string | undefined {
  return source.file === '-' ? undefined : path.join(source.dir, path.basename(source.file));
}

/** Where a document names a content file: the document, and the path as written. */
export interface ContentUse {
  readonly document: ParsedDocument;
  readonly given: string;
}

/**
 * The absolute paths that documents of `files` name in `content: { fromFile }`, each with
 * the first document that names it. Export writes an OpenAPI specification in YAML beside
 * its manifest, where a directory scan finds it too: such a file holds a document's
 * content, not manifests.
 */
export function contentFiles(files: readonly ParsedFile[]): ReadonlyMap<string, ContentUse> {
  const named = new Map<string, ContentUse>();
  for (const file of files) {
    for (const document of file.documents) {
      const value = document.value;
      if (typeof value !== 'object' || value === null || !('content' in value)) continue;
      const content = value.content;
      const given = typeof content === 'object' && content !== null ? (content as Record<string, unknown>).fromFile : undefined;
      if (typeof given !== 'string' || given === '') continue;
      const absolute = path.resolve(document.source.dir, given);
      if (!named.has(absolute)) named.set(absolute, { document, given });
    }
  }
  return named;
}

/** True for a document that reads as a gwops manifest: a mapping with `apiVersion: gwops/v1`. */
function isManifestDocument(document: ParsedDocument): boolean {
  const value = document.value;
  return typeof value === 'object' && value !== null && !Array.isArray(value) && (value as Record<string, unknown>).apiVersion === API_VERSION;
}

/**
 * The documents of the files that are not content files (`named`), their parse diagnostics
 * appended to `out`. A file is either a manifest or a content file: a named file that the
 * manifest paths hold and that declares gwops documents (`apiVersion: gwops/v1`) is a
 * `content-is-manifest` error at the `fromFile` that names it, naming the first such
 * document with its file, line and column; its documents are read as manifests all the same,
 * so that none of them drops out of the desired state unnoticed.
 */
export function manifestsOf(files: readonly ParsedFile[], named: ReadonlyMap<string, ContentUse>, out: Diagnostic[]): ParsedDocument[] {
  const documents: ParsedDocument[] = [];
  for (const file of files) {
    const absolute = absoluteOf(file.source);
    const use = absolute === undefined ? undefined : named.get(absolute);
    if (use !== undefined) {
      const manifest = file.documents.find(isManifestDocument);
      if (manifest === undefined) continue;
      const value = manifest.value as Record<string, unknown>;
      const at = `${manifest.source.file}:${manifest.start.line}:${manifest.start.column}`;
      const declares = typeof value.kind === 'string' && typeof value.name === 'string' ? labelOf(value.kind, value.name) : 'a gwops document';
      const user = use.document.value as Record<string, unknown>;
      const owner = typeof user.kind === 'string' && typeof user.name === 'string' ? labelOf(user.kind, user.name) : 'a document';
      out.push(
        makeDiagnostic(use.document, {
          code: 'content-is-manifest',
          pointer: POINTER,
          message:
            `content of ${owner}: file '${use.given}' is a manifest too (${at} declares ${declares}) and the manifest paths read it; ` +
            'a file is either a manifest or a content file: name the specification file, or move it out of the manifest paths',
        }),
      );
    }
    out.push(...file.diagnostics);
    documents.push(...file.documents);
  }
  return documents;
}
