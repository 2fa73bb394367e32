/**
 * Desired state: the resolved manifest documents built into the state model (model.ts),
 * the same model live state is built into (docs/architecture.md "Habits").
 */
import { kindOf } from '../kinds/index.js';
import type { ResourceType } from '../kinds/index.js';
import type { Diagnostic, ReconcileDiagnosticCode } from '../core/diagnostics.js';
import { objectDiagnostic } from '../core/diagnostics.js';
import type { ManifestDocument, SourceLocation } from '../manifest/types.js';
import type { ObjectKey } from '../core/object-key.js';
import { objectKey } from '../core/object-key.js';
import type { DeclaredKey, DeclaredRelationship, Link, LinkKey, ObjectRef, State, StateObject } from './model.js';
import { canonicalLink, declaredKey, emptyObjectMaps, linkDefinition, linkKey, recordLinkKeys, relationshipDefinition } from './model.js';
import { DesiredStateError } from './errors.js';

/** A `DesiredStateError` diagnostic about `object`, at the document that declares it. */
function problem(code: ReconcileDiagnosticCode, object: ObjectRef, source: SourceLocation | undefined, detail: string): Diagnostic {
  return objectDiagnostic({ code, object, source, message: `${object.kind} '${object.name}' ${detail}` });
}

/**
 * Builds the desired state from resolved manifest documents.
 *
 * - Objects keep exactly the declared attributes (not copied deeply: treat as read-only).
 * - Objects of kinds whose identity is not the name get `identityKey` from their kind's
 *   `identity.declared` hook (a certificate: the SHA-256 fingerprint of its PEM).
 * - Links are the union of both sides' declarations, each stored once in the canonical
 *   direction (kind registry); `declaredRelationships` lists every (object, relationship)
 *   key a document declares, even with an empty list (then it means "no links").
 *
 * @throws DesiredStateError (all problems at once, as diagnostics) for duplicate objects
 *   (`duplicate-object`), two objects with the same identity key (`duplicate-identity`: two
 *   certificates with the same PEM), an object whose attributes give no identity key
 *   (`missing-identity`: a certificate without a PEM `certificate`), a relationship gwops
 *   does not know (`unknown-relationship`), or a to-one relationship given more than one
 *   target (`to-one-list` by one side's declaration, `conflicting-link` by both sides').
 */
export function desiredState(documents: readonly ManifestDocument[]): State {
  const objects = emptyObjectMaps();
  const problems: Diagnostic[] = [];
  const handles: IdentityHandles = new Map();
  // Links in first-declared order, deduplicated by key (a link declared on both sides is one link).
  const linkKeys = new Set<LinkKey>();
  const links: Link[] = [];
  const linkDocs: SourceLocation[] = [];
  // Each (object, relationship) once: objects are unique per kind (duplicates are skipped),
  // so only a document naming one relationship twice (by an alias) repeats one.
  const declared: DeclaredRelationship[] = [];
  const linkSources = new Map<LinkKey, SourceLocation>();

  for (const doc of documents) {
    const ref: ObjectRef = { kind: doc.kind, name: doc.name };
    const byName = objects.get(doc.kind);
    if (!byName) continue;
    const previous = byName.get(doc.name);
    if (previous) {
      problems.push(problem('duplicate-object', ref, doc.source, `is declared twice (also at ${where(previous.source)}): names must be unique per kind`));
      continue;
    }
    // Built by assignment: three conditional spreads per document cost more than the rest of this loop.
    const object: { -readonly [K in keyof StateObject]: StateObject[K] } = { kind: doc.kind, name: doc.name, attributes: doc.attributes, source: doc.source };
    if (doc.secretVersions) object.secretVersions = doc.secretVersions;
    if (doc.referenceSources) object.referenceSources = doc.referenceSources;
    if (doc.content) object.content = doc.content;
    const identity = kindOf(doc.kind).identity;
    const key = identity.declared(doc.attributes);
    if (key !== undefined) {
      if ('problem' in key) {
        problems.push(problem('missing-identity', ref, doc.source, `has no identity: ${key.problem}`));
        continue;
      }
      const twin = handles.get(objectKey(doc.kind, key.key));
      if (twin !== undefined) {
        problems.push(problem('duplicate-identity', ref, doc.source, `has the same ${identity.attributes.join(' and ')} as ${doc.kind} '${twin}': declare each object once`));
        continue;
      }
      handles.set(objectKey(doc.kind, key.key), doc.name);
      object.identityKey = key.key;
    }
    byName.set(doc.name, object);

    const declaredHere = declared.length;
    for (const [relationship, targets] of Object.entries(doc.relationships)) {
      const def = relationshipDefinition(doc.kind, relationship);
      if (!def) {
        problems.push(problem('unknown-relationship', ref, doc.source, `declares the unknown relationship '${relationship}'`));
        continue;
      }
      if (!declaredSince(declared, declaredHere, def.name)) declared.push({ object: ref, relationship: def.name });
      if (def.cardinality === 'one' && targets.length > 1) {
        problems.push(problem('to-one-list', ref, doc.source, `lists ${targets.length} targets in relationship '${def.name}', which takes one ${def.target}: name one`));
        continue;
      }
      for (const target of targets) {
        const link = canonicalLink(ref, def, target);
        const key = linkKey(link);
        const known = linkKeys.size;
        if (linkKeys.add(key).size > known) {
          links.push(link);
          linkDocs.push(doc.source);
        }
        const written = doc.linkSources?.[relationship]?.[target];
        if (written && !linkSources.has(key)) linkSources.set(key, written);
      }
    }
  }

  problems.push(...toOneConflicts(links, linkDocs));
  if (problems.length > 0) throw new DesiredStateError(problems);
  return {
    objects,
    links: recordLinkKeys(links, [...linkKeys], linkKeys),
    declaredRelationships: declared,
    ...(linkSources.size > 0 ? { linkSources } : {}),
  };
}

/** True when `declared` holds `relationship` at or after index `from`. */
function declaredSince(declared: readonly DeclaredRelationship[], from: number, relationship: string): boolean {
  for (let i = from; i < declared.length; i++) if (declared[i]?.relationship === relationship) return true;
  return false;
}

/** Links that give one object's to-one relationship two different targets (declared on different sides). */
function toOneConflicts(links: readonly Link[], sources: readonly SourceLocation[]): Diagnostic[] {
  const seen = new Map<DeclaredKey, Link>();
  const problems: Diagnostic[] = [];
  for (const [i, link] of links.entries()) {
    const source = sources[i];
    if (linkDefinition(link).cardinality !== 'one') continue;
    const key = declaredKey(link.from, link.relationship);
    const other = seen.get(key);
    if (other) {
      problems.push(
        problem('conflicting-link', link.from, source, `has two targets in relationship '${link.relationship}', '${other.to.name}' and '${link.to.name}' (declared on both sides): keep one`),
      );
    } else seen.set(key, link);
  }
  return problems;
}

function where(source: SourceLocation | undefined): string {
  return source ? `${source.file}:${source.line}` : 'another document';
}

/** Desired names by kind and identity key, for objects whose identity is not the name. */
export type IdentityHandles = Map<ObjectKey<ResourceType>, string>;

/**
 * The names of the desired objects whose identity is not the name, by kind and identity
 * key (`objectKey(kind, identityKey)`): the argument `liveState` needs to name such live
 * objects (certificates) like the manifests do.
 */
export function identityHandles(desired: Pick<State, 'objects'>): IdentityHandles {
  const handles: IdentityHandles = new Map();
  for (const [kind, objects] of desired.objects) {
    for (const object of objects.values()) if (object.identityKey !== undefined) handles.set(objectKey(kind, object.identityKey), object.name);
  }
  return handles;
}

