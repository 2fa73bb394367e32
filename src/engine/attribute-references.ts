/**
 * Desired attributes that name another object (schema `x-gwops-reference`; the ids the
 * gateway holds are names in manifests, src/schema/references.ts): which objects they name,
 * and the names that resolve to nothing.
 */
import type { ResourceType } from '../kinds/index.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { objectDiagnostic } from '../core/diagnostics.js';
import { attributeReferences } from '../schema/references.js';
import type { State, StateObject } from './model.js';
import { liveIdOf } from './model.js';

/** One name a desired attribute holds. */
export interface DesiredReference {
  /** The kind and name of the named object. */
  readonly kind: ResourceType;
  readonly name: string;
  /** The desired object whose attribute holds the name. */
  readonly by: StateObject;
  /** The attribute's dotted path, array indexes included (`ipRules.ipAddressWhitelists.pathWhitelists.0.ipAddressListIds.1`). */
  readonly path: string;
}

/** Per desired state (built once, never changed after), its references: several steps of one run ask. */
const memo = new WeakMap<State, readonly DesiredReference[]>();

/** Every name desired attributes hold, by object in state order (computed once per state). */
export function desiredReferences(desired: State): readonly DesiredReference[] {
  const known = memo.get(desired);
  if (known) return known;
  const out = collectReferences(desired);
  memo.set(desired, out);
  return out;
}

function collectReferences(desired: State): DesiredReference[] {
  const out: DesiredReference[] = [];
  for (const objects of desired.objects.values()) {
    for (const object of objects.values()) {
      for (const reference of attributeReferences(object.kind, object.attributes)) {
        out.push({ kind: reference.target, name: String(reference.value), by: object, path: reference.segments.join('.') });
      }
    }
  }
  return out;
}

/**
 * The `unresolved-link` diagnostics of desired attributes that name an object neither the
 * manifests nor the live gateway have (built-ins found by name too), each where the name
 * is written (`referenceSources`), else at the document that holds the attribute.
 */
export function unresolvedReferences(desired: State, live: State): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const reference of desiredReferences(desired)) {
    const ref = { kind: reference.kind, name: reference.name };
    if (desired.objects.get(ref.kind)?.has(ref.name) || liveIdOf(live, ref) !== undefined) continue;
    out.push(
      objectDiagnostic({
        code: 'unresolved-link',
        object: reference.by,
        source: reference.by.referenceSources?.[reference.path] ?? reference.by.source,
        message:
          `${reference.by.kind} '${reference.by.name}' attribute ${reference.path} names ${ref.kind} '${ref.name}', which no manifest declares ` +
          `and the gateway does not have: declare it, or remove the name`,
      }),
    );
  }
  return out;
}
