/**
 * Desired state: the resolved manifest documents built into the state model (model.ts),
 * the same model live state is built into (docs/architecture.md "Habits").
 */
import type { ManifestDocument, SourceLocation } from '../manifest/types.js';
import type { DeclaredRelationship, Link, ObjectRef, State, StateObject } from './model.js';
import {
  canonicalLink,
  certificateFingerprint,
  declaredKey,
  emptyObjectMaps,
  linkDefinition,
  linkKey,
  relationshipDefinition,
} from './model.js';
import { DesiredStateError } from './plan-types.js';

type Problem = DesiredStateError['problems'][number];

/**
 * Builds the desired state from resolved manifest documents.
 *
 * - Objects keep exactly the declared attributes (not copied deeply: treat as read-only).
 * - `ssl-certificate` objects get `fingerprint`: SHA-256 (lowercase hex) of the DER bytes
 *   of the PEM `certificate` ({@link certificateFingerprint}).
 * - Links are the union of both sides' declarations, each stored once in the canonical
 *   direction (kind registry); `declaredRelationships` lists every (object, relationship)
 *   key a document declares, even with an empty list (then it means "no links").
 *
 * @throws DesiredStateError (all problems at once) for duplicate objects, two certificates
 *   with the same fingerprint, a certificate without a PEM `certificate`, a relationship
 *   gwops does not know, or a to-one relationship given more than one target (by either
 *   side's declarations).
 */
export function desiredState(documents: readonly ManifestDocument[]): State {
  const objects = emptyObjectMaps();
  const problems: Problem[] = [];
  const fingerprints = new Map<string, string>();
  const linksByKey = new Map<string, { link: Link; source: SourceLocation }>();
  const declared = new Map<string, DeclaredRelationship>();

  for (const doc of documents) {
    const ref: ObjectRef = { kind: doc.kind, name: doc.name };
    const byName = objects.get(doc.kind);
    if (!byName) continue;
    const previous = byName.get(doc.name);
    if (previous) {
      problems.push({ object: ref, detail: `declared twice (also at ${where(previous.source)})`, source: doc.source });
      continue;
    }
    let object: StateObject = { kind: doc.kind, name: doc.name, attributes: doc.attributes, source: doc.source };
    if (doc.kind === 'ssl-certificate') {
      const pem = doc.attributes.certificate;
      const fingerprint = typeof pem === 'string' ? certificateFingerprint(pem) : undefined;
      if (fingerprint === undefined) {
        problems.push({ object: ref, detail: 'attributes.certificate must hold a PEM certificate (it is the identity on the gateway)', source: doc.source });
        continue;
      }
      const twin = fingerprints.get(fingerprint);
      if (twin !== undefined) {
        problems.push({ object: ref, detail: `has the same certificate as ssl-certificate '${twin}'`, source: doc.source });
        continue;
      }
      fingerprints.set(fingerprint, doc.name);
      object = { ...object, fingerprint };
    }
    byName.set(doc.name, object);

    for (const [relationship, targets] of Object.entries(doc.relationships)) {
      const def = relationshipDefinition(doc.kind, relationship);
      if (!def) {
        problems.push({ object: ref, detail: `unknown relationship '${relationship}'`, source: doc.source });
        continue;
      }
      declared.set(declaredKey(ref, def.name), { object: ref, relationship: def.name });
      if (def.cardinality === 'one' && targets.length > 1) {
        problems.push({ object: ref, detail: `relationship '${def.name}' takes one ${def.target}, got ${targets.length}`, source: doc.source });
        continue;
      }
      for (const target of targets) {
        const link = canonicalLink(ref, def, target);
        const key = linkKey(link);
        if (!linksByKey.has(key)) linksByKey.set(key, { link, source: doc.source });
      }
    }
  }

  problems.push(...toOneConflicts([...linksByKey.values()]));
  if (problems.length > 0) throw new DesiredStateError(problems);
  return {
    objects,
    links: [...linksByKey.values()].map((l) => l.link),
    declaredRelationships: [...declared.values()],
  };
}

/** Links that give one object's to-one relationship two different targets (declared on different sides). */
function toOneConflicts(links: readonly { link: Link; source: SourceLocation }[]): Problem[] {
  const seen = new Map<string, Link>();
  const problems: Problem[] = [];
  for (const { link, source } of links) {
    if (linkDefinition(link).cardinality !== 'one') continue;
    const key = declaredKey(link.from, link.relationship);
    const other = seen.get(key);
    if (other) {
      problems.push({
        object: link.from,
        detail: `relationship '${link.relationship}' is declared with two targets: '${other.to.name}' and '${link.to.name}'`,
        source,
      });
    } else seen.set(key, link);
  }
  return problems;
}

function where(source: SourceLocation | undefined): string {
  return source ? `${source.file}:${source.line}` : 'another document';
}

/**
 * The handles of the desired certificates by fingerprint: the argument `liveState` needs to
 * name live certificates like the manifests do.
 */
export function certificateHandles(desired: State): Map<string, string> {
  const handles = new Map<string, string>();
  for (const object of desired.objects.get('ssl-certificate')?.values() ?? []) {
    if (object.fingerprint !== undefined) handles.set(object.fingerprint, object.name);
  }
  return handles;
}
