/**
 * What `drift --adopt` writes where (README.md "Drift"), as data: the edits per manifest
 * or overlay file, the overlay documents to add, and the differences it does not adopt,
 * each with why. Pure: the files are read and written by index.ts.
 *
 * - `changed`: the smallest changes from the declared value to the live one
 *   (leaf-changes.ts), each written into the document in force for it (placement.ts); a
 *   secret is never written.
 * - links added or deleted on the gateway: the name is added to, or removed from, the
 *   relationship list of the document that declares the relationship.
 * - `deleted`: only with `adoptDeletions`, the document is removed, with the target's
 *   overlays of it and the links other documents declare to it.
 */
import { hasUrlCredentials, isUrlPath } from '../schema/urls.js';
import type { ResourceType } from '../kinds/index.js';
import { kindOf } from '../kinds/index.js';
import type { ObjectOrigins } from '../manifest/index.js';
import { NO_PUBLIC_KEYS, isPlainObject, isSecretPath } from '../engine/diff.js';
import type { PublicKeyTools } from '../crypto/port.js';
import type { DriftEntry, DriftReport } from '../engine/drift-report.js';
import type { ObjectRef, State } from '../engine/model.js';
import { declaredRelationshipsOf } from '../engine/model.js';
import type { DocumentEdit, DocumentRef } from './edit.js';
import type { LeafChange } from './leaf-changes.js';
import { applyLeafChanges, leafChanges, valueAt } from './leaf-changes.js';
import type { TargetContext } from './placement.js';
import { absoluteFile, currentOverlays, deepestHolder, heldLength, holderOf, otherReaders, writablePrefix } from './placement.js';
import { ownMember, setOwnMember } from '../core/own-member.js';

/** What {@link planAdoption} reads. */
export interface AdoptInput extends TargetContext {
  readonly report: DriftReport;
  readonly desired: State;
  readonly live: State;
  /** Where each object's declaration was read from (the loader's `origins`). */
  readonly origins: (kind: ResourceType, name: string) => ObjectOrigins | undefined;
  /** Remove the documents of objects deleted on the gateway. */
  readonly adoptDeletions: boolean;
  /** Reads public keys, which compare by RFC 7638 thumbprint (src/jwks/node-keys.ts); absent, none is read. */
  readonly publicKeys?: PublicKeyTools | undefined;
}

/** One edit of one document of a file. */
export interface FileEdit {
  readonly ref: DocumentRef;
  readonly edit: DocumentEdit;
  /** The difference it adopts, for the list of what was not adopted when the edit cannot be written. */
  readonly what: string;
}

/** A new overlay document: a JSON merge patch of one object. */
export interface OverlayDocument {
  readonly kind: ResourceType;
  readonly name: string;
  readonly attributes: Record<string, unknown>;
  readonly relationships: Record<string, string | string[]>;
}

/** Result of {@link planAdoption}. */
export interface AdoptionPlan {
  /** Edits by absolute file path, in the order to apply them. */
  readonly edits: Map<string, FileEdit[]>;
  /** New overlay documents by absolute file path (added at the end; the file is created when missing). */
  readonly overlays: Map<string, OverlayDocument[]>;
  /**
   * Content files to write with the live bytes, by absolute path: the `fromFile` of each
   * document whose content changed on the gateway (docs/manifest-reference.md "Document content").
   */
  readonly contents: Map<string, Buffer>;
  readonly skipped: string[];
}

const key = (ref: ObjectRef): string => `${ref.kind}\u0000${ref.name}`;

function declares(desired: State, ref: ObjectRef, relationship: string): boolean {
  return declaredRelationshipsOf(desired)(ref, relationship);
}

function relatedOf(entry: DriftEntry): ObjectRef | undefined {
  const value = entry.direction === 'link-added' ? entry.live : entry.declared;
  if (typeof value === 'object' && value !== null && 'kind' in value && 'name' in value) {
    const { kind, name } = value as { kind: ResourceType; name: unknown };
    return typeof name === 'string' ? { kind, name } : undefined;
  }
  return undefined;
}

/** The names `ref` links to under `relationship` in the desired state (from either side's declaration). */
function linkedNames(desired: State, ref: ObjectRef, relationship: string): string[] {
  const names: string[] = [];
  for (const link of desired.links) {
    if (link.from.kind === ref.kind && link.from.name === ref.name && link.relationship === relationship) names.push(link.to.name);
    else if (link.to.kind === ref.kind && link.to.name === ref.name && kindOf(link.from.kind).relationships[link.relationship]?.inverse === relationship) names.push(link.from.name);
  }
  return names;
}

/**
 * True when a secret attribute lies at or under `segments` of `value` (written at `segments`),
 * or a URL with a user name or password (masked in live state: a manifest may not hold one).
 */
function holdsSecret(kind: ResourceType, segments: readonly string[], value: unknown): boolean {
  if (isSecretPath(kind, segments)) return true;
  if (typeof value === 'string' && hasUrlCredentials(value) && isUrlPath(kind, segments)) return true;
  if (Array.isArray(value)) return value.some((v, i) => holdsSecret(kind, [...segments, String(i)], v));
  if (isPlainObject(value)) return Object.entries(value).some(([k, v]) => holdsSecret(kind, [...segments, k], v));
  return false;
}

/** Builds the adoption plan; the caller applies it. */
export function planAdoption(input: AdoptInput): AdoptionPlan {
  const edits = new Map<string, FileEdit[]>();
  const overlays = new Map<string, OverlayDocument[]>();
  const skipped: string[] = [];
  const abs = (file: string): string => absoluteFile(input, file);
  const edit = (file: string, ref: ObjectRef, documentEdit: DocumentEdit, what: string): void => {
    const list = edits.get(file) ?? [];
    // Where the document starts in that file: it is found there whatever its name is written as.
    const origins = input.origins(ref.kind, ref.name);
    const line = origins && [origins.base, ...origins.overlays].find((o) => o.file !== '-' && abs(o.file) === file)?.line;
    list.push({ ref: { kind: ref.kind, name: ref.name, ...(line !== undefined ? { line } : {}) }, edit: documentEdit, what });
    edits.set(file, list);
  };
  /** The current target's overlay document for `ref` that this run may write (an existing merge patch, else a new one), or why not. */
  const overlayFor = (ref: ObjectRef, origins: ObjectOrigins): { file: string; existing: boolean } | { refused: string } => {
    const own = origins.overlays.find((o) => o.form === 'merge-patch' && otherReaders(input, abs(o.file), false).length === 0);
    if (own) return { file: abs(own.file), existing: true };
    const first = currentOverlays(input)[0];
    const readers = otherReaders(input, abs(origins.base.file), true);
    if (first === undefined || input.current === undefined) {
      return { refused: `${origins.base.file} is read by target${readers.length === 1 ? '' : 's'} ${readers.join(', ')} too; ${input.current === undefined ? 'run drift with --target' : `give target ${input.current} an overlay directory`} to adopt into an overlay` };
    }
    const file = /\.ya?ml$/.test(first) ? first : `${first}/${ref.kind}/${ref.name}.yaml`;
    if (otherReaders(input, file, false).length > 0) return { refused: `the overlay ${first} of target ${input.current} is read by other targets too` };
    return { file, existing: false };
  };
  const newOverlay = (file: string, ref: ObjectRef): OverlayDocument => {
    const list = overlays.get(file) ?? [];
    let doc = list.find((d) => d.kind === ref.kind && d.name === ref.name);
    if (!doc) list.push((doc = { kind: ref.kind, name: ref.name, attributes: {}, relationships: {} }));
    overlays.set(file, list);
    return doc;
  };

  // Changed content: the live bytes into the file the manifest names.
  const contents = new Map<string, Buffer>();
  for (const entry of input.report.entries) {
    if (entry.direction !== 'changed' || entry.path !== 'content') continue;
    const file = input.desired.objects.get(entry.kind)?.get(entry.name)?.content?.file;
    const live = input.live.objects.get(entry.kind)?.get(entry.name)?.content;
    const origins = input.origins(entry.kind, entry.name);
    const readers = origins ? otherReaders(input, abs(origins.base.file), true) : [];
    const title = `${entry.kind} '${entry.name}' content`;
    if (file === undefined || live === undefined) skipped.push(`${title}: the content file or the live content is unknown`);
    else if (readers.length > 0) skipped.push(`${title}: its file is read by target${readers.length === 1 ? '' : 's'} ${readers.join(', ')} too`);
    else contents.set(file, Buffer.from(live.base64, 'base64'));
  }

  // Changed attributes, per object: the smallest changes, each into the document in force for it.
  const changed = new Map<string, { ref: ObjectRef; entries: DriftEntry[] }>();
  for (const entry of input.report.entries) {
    if (entry.direction !== 'changed' || entry.path === 'content') continue;
    const title = `${entry.kind} '${entry.name}' ${entry.path ?? ''}`;
    if (entry.sensitive) skipped.push(`${title}: a secret is never written into a manifest; update its source (environment variable or file) instead`);
    else changed.set(key(entry), { ref: entry, entries: [...(changed.get(key(entry))?.entries ?? []), entry] });
  }
  for (const { ref, entries } of changed.values()) {
    const origins = input.origins(ref.kind, ref.name);
    const title = `${ref.kind} '${ref.name}'`;
    if (!origins || origins.base.file === '-') {
      skipped.push(`${title}: the object is not declared in a manifest file`);
      continue;
    }
    const declared = input.desired.objects.get(ref.kind)?.get(ref.name)?.attributes ?? {};
    const changes: LeafChange[] = entries.flatMap((e) => {
      const segments = (e.path ?? '').split('.');
      return leafChanges(ref.kind, segments, valueAt(declared, segments), e.live, input.publicKeys ?? NO_PUBLIC_KEYS);
    });
    const after = applyLeafChanges(declared, changes);
    for (const change of changes) {
      const what = `${title} ${change.path.join('.')}`;
      const found = deepestHolder(origins, ['attributes'], change.path);
      const holder = found.holder;
      let file: string;
      let held: number;
      let mapTo: (segments: readonly string[]) => readonly string[] | undefined;
      let newDoc: OverlayDocument | undefined;
      if (holder && !holder.base) {
        const readers = otherReaders(input, abs(holder.origin.file), false);
        if (readers.length > 0) {
          skipped.push(`${what}: set by the overlay ${holder.origin.file}, which target${readers.length === 1 ? '' : 's'} ${readers.join(', ')} read${readers.length === 1 ? 's' : ''} too`);
          continue;
        }
        file = abs(holder.origin.file);
        held = found.length;
        const origin = holder.origin;
        mapTo = (segments) => {
          const at = origin.locate(['attributes', ...segments.slice(0, held)]);
          // A JSON Patch operation holds a value only under `patch.<i>.value`.
          if (!at || (origin.form === 'json-patch' && at[2] !== 'value')) return undefined;
          return [...at, ...segments.slice(held)];
        };
      } else if (otherReaders(input, abs(origins.base.file), true).length === 0) {
        file = abs(origins.base.file);
        held = heldLength(origins.base, ['attributes'], change.path);
        mapTo = (segments) => ['attributes', ...segments];
      } else {
        const overlay = overlayFor(ref, origins);
        if ('refused' in overlay) {
          skipped.push(`${what}: ${overlay.refused}`);
          continue;
        }
        file = overlay.file;
        const existing = overlay.existing ? origins.overlays.find((o) => abs(o.file) === overlay.file) : undefined;
        held = existing ? heldLength(existing, ['attributes'], change.path) : 0;
        mapTo = (segments) => ['attributes', ...segments];
        if (!overlay.existing) newDoc = newOverlay(file, ref);
      }
      if (change.op === 'delete') {
        // A new overlay is a merge patch, which holds lists whole: an item removed from a list
        // is adopted as the list as it is live (written below), not as a removal.
        const wholeList = newDoc !== undefined && writablePrefix(change.path, 0) < change.path.length;
        if (!wholeList && (held < change.path.length || newDoc)) {
          skipped.push(`${what}: removed on the gateway, but inherited from a template or the base; remove it there by hand`);
          continue;
        }
      }
      const cut = change.op === 'delete' ? change.path.length : writablePrefix(change.path, held);
      const segments = change.path.slice(0, cut);
      const value = cut === change.path.length && change.op === 'set' ? change.value : valueAt(after, segments);
      if (holdsSecret(ref.kind, segments, value)) {
        skipped.push(`${what}: the value written would hold a secret; adopt it by hand`);
        continue;
      }
      if (newDoc) {
        const cutTop = writablePrefix(change.path, 0);
        setNested(newDoc.attributes, change.path.slice(0, cutTop), valueAt(after, change.path.slice(0, cutTop)));
        continue;
      }
      const at = mapTo(segments);
      if (!at) {
        skipped.push(`${what}: set by a JSON Patch operation without a value; adopt it by hand`);
        continue;
      }
      edit(file, ref, change.op === 'delete' ? { type: 'delete', path: at } : { type: 'set', path: at, value }, what);
    }
  }
  return planLinksAndDeletions(input, { edits, overlays, contents, skipped }, { edit, overlayFor, newOverlay });
}

function setNested(root: Record<string, unknown>, segments: readonly string[], value: unknown): void {
  let node = root;
  segments.forEach((segment, i) => {
    // Segments are data (a sub-resource key is an object name, `__proto__` included).
    if (i === segments.length - 1) setOwnMember(node, segment, structuredClone(value));
    else {
      const next = ownMember(node, segment);
      if (isPlainObject(next)) node = next;
      else {
        const created: Record<string, unknown> = {};
        setOwnMember(node, segment, created);
        node = created;
      }
    }
  });
}

interface Writers {
  edit(file: string, ref: ObjectRef, documentEdit: DocumentEdit, what: string): void;
  overlayFor(ref: ObjectRef, origins: ObjectOrigins): { file: string; existing: boolean } | { refused: string };
  newOverlay(file: string, ref: ObjectRef): OverlayDocument;
}

function planLinksAndDeletions(input: AdoptInput, plan: AdoptionPlan, writers: Writers): AdoptionPlan {
  const abs = (file: string): string => absoluteFile(input, file);
  // Names of a relationship written whole into an overlay: one set per relationship, after every link change.
  const wholeLists = new Map<string, { ref: ObjectRef; relationship: string; names: string[]; cardinality: 'one' | 'many'; write: (names: string[]) => void }>();
  const linkEdit = (holderRef: ObjectRef, relationship: string, target: string, add: boolean, what: string): void => {
    const def = kindOf(holderRef.kind).relationships[relationship];
    const origins = input.origins(holderRef.kind, holderRef.name);
    if (!def || !origins || origins.base.file === '-') {
      plan.skipped.push(`${what}: ${def ? 'the object is not declared in a manifest file' : 'unknown relationship'}`);
      return;
    }
    const documentEdit: DocumentEdit = { type: 'link', relationship, target, add, cardinality: def.cardinality };
    const holder = holderOf(origins, ['relationships', relationship]);
    if (holder && !holder.base) {
      const readers = otherReaders(input, abs(holder.origin.file), false);
      if (readers.length > 0 || holder.origin.form !== 'merge-patch') {
        plan.skipped.push(`${what}: set by the overlay ${holder.origin.file}${readers.length > 0 ? `, which ${readers.join(', ')} read too` : ' as a JSON Patch'}; adopt it by hand`);
        return;
      }
      writers.edit(abs(holder.origin.file), holderRef, documentEdit, what);
      return;
    }
    if (otherReaders(input, abs(origins.base.file), true).length === 0) {
      writers.edit(abs(origins.base.file), holderRef, documentEdit, what);
      return;
    }
    const overlay = writers.overlayFor(holderRef, origins);
    if ('refused' in overlay) {
      plan.skipped.push(`${what}: ${overlay.refused}`);
      return;
    }
    const listKey = `${key(holderRef)}\u0000${relationship}`;
    let whole = wholeLists.get(listKey);
    if (!whole) {
      const write = overlay.existing
        ? (names: string[]): void =>
            writers.edit(overlay.file, holderRef, { type: 'set', path: ['relationships', relationship], value: def.cardinality === 'one' ? (names[0] ?? null) : names }, what)
        : (names: string[]): void => {
            writers.newOverlay(overlay.file, holderRef).relationships[relationship] = def.cardinality === 'one' ? (names[0] ?? '') : names;
          };
      whole = { ref: holderRef, relationship, names: linkedNames(input.desired, holderRef, relationship), cardinality: def.cardinality, write };
      wholeLists.set(listKey, whole);
    }
    whole.names = add ? [...whole.names.filter((n) => n !== target), target] : whole.names.filter((n) => n !== target);
    if (def.cardinality === 'one' && add) whole.names = [target];
  };
  for (const entry of input.report.entries) {
    const title = `${entry.kind} '${entry.name}'`;
    if (entry.direction === 'link-added' || entry.direction === 'link-deleted') {
      const add = entry.direction === 'link-added';
      const related = relatedOf(entry);
      const relationship = entry.path?.replace(/^relationships\./, '') ?? '';
      const what = `${title} ${relationship} → ${related?.kind ?? ''} '${related?.name ?? ''}'`;
      const def = kindOf(entry.kind).relationships[relationship];
      if (!related || !def) {
        plan.skipped.push(`${what}: unknown relationship`);
        continue;
      }
      const fromSide = declares(input.desired, entry, relationship);
      const toSide = kindOf(related.kind).relationships[def.inverse] !== undefined && declares(input.desired, related, def.inverse);
      if (fromSide || !toSide) linkEdit(entry, relationship, related.name, add, what);
      if (toSide) linkEdit(related, def.inverse, entry.name, add, what);
    } else if (entry.direction === 'deleted') {
      if (!input.adoptDeletions) {
        plan.skipped.push(`${title} was deleted on the gateway: kept in the manifests (--adopt-deletions removes it)`);
        continue;
      }
      const origins = input.origins(entry.kind, entry.name);
      if (!origins || origins.base.file === '-') {
        plan.skipped.push(`${title}: the object is not declared in a manifest file`);
        continue;
      }
      const readers = otherReaders(input, abs(origins.base.file), true);
      if (readers.length > 0) {
        plan.skipped.push(`${title} was deleted on the gateway: kept, ${origins.base.file} is read by target${readers.length === 1 ? '' : 's'} ${readers.join(', ')} too`);
        continue;
      }
      writers.edit(abs(origins.base.file), entry, { type: 'remove-document' }, title);
      for (const overlay of origins.overlays) writers.edit(abs(overlay.file), entry, { type: 'remove-document' }, title);
      for (const link of input.desired.links) {
        for (const [holder, other, relationship] of [
          [link.from, link.to, link.relationship],
          [link.to, link.from, kindOf(link.from.kind).relationships[link.relationship]?.inverse ?? ''],
        ] as const) {
          if (other.kind !== entry.kind || other.name !== entry.name || !declares(input.desired, holder, relationship)) continue;
          if (holder.kind === entry.kind && holder.name === entry.name) continue;
          linkEdit(holder, relationship, entry.name, false, title);
        }
      }
    }
  }
  for (const whole of wholeLists.values()) whole.write(whole.names);
  return plan;
}
