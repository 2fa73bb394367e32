/**
 * Where `gwops export` writes each file (src/export/write.ts writes them): the manifest
 * and content file of every document, named from the object's name, every file with one
 * owner (src/export/names.ts `FileNames`; docs/architecture.md "Writing files").
 */
import { dirname, join } from 'node:path';
import { escapeInvisible } from '../core/display.js';
import { kindOf } from '../kinds/index.js';
import type { ExportedDocument } from './build.js';
import { FileNames, escapeFileName, renamedFileText } from './names.js';
import type { ExportLayout } from './write.js';

/**
 * The file of a document's content, beside its manifest: `<name>.content.<extension>`, the
 * extension from the kind and the bytes (KindDefinition `contentExtension`); undefined
 * when the document has no content. The name wanted: {@link exportFiles} gives another
 * when it is taken.
 */
export function contentFileName(document: Pick<ExportedDocument, 'kind' | 'name' | 'content'>): string | undefined {
  const suffix = contentSuffix(document);
  return suffix === undefined ? undefined : `${escapeFileName(document.name)}${suffix}`;
}

/** `.content.<extension>` of a document with content, else undefined. */
export function contentSuffix(document: Pick<ExportedDocument, 'kind' | 'content'>): string | undefined {
  if (document.content === undefined) return undefined;
  return `.content.${kindOf(document.kind).contentExtension?.(document.content) ?? 'bin'}`;
}

/** A document as the owner of a file, for messages: `the manifest of mapping "shop"`. */
function ownerLabel(what: 'manifest' | 'content', document: Pick<ExportedDocument, 'kind' | 'name'>): string {
  return `the ${what} of ${document.kind} ${escapeInvisible(JSON.stringify(document.name))}`;
}

/** The files of an export, relative to the output directory ({@link exportFiles}). */
export interface ExportFiles {
  /** The manifest file of each document, in the order of the documents. */
  readonly manifests: readonly string[];
  /** The content file of each document (undefined: none), in the same order. */
  readonly contents: readonly (string | undefined)[];
  /** One line per file that got another name than the one wanted, and why. */
  readonly renamed: readonly string[];
}

/**
 * Where each document's manifest and content go, every file with one owner: per object
 * `<kind>/<name>.yaml` (per kind `<kind>.yaml`) and `<name>.content.<extension>` beside
 * it, names escaped by {@link escapeFileName}. A name that another file of the export has
 * already (on a file system that ignores case or Unicode normalisation too), or one longer
 * than a file name may be, gets another ({@link FileNames}); manifests are named before
 * content files, and `reserved` names (the project file and the secrets example when they go
 * into the output directory) are never given.
 */
export function exportFiles(documents: readonly ExportedDocument[], layout: ExportLayout, reserved: readonly string[] = []): ExportFiles {
  const names = new FileNames();
  for (const file of reserved) names.reserve('', file, { label: `the file ${file}` });
  const manifests = documents.map((document) => {
    if (layout === 'per-kind') {
      const file = manifestPath(document, layout);
      names.reserve('', file, { label: `the manifests of the ${document.kind}s` });
      return file;
    }
    names.reserve('', document.kind, { label: `the folder of the ${document.kind}s` });
    return `${document.kind}/${names.claim(document.kind, escapeFileName(document.name), '.yaml', { label: ownerLabel('manifest', document) })}`;
  });
  const contents = documents.map((document, i) => {
    const suffix = contentSuffix(document);
    if (suffix === undefined) return undefined;
    const folder = dirname(manifests[i] ?? '');
    const key = folder === '.' ? '' : folder;
    const file = names.claim(key, escapeFileName(document.name), suffix, { label: ownerLabel('content', document) });
    return key === '' ? file : `${key}/${file}`;
  });
  return { manifests, contents, renamed: names.renamed.map(renamedFileText) };
}

/** The file of `document`, relative to the output directory: `<kind>/<name>.yaml`, or `<kind>.yaml` per kind. */
export function manifestPath(document: Pick<ExportedDocument, 'kind' | 'name'>, layout: ExportLayout): string {
  return layout === 'per-kind' ? `${document.kind}.yaml` : join(document.kind, `${escapeFileName(document.name)}.yaml`);
}

