/**
 * The `rollback` use case: brings back an earlier configuration of the gateway, found by
 * its id or by the commit `gwops apply` named in its comment (history.ts). In one session:
 * the configurations list; load-active and every kind's list (what is active);
 * `POST /configuration/configurations/{id}/load` and the lists again (what would be), each
 * with the content of every document (`GET /{id}/content`); the difference as a plan (the
 * target as "desired", the active configuration as "live", rendered by plan's renderers);
 * consent; the validator; the activation, confirmed through the configurations list as
 * apply does. The manifests are not touched.
 *
 * By default the difference is planned within the project's ownership scope only
 * ({@link scopedRollbackPlan}): the active configuration is loaded again, the plan is
 * executed in it as apply executes one, and objects outside the scope stay as they are.
 * With `wholeConfiguration` the earlier configuration is activated whole, as it was, and
 * the preview lists first what that changes outside the scope (README.md "Rollback").
 */
import type { ApiResource, ConfigurationEntry, GatewaySession } from '../gateway/index.js';
import { withSession } from '../gateway/index.js';
import type { ResourceType, Variant } from '../kinds/index.js';
import { KINDS, kindExistsIn, kindOf } from '../kinds/index.js';
import { hasErrors } from '../core/diagnostics.js';
import { activate } from './apply.js';
import { projectId, rollbackComment } from '../engine/commit-comment.js';
import { ValidatorRejectedError } from '../engine/errors.js';
import type { GatewayInput, HistoryEntry } from './history.js';
import { commitOf, findRollbackTarget, gatewayConnection, historyEntries } from './history.js';
import { liveState } from '../engine/live.js';
import { withEveryContent } from './steps/fetch-content.js';
import type { DeclaredRelationship, State, StateObject } from '../engine/model.js';
import { emptyObjectMaps } from '../engine/model.js';
import { buildPlan } from '../engine/plan.js';
import { rollbackCommentWithVersions } from '../engine/secret-versions.js';
import type { Plan } from '../engine/plan-types.js';
import { locateMessages } from './steps/pipeline.js';
import { gatewayVariant } from '../engine/variant.js';
import { defaultTree, stripDefaults } from '../export/default-tree.js';
import { InterruptedError } from '../gateway/errors.js';
import { GwopsError, UsageError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';
import { ApplyFailedError, RollbackScopeError } from '../engine/errors.js';
import type { OwnershipScope } from '../engine/fetch-scope.js';
import { ownershipPredicate } from '../engine/fetch-scope.js';
import type { ObjectRef } from '../engine/model.js';
import type { PlanStep } from '../engine/plan-types.js';
import { loadProject } from '../manifest/project.js';
import { executePlan } from './steps/execute.js';
import { readGitLine } from './steps/git-revert.js';
import type { AppliedCommit, RevertAdvice } from '../engine/revert-advice.js';
import { commitsAppliedAfter, revertAdvice } from '../engine/revert-advice.js';
import path from 'node:path';

/** What activating the target would change, known before consent. */
export interface RollbackPreview {
  /** The configuration rolled back to. */
  readonly target: HistoryEntry;
  /** The configuration active before (undefined when the list marks none active). */
  readonly active: HistoryEntry | undefined;
  /** The difference from the active configuration to the target, as the plan that would make it (never executed). */
  readonly plan: Plan;
  /** The activation comment. */
  readonly comment: string;
  /**
   * `scope`: the plan changes objects inside the project's ownership scope only;
   * `whole-configuration`: the target is activated as it is.
   */
  readonly mode: 'scope' | 'whole-configuration';
  /**
   * The steps of `plan` that change objects outside the ownership scope (whole mode: what
   * activating the whole configuration does to other teams' objects, shown first); empty
   * in scope mode, whose plan has none.
   */
  readonly outsideScope: readonly PlanStep[];
  /**
   * Scope mode: objects the target holds or held that the plan leaves as they are because
   * one of their versions lies outside the scope (another team's, or not claimed by any filter).
   */
  readonly leftAlone: number;
}

/**
 * How a rollback ended without an error: `already-active` (the target is the active
 * configuration; nothing to do), `no-changes` (within the ownership scope the target and
 * the active configuration are the same; nothing asked, nothing changed), `cancelled` (the
 * answer was not "yes"), `activated`.
 */
export type RollbackOutcome = 'already-active' | 'no-changes' | 'cancelled' | 'activated';

/** Result of {@link runRollback}. */
export interface RollbackResult extends RollbackPreview {
  readonly outcome: RollbackOutcome;
  /** The new active entry, as the configurations list shows it. */
  readonly activation?: ConfigurationEntry;
  /** When activated: how to make the manifests in Git the target's again (`git revert` of the commits the rollback undid). */
  readonly revert?: RevertAdvice;
}

/** Options of {@link runRollback}. */
export interface RollbackInput extends GatewayInput {
  /** A configuration id or a commit SHA prefix. */
  readonly ref: string;
  /** Told the difference before consent (to print it). */
  readonly onPreview?: ((preview: RollbackPreview) => void) | undefined;
  /** Asked once the difference is known; false stops without changes. May throw (ConsentRequiredError). */
  readonly confirm: (preview: RollbackPreview, signal: AbortSignal) => Promise<boolean>;
  /** How long a signal may wait for the answer to an activation request already sent. Milliseconds; default 30 000. */
  readonly activationWaitMs?: number | undefined;
  /** `--whole-configuration`: activate the target whole, other teams' objects included. Default: within the ownership scope. */
  readonly wholeConfiguration?: boolean | undefined;
}

/**
 * Every list of the kinds that exist in `variant`, with whole attribute trees (one GET per
 * kind, in the loaded configuration). Passing a projection streams a large list element by
 * element instead of reading it whole (GatewaySession `list`).
 */
async function readAll(session: GatewaySession, variant: Variant): Promise<Partial<Record<ResourceType, readonly ApiResource[]>>> {
  const lists: Partial<Record<ResourceType, readonly ApiResource[]>> = {};
  const whole = (resource: ApiResource): ApiResource => resource;
  for (const kind of KINDS) {
    // A singleton is no part of a rollback: gwops never changes one it was not asked to.
    if (kindExistsIn(kind, variant) && !kind.singleton) lists[kind.type] = await session.list(kind.collection, [], { project: whole });
  }
  return lists;
}

/**
 * The target configuration as a "desired" state (pure): its objects with their whole
 * attribute trees, its links, and every relationship of every object of either
 * configuration declared, so that links only the active configuration has are removed.
 * An object only the target holds keeps only the attributes that differ from the gateway's
 * defaults for its kind (the defaults are the same on both sides: a preview shows what
 * differs). Content (kinds with a content sub-resource) is carried as the target holds it,
 * so the plan compares it by digest and shows its diff as plan does; an object only the
 * target holds carries none while empty (nothing was ever uploaded).
 */
export function targetAsDesired(target: State, active: State): State {
  const objects = emptyObjectMaps();
  for (const [kind, byName] of target.objects) {
    const out = objects.get(kind);
    if (!out) continue;
    for (const object of byName.values()) {
      const inActive = active.objects.get(kind)?.has(object.name) === true;
      // Content the target holds comes back with it; an object the target alone holds, with no content uploaded, shows none.
      const content = object.content && (inActive || Buffer.byteLength(object.content.base64, 'base64') > 0) ? object.content : undefined;
      const desired: StateObject = {
        kind: object.kind,
        name: object.name,
        attributes: inActive ? object.attributes : stripDefaults(object.attributes, defaultTree(kind)),
        ...(object.identityKey !== undefined ? { identityKey: object.identityKey } : {}),
        ...(content ? { content } : {}),
      };
      out.set(object.name, desired);
    }
  }
  const declared: DeclaredRelationship[] = [];
  for (const state of [target, active]) {
    for (const [kind, byName] of state.objects) {
      const relationships = Object.values(kindOf(kind).relationships).map((r) => r.name);
      for (const name of byName.keys()) for (const relationship of relationships) declared.push({ object: { kind, name }, relationship });
    }
  }
  return { objects, links: target.links, declaredRelationships: declared };
}

/**
 * What activating `target` changes against `active` (pure): the plan that would turn the
 * active configuration into the target, with deletes of what only the active one has
 * (cause `rollback`: not in configuration `targetId`; no ownership scope or pruning is
 * involved).
 */
export function rollbackPlan(target: State, active: State, targetId: string): Plan {
  const plan = buildPlan(targetAsDesired(target, active), active, {
    prune: true,
    isOwned: () => true,
    allowMassDelete: true,
    massDeleteShare: 1,
  });
  const reason = `not in configuration ${targetId}, the one rolled back to`;
  return { ...plan, steps: plan.steps.map((step) => (step.action === 'delete' && step.cause === 'prune' ? { ...step, cause: 'rollback', reason } : step)) };
}

/** `kind/name` of an object, for the sets of the scoped plan. */
const refKey = (ref: ObjectRef): string => `${ref.kind}/${ref.name}`;

/**
 * The objects a scoped rollback may change (pure): every object whose every version (in
 * the active configuration, in the target) lies inside the ownership scope; an object with
 * a version outside it (another team's, or a kind without a scope) is left as it is.
 * @returns the keys (`kind/name`) of the changeable objects and how many were left alone
 * @throws FilterSyntaxError when a scope filter is not in the API's filter syntax
 */
export function changeableObjects(target: State, active: State, scope: OwnershipScope): { readonly changeable: ReadonlySet<string>; readonly leftAlone: number } {
  const owned = ownershipPredicate(scope);
  const changeable = new Set<string>();
  let leftAlone = 0;
  const seen = new Set<string>();
  for (const state of [target, active]) {
    for (const [kind, byName] of state.objects) {
      for (const name of byName.keys()) {
        const key = refKey({ kind, name });
        if (seen.has(key)) continue;
        seen.add(key);
        const versions = [target.objects.get(kind)?.get(name), active.objects.get(kind)?.get(name)].filter((o) => o !== undefined);
        const inside = versions.every((o) => owned(o));
        if (inside) changeable.add(key);
        // An object the same on both sides needs no change: it is not counted as left alone.
        else if (versions.length < 2 || JSON.stringify(versions[0]?.attributes) !== JSON.stringify(versions[1]?.attributes)) leftAlone += 1;
      }
    }
  }
  return { changeable, leftAlone };
}

/**
 * The rollback within the ownership scope (pure): the plan that turns the active
 * configuration into the target for the objects {@link changeableObjects} allows, and
 * leaves every other object, and its links to other such objects, as the active
 * configuration has it. A changeable object's links become the target's; a link to an
 * object outside the scope is kept or made only when that object is in the active
 * configuration.
 * @throws RollbackScopeError when a changeable object of the target links to an object
 *   outside the scope that the active configuration no longer holds (the rollback cannot
 *   make that link without creating another team's object)
 */
export function scopedRollbackPlan(
  target: State,
  active: State,
  targetId: string,
  scope: OwnershipScope,
): { readonly plan: Plan; readonly desired: State; readonly leftAlone: number } {
  const { changeable, leftAlone } = changeableObjects(target, active, scope);
  const isChangeable = (ref: ObjectRef): boolean => changeable.has(refKey(ref));
  const whole = targetAsDesired(target, active);
  const objects = emptyObjectMaps();
  for (const [kind, out] of objects) {
    // Changeable objects as the target has them; every other active object as it is (no step).
    for (const [name, object] of whole.objects.get(kind) ?? new Map<string, StateObject>()) if (isChangeable({ kind, name })) out.set(name, object);
    for (const [name, object] of active.objects.get(kind) ?? new Map<string, StateObject>()) if (!isChangeable({ kind, name })) out.set(name, object);
  }
  const exists = (ref: ObjectRef): boolean => objects.get(ref.kind)?.has(ref.name) === true;
  const links = target.links.filter((link) => isChangeable(link.from) || isChangeable(link.to));
  for (const link of links) {
    const end = [link.from, link.to].find((ref) => !exists(ref));
    if (end) {
      const from = isChangeable(link.from) ? link.from : link.to;
      throw new RollbackScopeError(
        `cannot roll back to configuration ${targetId} within the ownership scope: ${from.kind} '${from.name}' links there to ${end.kind} '${end.name}', ` +
          'which the active configuration no longer holds and which lies outside the scope; nothing was changed. ' +
          'Add it to the ownership scope, create it first, or pass --whole-configuration',
      );
    }
  }
  const declaredRelationships = (whole.declaredRelationships ?? []).filter((d) => isChangeable(d.object));
  const desired: State = { objects, links, declaredRelationships };
  const plan = buildPlan(desired, active, { prune: true, isOwned: (object) => isChangeable(object), allowMassDelete: true, massDeleteShare: 1 });
  const reason = `not in configuration ${targetId}, the one rolled back to`;
  return {
    plan: { ...plan, steps: plan.steps.map((step) => (step.action === 'delete' && step.cause === 'prune' ? { ...step, cause: 'rollback', reason } : step)) },
    desired,
    leftAlone,
  };
}

/**
 * The project's ownership scope for a rollback (`--config`, else `gwops.yaml` in `cwd`).
 * @throws UsageError when the project declares none (a scoped rollback would change nothing)
 */
function rollbackScope(input: RollbackInput): OwnershipScope {
  const scope = loadProject(input.cwd, input.configFile).ownership;
  if (Object.values(scope).some((filters) => filters.length > 0)) return scope;
  throw new UsageError(
    'gwops rollback changes only the objects inside the project\'s ownership scope, and the project file declares none ' +
      '(run it where gwops.yaml is, or pass --config); to activate the earlier configuration whole, other teams\' objects included, pass --whole-configuration',
  );
}

/**
 * `gwops rollback`: see the module comment. Never sets `ignoreOutdatedConfiguration`: an
 * activation by someone else after the load stops the run (409).
 * @throws RollbackTargetError (unknown or ambiguous reference), UsageError (no ownership
 *   scope and no `wholeConfiguration`), RollbackScopeError, ApplyFailedError (a call of the
 *   scoped plan failed; nothing was activated), ValidatorRejectedError (exit 3), whatever `confirm` throws, ActivationUnknownError, ActivationMismatchError,
 *   OutdatedConfigurationError, connection and API errors (exit 1), InterruptedError
 */
export async function runRollback(input: RollbackInput): Promise<RollbackResult> {
  const { connection, declaredVariant } = gatewayConnection(input);
  // The scope is read before any gateway is contacted: without one, nothing is sent.
  const whole = input.wholeConfiguration === true;
  const scope = whole ? loadProject(input.cwd, input.configFile).ownership : rollbackScope(input);
  let applied: readonly AppliedCommit[] = [];
  const result = await withSession({ ...connection, onWarning: input.warn }, async (session, signal, sessionScope): Promise<RollbackResult> => {
    // The kinds to read are those of the variant the gateway reports (variant.ts).
    const variant = gatewayVariant(await session.nodeVersion(), declaredVariant);
    const list = await session.configurations();
    const entries = historyEntries(list);
    const target = findRollbackTarget(entries, input.ref);
    const active = entries.find((e) => e.configType === 'CURRENTLY_ACTIVE');
    const commit = commitOf(target);
    // The commits this rollback undoes on the gateway: this project's, applied after the target.
    applied = commitsAppliedAfter(entries, target.id, target.apply?.project ?? projectId(scope));
    // The secret versions in effect at the target travel with it (secret-versions.ts).
    const comment = rollbackCommentWithVersions(rollbackComment(target.id, commit), list, target.id);
    await session.loadActive();
    // Documents' content is compared too: a rollback brings an older specification back.
    const activeState = await withEveryContent(session, liveState(await readAll(session, variant), new Map()));
    // The active configuration as target is read once: the preview then shows nothing to change.
    const alreadyActive = active?.id === target.id;
    if (!alreadyActive) await session.loadConfiguration(target.id);
    const targetState = alreadyActive ? activeState : await withEveryContent(session, liveState(await readAll(session, variant), new Map()));
    const preview = rollbackPreview(targetState, activeState, { target, active, comment }, whole ? undefined : scope, scope);
    if (alreadyActive) return { ...preview.preview, outcome: 'already-active' };
    input.onPreview?.(preview.preview);
    if (preview.desired && preview.preview.plan.steps.length === 0) return { ...preview.preview, outcome: 'no-changes' };
    if (!(await input.confirm(preview.preview, signal))) return { ...preview.preview, outcome: 'cancelled' };
    if (preview.desired) {
      // Within the scope: the plan is executed in the active configuration, as apply executes one.
      await session.loadActive();
      const report = await executePlan(session, preview.preview.plan, preview.desired, activeState, { signal });
      if (report.error !== undefined) {
        if (report.error instanceof GwopsError && report.error.exitCode !== EXIT.error) throw report.error;
        throw new ApplyFailedError(preview.preview.plan, report);
      }
    }
    const errors = locateMessages(await session.validatorMessages(['meta.severity==ERROR']), new Map(), { locate: () => undefined });
    if (hasErrors(errors)) throw new ValidatorRejectedError(errors);
    const before = await session.configurations();
    const activation = await activate(session, sessionScope, comment, before, input.activationWaitMs ?? 30_000);
    if (signal.aborted && signal.reason instanceof InterruptedError) throw new InterruptedError(signal.reason.signal, 'activated');
    return { ...preview.preview, outcome: 'activated', activation };
  });
  if (result.outcome !== 'activated') return result;
  // How Git can agree: read from the repository of the project (src/engine/revert-advice.ts).
  const sha = commitOf(result.target)?.sha;
  const dir = input.configFile === undefined ? input.cwd : path.dirname(path.resolve(input.cwd, input.configFile));
  const line = sha === undefined ? undefined : await readGitLine(dir, sha, applied);
  return { ...result, revert: revertAdvice(sha, applied, line) };
}

/**
 * The preview of a rollback (pure): within `scoped` (the plan of {@link scopedRollbackPlan},
 * with the desired state to execute it with), or, when `scoped` is undefined, the whole
 * target, with the steps that change objects outside `scope` listed apart.
 */
function rollbackPreview(
  targetState: State,
  activeState: State,
  about: Pick<RollbackPreview, 'target' | 'active' | 'comment'>,
  scoped: OwnershipScope | undefined,
  scope: OwnershipScope,
): { readonly preview: RollbackPreview; readonly desired?: State } {
  if (scoped) {
    const { plan, desired, leftAlone } = scopedRollbackPlan(targetState, activeState, about.target.id, scoped);
    return { preview: { ...about, plan, mode: 'scope', outsideScope: [], leftAlone }, desired };
  }
  const plan = rollbackPlan(targetState, activeState, about.target.id);
  const { changeable } = changeableObjects(targetState, activeState, scope);
  const outsideScope = plan.steps.filter((step) => !changeable.has(refKey(step)));
  return { preview: { ...about, plan, mode: 'whole-configuration', outsideScope, leftAlone: 0 } };
}
