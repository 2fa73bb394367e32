/**
 * `gwops drift --adopt` (README.md "Drift"): brings what was changed on the gateway into
 * the manifests, so that Git matches the gateway and `plan` is empty afterwards.
 *
 * - `changed`: the live value of each drifted declared attribute is written into the
 *   document that declares the object, in place (edit.ts); a secret is never written (the
 *   difference is listed as not adopted).
 * - links added or deleted on the gateway: the name is added to, or removed from, the
 *   relationship list of the document that declares the relationship.
 * - `added`: each object becomes a new manifest file `<kind>/<name>.yaml` beside the first
 *   manifest path, written by `export`'s writer (src/export/write.ts); its secrets become
 *   `{ fromEnv }` references whose variables must be set before the next plan.
 * - `deleted`: only with `adoptDeletions`, the document is removed (the file when it held
 *   nothing else), and so are the links other documents declare to it.
 *
 * Ignored differences are left alone. Attributes an overlay of the target sets are written
 * into the base document; the overlay still wins, so such a difference stays.
 */
import { existsSync, statSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ApiResource, GatewaySession } from '../gateway/index.js';
import { ConfigError } from '../errors.js';
import { FILE_LIMITS, readTextBoundedAsync } from '../files.js';
import { buildDocuments } from '../export/build.js';
import { exportAttributes } from '../export/attributes.js';
import { manifestFiles } from '../export/write.js';
import type { ResourceType, Variant } from '../kinds/index.js';
import { KINDS, kindExistsIn, kindOf } from '../kinds/index.js';
import type { DriftEntry, DriftReport } from '../reconcile/drift-report.js';
import type { ObjectRef, State } from '../reconcile/model.js';
import type { DocumentEdit, DocumentRef } from './edit.js';
import { editManifestText } from './edit.js';

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

/** What {@link planAdoption} and {@link adoptDrift} read. */
export interface AdoptInput {
  readonly report: DriftReport;
  readonly desired: State;
  readonly live: State;
  readonly cwd: string;
  /** Remove the documents of objects deleted on the gateway. */
  readonly adoptDeletions: boolean;
}

interface FileEdit {
  readonly ref: DocumentRef;
  readonly edit: DocumentEdit;
}

function sourceFile(desired: State, ref: ObjectRef, cwd: string): string | undefined {
  const file = desired.objects.get(ref.kind)?.get(ref.name)?.source?.file;
  return file === undefined || file === '-' ? undefined : path.resolve(cwd, file);
}

function declares(desired: State, ref: ObjectRef, relationship: string): boolean {
  return (desired.declaredRelationships ?? []).some((d) => d.object.kind === ref.kind && d.object.name === ref.name && d.relationship === relationship);
}

function relatedOf(entry: DriftEntry): ObjectRef | undefined {
  const value = entry.direction === 'link-added' ? entry.live : entry.declared;
  if (typeof value === 'object' && value !== null && 'kind' in value && 'name' in value) {
    const { kind, name } = value as { kind: ResourceType; name: unknown };
    return typeof name === 'string' ? { kind, name } : undefined;
  }
  return undefined;
}

/**
 * The edits per manifest file (absolute path), and the differences that cannot be adopted
 * in place (pure apart from reading nothing: the files are edited by {@link adoptDrift}).
 */
export function planAdoption(input: AdoptInput): { edits: Map<string, FileEdit[]>; skipped: string[] } {
  const edits = new Map<string, FileEdit[]>();
  const skipped: string[] = [];
  const add = (file: string | undefined, ref: ObjectRef, edit: DocumentEdit, what: string): void => {
    if (file === undefined) {
      skipped.push(`${what}: the object is not declared in a manifest file`);
      return;
    }
    const list = edits.get(file) ?? [];
    list.push({ ref, edit });
    edits.set(file, list);
  };
  const linkEdit = (entry: DriftEntry, add_: boolean): void => {
    const related = relatedOf(entry);
    const relationship = entry.path?.replace(/^relationships\./, '') ?? '';
    const what = `${entry.kind} '${entry.name}' ${relationship} → ${related?.kind ?? ''} '${related?.name ?? ''}'`;
    const def = kindOf(entry.kind).relationships[relationship];
    if (!related || !def) {
      skipped.push(`${what}: unknown relationship`);
      return;
    }
    const inverse = kindOf(related.kind).relationships[def.inverse];
    const fromSide = declares(input.desired, entry, relationship);
    const toSide = inverse !== undefined && declares(input.desired, related, def.inverse);
    if (fromSide || (!toSide && sourceFile(input.desired, entry, input.cwd) !== undefined)) {
      add(sourceFile(input.desired, entry, input.cwd), entry, { type: 'link', relationship, target: related.name, add: add_, cardinality: def.cardinality }, what);
    }
    if (toSide && inverse) {
      add(sourceFile(input.desired, related, input.cwd), related, { type: 'link', relationship: def.inverse, target: entry.name, add: add_, cardinality: inverse.cardinality }, what);
    }
    if (!fromSide && !toSide && sourceFile(input.desired, entry, input.cwd) === undefined) skipped.push(`${what}: neither end is declared in a manifest file`);
  };
  for (const entry of input.report.entries) {
    const title = `${entry.kind} '${entry.name}'`;
    switch (entry.direction) {
      case 'changed':
        if (entry.sensitive) skipped.push(`${title} ${entry.path ?? ''}: a secret is never written into a manifest; update its source (environment variable or file) instead`);
        else add(sourceFile(input.desired, entry, input.cwd), entry, { type: 'attribute', path: entry.path ?? '', value: entry.live }, `${title} ${entry.path ?? ''}`);
        break;
      case 'link-added':
        linkEdit(entry, true);
        break;
      case 'link-deleted':
        linkEdit(entry, false);
        break;
      case 'deleted':
        if (!input.adoptDeletions) {
          skipped.push(`${title} was deleted on the gateway: kept in the manifests (--adopt-deletions removes it)`);
          break;
        }
        add(sourceFile(input.desired, entry, input.cwd), entry, { type: 'remove-document' }, title);
        for (const link of input.desired.links) {
          for (const [holder, other, relationship] of [
            [link.from, link.to, link.relationship],
            [link.to, link.from, kindOf(link.from.kind).relationships[link.relationship]?.inverse ?? ''],
          ] as const) {
            if (other.kind !== entry.kind || other.name !== entry.name || !declares(input.desired, holder, relationship)) continue;
            if (holder.kind === entry.kind && holder.name === entry.name) continue;
            const def = kindOf(holder.kind).relationships[relationship];
            if (def) add(sourceFile(input.desired, holder, input.cwd), holder, { type: 'link', relationship, target: entry.name, add: false, cardinality: def.cardinality }, title);
          }
        }
        break;
      case 'added':
        break; // new files: adoptDrift
    }
  }
  return { edits, skipped };
}

/** The directory new manifest files go to: the first manifest path (its directory when it is a file). */
export function adoptionDirectory(manifestPaths: readonly string[], cwd: string): string {
  const first = manifestPaths[0];
  if (first === undefined || first === '-') return cwd;
  const full = path.resolve(cwd, first);
  return existsSync(full) && statSync(full).isDirectory() ? full : path.dirname(full);
}

/**
 * Reads the objects added on the gateway in an open session (with the active configuration
 * loaded) and builds their manifest files with export's builder and writer.
 * @returns file path (relative to `dir`'s layout `<kind>/<name>.yaml`) → text, and the secret variables
 */
export async function addedObjectFiles(
  session: GatewaySession,
  added: readonly ObjectRef[],
  live: State,
  variant: Variant,
): Promise<{ files: Map<string, string>; variables: string[] }> {
  const wanted = new Map<ResourceType, Set<string>>(); // kind → ids
  for (const ref of added) {
    const id = live.objects.get(ref.kind)?.get(ref.name)?.id;
    if (id === undefined) continue;
    const ids = wanted.get(ref.kind) ?? new Set<string>();
    ids.add(id);
    wanted.set(ref.kind, ids);
  }
  if (wanted.size === 0) return { files: new Map(), variables: [] };
  const lists: Partial<Record<ResourceType, ApiResource[]>> = {};
  const nameOnly = new Set<string>();
  for (const kind of KINDS.filter((k) => kindExistsIn(k, variant))) {
    const ids = wanted.get(kind.type);
    const identity = kind.identity.attributes;
    lists[kind.type] = await session.list(kind.collection, [], {
      project: (resource) =>
        ids?.has(resource.id)
          ? { ...resource, attributes: exportAttributes(kind.type, resource.attributes, { variant, keepDefaults: false, unknown: () => undefined }) }
          : { ...resource, attributes: Object.fromEntries(identity.filter((a) => a in resource.attributes).map((a) => [a, resource.attributes[a]])) },
    });
    for (const r of lists[kind.type] ?? []) if (!ids?.has(r.id)) nameOnly.add(`${kind.type}\u0000${r.id}`);
  }
  const built = buildDocuments({ exported: [...wanted.keys()], lists, nameOnly });
  return { files: manifestFiles(built.documents, 'per-object'), variables: built.secrets.map((s) => s.variable) };
}

/**
 * Edits and writes the manifest files, and writes the new files of `addedFiles` under `dir`.
 * @throws ConfigError when a new file would overwrite an existing one, or a file cannot be written
 */
export async function adoptDrift(input: AdoptInput, dir: string, addedFiles: ReadonlyMap<string, string>, secretVariables: readonly string[]): Promise<AdoptResult> {
  const { edits, skipped } = planAdoption(input);
  const edited: string[] = [];
  const removed: string[] = [];
  const created: string[] = [];
  const rel = (file: string): string => path.relative(input.cwd, file) || file;
  for (const [file] of addedFiles) {
    if (existsSync(path.join(dir, file))) throw new ConfigError(`drift --adopt: ${rel(path.join(dir, file))} exists already; nothing was written`);
  }
  for (const [file, list] of edits) {
    const text = await readTextBoundedAsync(file, FILE_LIMITS.manifest);
    const result = editManifestText(text, list);
    for (const ref of result.notFound) skipped.push(`${ref.kind} '${ref.name}': no document with this kind and name in ${rel(file)} (declared through an overlay or a template?)`);
    if (result.text === '') {
      await rm(file);
      removed.push(rel(file));
    } else if (result.text !== text) {
      await writeFile(file, result.text);
      edited.push(rel(file));
    }
  }
  for (const [file, text] of addedFiles) {
    const full = path.join(dir, file);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, text, { flag: 'wx' }).catch((error: unknown) => {
      throw new ConfigError(`drift --adopt: cannot write ${rel(full)}`, { cause: error });
    });
    created.push(rel(full));
  }
  return { edited, created, removed, skipped, secretVariables };
}
