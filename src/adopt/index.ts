/**
 * `gwops drift --adopt` (README.md "Drift"): brings what was changed on the gateway into
 * the manifests, so that Git matches the gateway and `plan` is empty afterwards, and no
 * other target's plan changes.
 *
 * - changed attributes, links and (with `adoptDeletions`) deleted objects: plan.ts decides
 *   what goes into which document, edit.ts writes it in place;
 * - `added`: each object becomes a manifest written by `export`'s writer
 *   (src/export/write.ts), where the project reads it: added to the file of the declared
 *   objects it is most related to, else in a file of its own (new-object-files.ts); its
 *   secrets become `{ fromEnv }` references whose variables must be set before the next
 *   plan; a document's content (kinds with a content sub-resource) is written beside it as
 *   export writes it, `<name>.content.<extension>`, and declared with
 *   `content: { fromFile }`. In a project whose other targets read the same manifests it
 *   is not adopted (they would create it).
 *
 * Ignored differences are left alone.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import type { ApiResource, GatewaySession } from '../gateway/index.js';
import { ConfigError, WriteInterruptedError } from '../core/errors.js';
import { FILE_LIMITS, readTextBoundedAsync } from '../core/files.js';
import { buildDocuments, contentKey } from '../export/build.js';
import { exportAttributes } from '../export/attributes.js';
import { FileNames, escapeFileName } from '../export/names.js';
import { contentFileName, renderDocument } from '../export/write.js';
import { guardInterrupts, writeFileAtomic } from '../core/staged-files.js';
import type { ResourceType, Variant } from '../kinds/index.js';
import { KINDS, contentResourceOf, kindExistsIn, kindOf } from '../kinds/index.js';
import type { ObjectRef, State } from '../engine/model.js';
import { editManifestText, escapeStrings } from './edit.js';
import type { AdoptInput, OverlayDocument } from './plan.js';
import { planAdoption } from './plan.js';
import { otherReaders } from './placement.js';
import { placeNewObjects } from './new-object-files.js';

export type { AdoptInput } from './plan.js';
export { planAdoption } from './plan.js';

/** What adoption did, paths relative to `cwd`. */
export interface AdoptResult {
  /** Manifest files edited in place. */
  readonly edited: readonly string[];
  /** New manifest files (objects added on the gateway). */
  readonly created: readonly string[];
  /** Files removed (every document deleted on the gateway). */
  readonly removed: readonly string[];
  /** Differences not adopted, each with why. */
  readonly skipped: readonly string[];
  /** Environment variables the new files read secrets from. */
  readonly secretVariables: readonly string[];
}

/** One object added on the gateway as a manifest document. */
export interface AddedDocument {
  readonly kind: ResourceType;
  readonly name: string;
  /** The document's YAML text (export's writer). */
  readonly text: string;
  /** Its content (kinds with a content sub-resource): the file name beside the manifest that `text` declares as `fromFile`, and the bytes. */
  readonly content?: { readonly file: string; readonly data: Uint8Array };
  /** `text` with another content file named in `fromFile` (when the one in `content.file` is taken). */
  readonly render?: (contentFile: string) => string;
}

/**
 * Reads the objects added on the gateway in an open session (with the active configuration
 * loaded) and builds their manifest documents with export's builder and writer.
 * @returns the documents, and the secret variables they read
 */
export async function addedObjectDocuments(
  session: GatewaySession,
  added: readonly ObjectRef[],
  live: State,
  variant: Variant,
): Promise<{ documents: AddedDocument[]; variables: string[] }> {
  const wanted = new Map<ResourceType, Set<string>>(); // kind → ids
  for (const ref of added) {
    const id = live.objects.get(ref.kind)?.get(ref.name)?.id;
    if (id === undefined) continue;
    const ids = wanted.get(ref.kind) ?? new Set<string>();
    ids.add(id);
    wanted.set(ref.kind, ids);
  }
  if (wanted.size === 0) return { documents: [], variables: [] };
  const lists: Partial<Record<ResourceType, ApiResource[]>> = {};
  const nameOnly = new Set<string>();
  for (const kind of KINDS.filter((k) => kindExistsIn(k, variant))) {
    const ids = wanted.get(kind.type);
    const identity = kind.identity.attributes;
    // No link names a singleton: its one object is read only when it is adopted.
    if (kind.singleton && !ids) continue;
    const project = (resource: ApiResource): ApiResource =>
      ids?.has(resource.id)
        ? { ...resource, attributes: exportAttributes(kind.type, resource.attributes, { variant, keepDefaults: false, unknown: () => undefined }) }
        : { ...resource, attributes: Object.fromEntries(identity.filter((a) => a in resource.attributes).map((a) => [a, resource.attributes[a]])) };
    lists[kind.type] = kind.singleton ? [project(await session.readSingleton(kind.singleton.path))] : await session.list(kind.collection, [], { project });
    for (const r of lists[kind.type] ?? []) if (!ids?.has(r.id)) nameOnly.add(`${kind.type}\u0000${r.id}`);
  }
  // The content of each added document, written beside its manifest (docs/manifest-reference.md "Document content").
  const contents = new Map<string, Uint8Array>();
  for (const [kind, ids] of wanted) {
    if (kindOf(kind).content !== true) continue;
    const resource = contentResourceOf(kindOf(kind));
    for (const id of ids) {
      const bytes = await session.readContent(kindOf(kind).collection, id, { kind, name: nameOf(live, kind, id) }, resource);
      // An optional content an object does not have (a virtual host without a revocation list) is no file.
      if (resource.optional !== true || bytes.length > 0) contents.set(contentKey(kind, id), bytes);
    }
  }
  const built = buildDocuments({ exported: [...wanted.keys()], lists, nameOnly, contents });
  return {
    documents: built.documents.map((d) => {
      const file = contentFileName(d);
      return {
        kind: d.kind,
        name: d.name,
        text: renderDocument(d),
        ...(file !== undefined && d.content !== undefined ? { content: { file, data: d.content }, render: (contentFile: string) => renderDocument(d, contentFile) } : {}),
      };
    }),
    variables: built.secrets.map((s) => s.variable),
  };
}

/** The name of the live object of `kind` with `id` (the id when none has it). */
function nameOf(live: State, kind: ResourceType, id: string): string {
  for (const object of live.objects.get(kind)?.values() ?? []) if (object.id === id) return object.name;
  return id;
}

/** An overlay document (JSON merge patch) as YAML text. */
function overlayText(doc: OverlayDocument): string {
  const value: Record<string, unknown> = { kind: doc.kind, name: doc.name };
  if (Object.keys(doc.attributes).length > 0) value.attributes = escapeStrings(doc.attributes);
  if (Object.keys(doc.relationships).length > 0) value.relationships = doc.relationships;
  return stringify(value, { lineWidth: 0 });
}

/** `text` with `documents` added at its end, each after a `---` line. */
function appended(text: string, documents: readonly string[]): string {
  if (documents.length === 0) return text;
  const body = documents.join('---\n');
  if (text.trim() === '') return body;
  return `${text}${text.endsWith('\n') ? '' : '\n'}---\n${body}`;
}

/**
 * Edits and writes the manifest and overlay files, and writes the objects added on the
 * gateway where the project reads them (new-object-files.ts `placeNewObjects`).
 * @param manifestPaths the manifest paths the run read
 * @throws ConfigError when a file cannot be written
 */
export async function adoptDrift(input: AdoptInput, manifestPaths: readonly string[], added: readonly AddedDocument[], secretVariables: readonly string[]): Promise<AdoptResult> {
  const { edits, overlays, contents, skipped } = planAdoption(input);
  const edited: string[] = [];
  const removed: string[] = [];
  const created: string[] = [];
  const rel = (file: string): string => path.relative(input.cwd, file) || file;
  const appends = new Map<string, string[]>();
  const newContents = new Set<string>();
  for (const [file, docs] of overlays) {
    // An overlay that would change nothing (every change to it was skipped) is not written: it would not validate.
    const changing = docs.filter((d) => Object.keys(d.attributes).length > 0 || Object.keys(d.relationships).length > 0);
    if (changing.length > 0) appends.set(file, changing.map(overlayText));
  }
  const baseReaders = otherReaders(input, path.resolve(input.cwd, manifestPaths[0] ?? '.'), true);
  // Every file written has one owner: the names in each folder, those on disk and those this run writes (src/export/names.ts).
  const names = new FileNames();
  const seen = new Set<string>();
  const seed = (dir: string): void => {
    if (seen.has(dir)) return;
    seen.add(dir);
    let entries: string[] = [];
    try {
      entries = readdirSync(dir);
    } catch {
      // a folder that does not exist yet holds nothing
    }
    for (const entry of entries) names.reserve(dir, entry, { label: 'a file that is there already' });
  };
  const folders = manifestPaths
    .filter((p) => p !== '-')
    .map((p) => path.resolve(input.cwd, p))
    .filter((p) => existsSync(p) && statSync(p).isDirectory());
  const placements = placeNewObjects({ added, desired: input.desired, live: input.live, folders, cwd: input.cwd });
  for (const doc of added) {
    if (baseReaders.length > 0) {
      skipped.push(`${doc.kind} '${doc.name}' was added on the gateway: not adopted, the manifests are read by target${baseReaders.length === 1 ? '' : 's'} ${baseReaders.join(', ')} too (they would create it)`);
      continue;
    }
    const placement = placements.get(`${doc.kind}\u0000${doc.name}`);
    if (placement === undefined || placement.type === 'none') {
      skipped.push(`${doc.kind} '${doc.name}' was added on the gateway: not adopted, ${placement?.why ?? 'no place was found for it'}`);
      continue;
    }
    let file: string;
    if (placement.type === 'own') {
      // A file of its own, named as export names it; a name taken on disk or by this run is never written over.
      seed(placement.folder);
      file = path.join(placement.folder, names.claim(placement.folder, escapeFileName(doc.name), '.yaml', { label: `the manifest of ${doc.kind} ${JSON.stringify(doc.name)}` }));
    } else file = placement.file;
    const dir = path.dirname(file);
    seed(dir);
    let text = doc.text;
    if (doc.content) {
      // Beside the manifest, where its `fromFile` points; a file already there, or written by this run, keeps its owner.
      const stem = escapeFileName(doc.name);
      const suffix = doc.content.file.startsWith(stem) ? doc.content.file.slice(stem.length) : '.content';
      const given = names.claim(dir, stem, suffix, { label: `the content of ${doc.kind} ${JSON.stringify(doc.name)}` });
      if (given !== doc.content.file) text = doc.render?.(given) ?? text;
      const contentFile = path.join(dir, given);
      contents.set(contentFile, Buffer.from(doc.content.data));
      newContents.add(contentFile);
    }
    appends.set(file, [...(appends.get(file) ?? []), text]);
  }
  // Signals are held until every file is written: an interruption never leaves some files adopted and others not.
  const held = guardInterrupts('the adopted manifests');
  const files = new Set([...edits.keys(), ...appends.keys()]);
  for (const file of files) {
    const exists = existsSync(file);
    const text = exists ? await readTextBoundedAsync(file, FILE_LIMITS.manifest) : '';
    const result = editManifestText(text, edits.get(file) ?? []);
    for (const ref of result.notFound) skipped.push(`${ref.kind} '${ref.name}': no document with this kind and name in ${rel(file)}`);
    for (const item of result.unwritable) skipped.push(`${(edits.get(file) ?? []).find((e) => e.edit === item.edit)?.what ?? `${item.ref.kind} '${item.ref.name}'`}: cannot be written in place in ${rel(file)}`);
    const next = appended(result.text, appends.get(file) ?? []);
    if (next === text) continue;
    try {
      if (next === '') {
        await rm(file);
        removed.push(rel(file));
        continue;
      }
      await mkdir(path.dirname(file), { recursive: true });
      // Temp file and rename: an interruption leaves the old text or the new one, never a part.
      await writeFileAtomic(file, next);
    } catch (error) {
      throw new ConfigError(`drift --adopt: cannot write ${rel(file)}`, { cause: error });
    }
    (exists ? edited : created).push(rel(file));
  }
  for (const [file, data] of contents) {
    try {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFileAtomic(file, data);
    } catch (error) {
      throw new ConfigError(`drift --adopt: cannot write ${rel(file)}`, { cause: error });
    }
    (newContents.has(file) ? created : edited).push(rel(file));
  }
  held.release();
  if (held.signal !== undefined) throw new WriteInterruptedError(held.signal, 'complete', 'the adopted manifests');
  return { edited, created, removed, skipped, secretVariables };
}
