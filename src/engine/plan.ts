/**
 * The pure planner (docs/architecture.md "Habits": pure planner, separate executor;
 * Terraform `Context.Plan`): desired state + live state → Plan (plan-types.ts). No I/O, no
 * clock, no randomness; the same input always gives the same plan.
 *
 * Rules (docs/architecture.md "Decisions"):
 * - identity is the name; certificates are matched by fingerprint (live certificates are
 *   named after the desired handle with the same fingerprint, see live.ts), so replacing a
 *   certificate is create, relink, delete;
 * - only declared attributes are compared (diff.ts); a PATCH carries only the changed
 *   top-level attributes, each with its whole declared subtree (the server deep-merges),
 *   declared list items with their item defaults filled in (item-defaults.ts);
 * - a certificate's `passphrase` is write-only: sent on create (a changed certificate is a
 *   new object), never compared; its `privateKey` is read back and compared (diff.ts);
 * - a to-one relationship that changes target is an unlink of the old target followed by a
 *   link of the new one (the link depends on the unlink), so the plan shows both;
 * - sub-resources a manifest declares (a mapping's deny rule use, sub-resources.ts) are
 *   compared entry by entry; each changed entry is an update step of its own, a PATCH of
 *   the entry after the object and the objects its key names exist;
 * - the requests: steps are batched into the fewest calls (`Plan.calls`, batch.ts);
 * - deletes: owned undeclared objects with `prune`; a live certificate that matches no
 *   desired one when this plan's unlinks remove its last link (it was replaced). Objects a
 *   desired link names are never deleted, and a certificate still used through a
 *   relationship gwops does not manage (`unmanagedLinks`) is never deleted as orphaned. Deleting an object removes its remaining links
 *   on the gateway, so no unlink is planned for links nobody manages.
 */
import { KINDS } from '../kinds/index.js';
import type { KeyNames, PublicKeys } from './diff.js';
import type { PublicKeyTools } from '../crypto/port.js';
import type { SecretVersions } from './secret-versions.js';
import { versionsOf } from './secret-versions.js';
import type { MassDeleteCount, Plan, PlanStep, PlanSummary } from './plan-types.js';
import { NO_PUBLIC_KEYS, diffLinks } from './diff.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { Diagnostics, objectDiagnostic } from '../core/diagnostics.js';
import type { ObjectKey } from '../core/object-key.js';
import type { Link, LinkKey, ObjectRef, State, StateObject } from './model.js';
import { ByObject, UNKNOWN_ID_PREFIX, declaredRelationshipsOf, linkDefinition, linkKey, liveIdOf, objectOf, refKey } from './model.js';
import { isBuiltInId } from '../api/documents.js';
import type { StepKey, StepNode } from './order.js';
import { orderSteps, stepKey } from './order.js';
import { PLAN_FORMAT_VERSION, idPlaceholder } from './plan-types.js';
import { BuiltInObjectError, MassDeleteError, OutsideScopeError, UnresolvedReferenceError, massDeleteMessage } from './errors.js';
import type { OutsideScope } from './ownership.js';
import { outsideScopeMessage } from './ownership.js';
import { planCalls } from './batch.js';
import { checkCalls } from './call-check.js';
import { createNode, deleteNode, linkNode, linkParts, updateNode } from './plan-steps.js';
import { sortByCodePoint } from './code-point.js';
import { unresolvedReferences } from './attribute-references.js';
import { objectsDeclaringSubResources, subResourceNodes } from './sub-resources.js';

export type { Plan, PlanStep } from './plan-types.js';
import { liveStateDigest } from './live-digest.js';
import type { Digests } from '../crypto/digest.js';
import type { DriftIgnoreEntry } from '../manifest/drift-ignore.js';
import type { KeptIgnored } from './ignored-differences.js';
import { keepIgnored } from './ignored-differences.js';

/** Default of {@link PlanOptions.massDeleteShare}. */
export const DEFAULT_MASS_DELETE_SHARE = 0.5;

/** How to plan. */
export interface PlanOptions {
  /** Delete live objects that no manifest declares, only when {@link isOwned}. */
  readonly prune: boolean;
  /** Ownership scope: true for live objects the project owns (the caller evaluates the project's GET filters). */
  isOwned(object: StateObject): boolean;
  /** Skip the mass-delete guard. */
  readonly allowMassDelete: boolean;
  /**
   * Share (0..1, default {@link DEFAULT_MASS_DELETE_SHARE}) of the owned live objects of a
   * kind that pruning may delete; more, or all of them, is refused unless `allowMassDelete`.
   */
  readonly massDeleteShare: number;
  /** RFC 7638 thumbprint → kid of the keys of the run's JWK Sets: changes name public keys by them. */
  readonly keyNames?: KeyNames | undefined;
  /**
   * Reads the RFC 7638 thumbprint of a PEM public key (src/jwks/node-keys.ts, on
   * `node:crypto`): public keys compare by it, and changes name them by it. Absent, none is
   * read: public keys compare by their text and show masked.
   */
  readonly publicKeys?: PublicKeyTools | undefined;
  /**
   * Versions of write-only secrets (secret-versions.ts): `applied`, as recorded on the
   * gateway; an object whose declared version of a write-only attribute differs gets an
   * update of that attribute.
   */
  readonly appliedVersions?: SecretVersions | undefined;
  /**
   * The key of the keyed live digest (the plan-signing key; see {@link liveStateDigest}):
   * with it the digest covers readable secret values too. Never stored.
   */
  readonly digestKey?: string | undefined;
  /** What computes the live digest (see {@link liveStateDigest}); the pure one when absent. */
  readonly digests?: Digests | undefined;
  /**
   * Ownership scope seen from a declared object (ownership.ts `outsideScopeTest`): for a
   * live object of a kind that has a scope and that the scope does not match, the scope
   * and what its filters saw. Such an object is never updated nor deleted: a declaration
   * of its name makes the plan fail with {@link OutsideScopeError}. Absent: no kind has a scope.
   */
  readonly outsideScope?: ((object: StateObject) => OutsideScope | undefined) | undefined;
  /**
   * The `drift.ignore` entries in force (the caller's clock decides which): a difference
   * one of them matches is kept, not undone (ignored-differences.ts), and listed in the
   * plan's `ignored`. Absent or empty: every difference is planned.
   */
  readonly ignore?: readonly DriftIgnoreEntry[] | undefined;
}

/**
 * A plan and what refuses it (Terraform's errored plan): `errored` when the mass-delete
 * guard or the ownership scope refuses it, with its error `diagnostics` (codes
 * `mass-delete`, `outside-ownership-scope`) and the kinds the guard refused
 * (`massDeletes`). An errored plan is still the whole plan, for display; it is never
 * executed.
 */
export interface PlanOutcome {
  readonly plan: Plan;
  readonly errored: boolean;
  readonly diagnostics: Diagnostics;
  /** The kinds whose deletes the mass-delete guard refused; empty unless it did. */
  readonly massDeletes: readonly MassDeleteCount[];
  /**
   * The desired state the plan was made from when ignored differences were kept
   * ({@link PlanOptions.ignore}): the given one with the live values where a difference is
   * kept. The executor refills secrets from it. Absent when nothing was kept.
   */
  readonly desired?: State;
}

/**
 * The error an errored plan stops a run with: {@link MassDeleteError} when the guard
 * refused it, else {@link OutsideScopeError} carrying the plan; undefined for a plan that
 * is not errored.
 */
export function erroredPlanError(outcome: PlanOutcome, massDeleteShare: number): MassDeleteError | OutsideScopeError | undefined {
  if (!outcome.errored) return undefined;
  if (outcome.massDeletes.length > 0) return new MassDeleteError(outcome.massDeletes, massDeleteShare);
  return new OutsideScopeError(outcome.diagnostics.errors(), outcome.plan);
}

/**
 * Builds the plan that turns `live` into `desired`, throwing the error of an errored
 * plan ({@link planOutcome}, {@link erroredPlanError}).
 * @throws MassDeleteError when pruning would delete all owned objects of a kind or more
 *   than `massDeleteShare` of them, without `allowMassDelete`
 * @throws OutsideScopeError (carrying the plan it refuses) when a desired object matches a
 *   live object outside the ownership scope of its kind
 * @throws what {@link planOutcome} throws
 */
export function buildPlan(desired: State, live: State, options: PlanOptions): Plan {
  const outcome = planOutcome(desired, live, options);
  const error = erroredPlanError(outcome, options.massDeleteShare);
  if (error) throw error;
  return outcome.plan;
}

/**
 * Builds the plan that turns `live` into `desired`; a plan that the mass-delete guard or
 * the ownership scope refuses comes back errored, with its diagnostics ({@link PlanOutcome}).
 * @param desired from `desiredState` (desired.ts)
 * @param live from `liveState` (live.ts), built with the desired identity handles (`identityHandles`)
 * @throws UnresolvedReferenceError when a desired link, or a desired attribute that names an
 *   object (schema `x-gwops-reference`), names an object that neither the
 *   manifests nor the live state have (live objects and built-ins are found by name, see
 *   {@link liveIdOf}; naming one never makes it managed)
 * @throws BuiltInObjectError when a desired object has the name of a built-in live object
 */
export function planOutcome(desired: State, live: State, options: PlanOptions): PlanOutcome {
  const first = planWith(desired, live, options, undefined);
  if (!options.ignore || options.ignore.length === 0) return first;
  // Planned twice only when some entry is in force: the first plan names the differences, the second keeps those matched.
  const keep = keepIgnored(desired, live, first.plan.steps, options.ignore);
  if (keep.kept.length === 0) return first;
  return { ...planWith(keep.desired, live, options, keep), desired: keep.desired };
}

/** {@link planOutcome} once, keeping what `keep` says (undefined: nothing). */
function planWith(desired: State, live: State, options: PlanOptions, keep: KeptIgnored | undefined): PlanOutcome {
  refuseBuiltIns(desired, live);
  const keys: PublicKeys = { pemThumbprint: options.publicKeys?.pemThumbprint ?? NO_PUBLIC_KEYS.pemThumbprint, kids: options.keyNames ?? NO_PUBLIC_KEYS.kids };
  const nodes: StepNode[] = [];
  // The placeholder of each object the plan creates, by kind and name: made once, and no key built per look-up.
  const created = new ByObject<string>();
  const foreign: Diagnostic[] = [];

  for (const kind of KINDS) {
    const desiredObjects = desired.objects.get(kind.type);
    if (!desiredObjects) continue;
    for (const name of sortByCodePoint([...desiredObjects.keys()])) {
      const object = desiredObjects.get(name);
      if (!object) continue;
      const liveObject = live.objects.get(kind.type)?.get(name);
      const outside = liveObject?.id === undefined ? undefined : options.outsideScope?.(liveObject);
      if (outside) foreign.push(objectDiagnostic({ code: 'outside-ownership-scope', object, source: object.source, message: outsideScopeMessage(object, outside) }));
      if (liveObject?.id === undefined) {
        // A singleton is never created: a gateway without it has nothing to patch (the fetch said so).
        if (kind.singleton) continue;
        nodes.push(createNode(object, keys));
        created.set({ kind: kind.type, name }, idPlaceholder(object));
      } else {
        const node = updateNode(object, liveObject, liveObject.id, keys, versionsOf(options.appliedVersions, object.kind, object.name));
        if (node) nodes.push(node);
      }
    }
  }

  const idOf = (ref: ObjectRef): string | undefined => {
    return created.get(ref) ?? liveIdOf(live, ref);
  };
  const { add, remove } = diffLinks(desired, live);
  const unresolved: Diagnostic[] = [];
  for (const object of objectsDeclaringSubResources(desired)) {
    const found = subResourceNodes(object, live.objects.get(object.kind)?.get(object.name), idOf, keys);
    nodes.push(...found.nodes);
    unresolved.push(...found.unresolved);
  }

  const removedKeys = new Set<LinkKey>(remove.map(linkKey));
  const unlinkKeyOf = (l: Link): StepKey => stepKey('unlink', l.from.kind, l.from.name, linkParts(l));
  for (const link of remove) nodes.push(linkNode('unlink', link, []));
  for (const link of add) {
    const fromMissing = idOf(link.from) === undefined;
    const toMissing = idOf(link.to) === undefined;
    if (fromMissing || toMissing) {
      if (fromMissing) unresolved.push(unresolvedOf(desired, link, link.from));
      if (toMissing) unresolved.push(unresolvedOf(desired, link, link.to));
      continue;
    }
    // What a link needs, the creates of its ends and the unlink of the to-one link it
    // replaces, are of earlier phases, which the order runs first (order.ts): no key of them
    // is built (two for each of 200,000 links of 100,000 new mappings).
    nodes.push(linkNode('link', link, [], sourceOfLink(desired, link)));
  }
  unresolved.push(...unresolvedReferences(desired, live));
  if (unresolved.length > 0) throw new UnresolvedReferenceError(unresolved);

  // Built on first use: most runs have no live object that the manifests do not declare.
  let referencedSet: Set<ObjectKey> | undefined;
  const referenced = (): Set<ObjectKey> => (referencedSet ??= new Set(desired.links.flatMap((l) => [refKey(l.from), refKey(l.to)])));
  let liveLinksMap: Map<ObjectKey, Link[]> | undefined;
  const liveLinksOf = (): Map<ObjectKey, Link[]> => (liveLinksMap ??= linksByEnd(live.links));
  const unmanaged: ObjectRef[] = [];
  const pruneCounts: MassDeleteCount[] = [];
  for (const kind of KINDS) {
    const liveObjects = live.objects.get(kind.type);
    // A singleton is never deleted nor reported as unmanaged: it exists on every gateway.
    if (!liveObjects || kind.singleton) continue;
    let owned = 0;
    let pruned = 0;
    for (const name of sortByCodePoint([...liveObjects.keys()])) {
      const object = liveObjects.get(name);
      if (!object) continue;
      const isOwned = options.isOwned(object);
      if (isOwned) owned += 1;
      if (desired.objects.get(kind.type)?.has(name) || object.id === undefined || referenced().has(refKey(object))) continue;
      const links = liveLinksOf().get(refKey(object)) ?? [];
      const needs = links.filter((l) => removedKeys.has(linkKey(l))).map(unlinkKeyOf);
      if (options.prune && isOwned && keep?.keptObjects.has(`${kind.type}\u0000${name}`) !== true) {
        pruned += 1;
        nodes.push(deleteNode(object, object.id, 'prune', needs));
      } else if (
        kind.identity.deleteWhenOrphaned &&
        options.outsideScope?.(object) === undefined &&
        links.length > 0 &&
        (object.unmanagedLinks ?? 0) === 0 &&
        links.every((l) => removedKeys.has(linkKey(l)))
      ) {
        nodes.push(deleteNode(object, object.id, 'orphaned-certificate', needs));
      } else if (isOwned && keep?.keptObjects.has(`${kind.type}\u0000${name}`) !== true) {
        unmanaged.push({ kind: kind.type, name });
      }
    }
    const tooMany = pruned > 0 && (pruned === owned || pruned > owned * options.massDeleteShare);
    if (tooMany) pruneCounts.push({ kind: kind.type, deletes: pruned, owned });
  }
  const massDeletes = options.allowMassDelete ? [] : pruneCounts;

  const steps = orderSteps(nodes);
  // The steps are numbered copies: the drafts, their keys and what they need are garbage
  // from here, and a large plan (100,000 new mappings: about 100 MB of them) need not keep
  // them while its calls are planned and checked.
  nodes.length = 0;
  // Only a name the live state has as a built-in, or an `#id:` name, can stand for a
  // built-in's id: live objects never have one and desired objects never take a built-in's
  // name (refuseBuiltIns). So most link ends (every new mapping's) are not looked up twice.
  const builtIns = live.builtIns;
  const isBuiltIn = (ref: ObjectRef): boolean =>
    (builtIns?.get(ref.kind)?.has(ref.name) === true || ref.name.startsWith(UNKNOWN_ID_PREFIX)) && isBuiltInId(idOf(ref) ?? '');
  const calls = planCalls(steps, (ref) => idOf(ref) ?? idPlaceholder(ref), (ref) => objectOf(desired, ref)?.content, isBuiltIn);
  checkCalls(steps, calls);
  // The live digest is needed only when the plan is saved or checked against a saved one:
  // hashing every live object costs about 0.6 s at 100,000 mappings, so it is computed on
  // first read (JSON.stringify and a spread read it too) and kept.
  let liveDigest: string | undefined;
  const plan: Plan = {
    formatVersion: PLAN_FORMAT_VERSION,
    get liveDigest(): string {
      return (liveDigest ??= liveStateDigest(live, desired, options.digestKey, options.digests));
    },
    summary: summarise(steps),
    steps,
    calls,
    unmanaged,
    ...(keep && keep.kept.length > 0 ? { ignored: keep.kept } : {}),
  };
  const diagnostics = Diagnostics.of(
    massDeletes.map((c) =>
      objectDiagnostic({ code: 'mass-delete', message: massDeleteMessage([c], options.massDeleteShare) }),
    ),
    foreign,
  );
  return { plan, errored: diagnostics.hasErrors(), diagnostics, massDeletes };
}

/** The links by each of their ends (refKey). */
function linksByEnd(links: readonly Link[]): Map<ObjectKey, Link[]> {
  const byEnd = new Map<ObjectKey, Link[]>();
  for (const link of links) {
    for (const end of [link.from, link.to]) {
      const key = refKey(end);
      const list = byEnd.get(key);
      if (list) list.push(link);
      else byEnd.set(key, [link]);
    }
  }
  return byEnd;
}

/** Where a desired link is declared: the canonical side's document when it declares the key, else the other side's. */
function sourceOfLink(desired: State, link: Link): StateObject['source'] {
  const side = declaredRelationshipsOf(desired)(link.from, link.relationship) ? link.from : link.to;
  return objectOf(desired, side)?.source ?? objectOf(desired, link.from)?.source ?? objectOf(desired, link.to)?.source;
}

/**
 * Refuses desired objects named like a built-in object of the gateway (`live.builtIns`):
 * the gateway refuses every change to a built-in object (docs/gateway-api.md "Documents and
 * ids"), so a manifest cannot manage it, and creating a second object of that name is not
 * what the manifest means.
 * @throws BuiltInObjectError locating each such declaration
 */
function refuseBuiltIns(desired: State, live: State): void {
  const found: Diagnostic[] = [];
  for (const [kind, names] of live.builtIns ?? []) {
    for (const name of names.keys()) {
      const object = desired.objects.get(kind)?.get(name);
      if (!object) continue;
      found.push(
        objectDiagnostic({
          code: 'built-in-object',
          object,
          source: object.source,
          message: `${kind} '${name}' is built into the gateway, which refuses every change to it: remove this document, or give the object another name`,
        }),
      );
    }
  }
  if (found.length > 0) throw new BuiltInObjectError(found);
}

/** The `unresolved-link` diagnostic of a desired link to `missing`, at the document of the object that names it. */
function unresolvedOf(desired: State, link: Link, missing: ObjectRef): Diagnostic {
  const from = refKey(missing) === refKey(link.to) ? link.from : link.to;
  const relationship = from === link.from ? link.relationship : linkDefinition(link).inverse;
  return objectDiagnostic({
    code: 'unresolved-link',
    object: from,
    source: desired.linkSources?.get(linkKey(link)) ?? objectOf(desired, from)?.source ?? sourceOfLink(desired, link),
    message:
      `${from.kind} '${from.name}' ${relationship} names ${missing.kind} '${missing.name}', which no manifest declares ` +
      'and the gateway does not have: declare it, or remove the link',
  });
}

function summarise(steps: readonly PlanStep[]): PlanSummary {
  const summary = { create: 0, update: 0, delete: 0, link: 0, unlink: 0 };
  for (const step of steps) summary[step.action] += 1;
  return summary;
}
