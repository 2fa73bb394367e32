/**
 * The `rollback` use case: activates an earlier configuration of the gateway again, found
 * by its id or by the commit `gwops apply` named in its comment (history.ts). In one
 * session: the configurations list; load-active and every kind's list (what is active);
 * `POST /configuration/configurations/{id}/load` and the lists again (what would be), each
 * with the content of every document (`GET /{id}/content`); the
 * difference as a plan (the target as "desired", the active configuration as "live",
 * rendered by plan's renderers); consent; the validator; the activation, confirmed through
 * the configurations list as apply does. The manifests are not touched.
 */
import type { ApiResource, ConfigurationEntry, GatewaySession } from '../gateway/index.js';
import { withSession } from '../gateway/index.js';
import type { ResourceType, Variant } from '../kinds/index.js';
import { KINDS, kindExistsIn, kindOf } from '../kinds/index.js';
import { hasErrors } from '../diagnostics.js';
import { activate } from './apply.js';
import { rollbackComment } from '../engine/commit-comment.js';
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
import { locateMessages } from './plan.js';
import { gatewayVariant } from '../engine/variant.js';
import { defaultTree, stripDefaults } from '../export/default-tree.js';
import { InterruptedError } from '../gateway/errors.js';

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
}

/**
 * How a rollback ended without an error: `already-active` (the target is the active
 * configuration; nothing to do), `cancelled` (the answer was not "yes"), `activated`.
 */
export type RollbackOutcome = 'already-active' | 'cancelled' | 'activated';

/** Result of {@link runRollback}. */
export interface RollbackResult extends RollbackPreview {
  readonly outcome: RollbackOutcome;
  /** The new active entry, as the configurations list shows it. */
  readonly activation?: ConfigurationEntry;
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
    if (kindExistsIn(kind, variant)) lists[kind.type] = await session.list(kind.collection, [], { project: whole });
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

/**
 * `gwops rollback`: see the module comment. Never sets `ignoreOutdatedConfiguration`: an
 * activation by someone else after the load stops the run (409).
 * @throws RollbackTargetError (unknown or ambiguous reference), ValidatorRejectedError
 *   (exit 3), whatever `confirm` throws, ActivationUnknownError, ActivationMismatchError,
 *   OutdatedConfigurationError, connection and API errors (exit 1), InterruptedError
 */
export async function runRollback(input: RollbackInput): Promise<RollbackResult> {
  const { connection, declaredVariant } = gatewayConnection(input);
  return withSession({ ...connection, onWarning: input.warn }, async (session, signal, scope) => {
    // The kinds to read are those of the variant the gateway reports (variant.ts).
    const variant = gatewayVariant(await session.nodeVersion(), declaredVariant);
    const list = await session.configurations();
    const entries = historyEntries(list);
    const target = findRollbackTarget(entries, input.ref);
    const active = entries.find((e) => e.configType === 'CURRENTLY_ACTIVE');
    const commit = commitOf(target);
    // The secret versions in effect at the target travel with it (secret-versions.ts).
    const comment = rollbackCommentWithVersions(rollbackComment(target.id, commit), list, target.id);
    await session.loadActive();
    // Documents' content is compared too: a rollback brings an older specification back.
    const activeState = await withEveryContent(session, liveState(await readAll(session, variant), new Map()));
    // The active configuration as target is read once: the preview then shows nothing to change.
    const alreadyActive = active?.id === target.id;
    if (!alreadyActive) await session.loadConfiguration(target.id);
    const targetState = alreadyActive ? activeState : await withEveryContent(session, liveState(await readAll(session, variant), new Map()));
    const preview: RollbackPreview = { target, active, plan: rollbackPlan(targetState, activeState, target.id), comment };
    if (alreadyActive) return { ...preview, outcome: 'already-active' };
    input.onPreview?.(preview);
    if (!(await input.confirm(preview, signal))) return { ...preview, outcome: 'cancelled' };
    const errors = locateMessages(await session.validatorMessages(['meta.severity==ERROR']), new Map(), { locate: () => undefined });
    if (hasErrors(errors)) throw new ValidatorRejectedError(errors);
    const before = await session.configurations();
    const activation = await activate(session, scope, comment, before, input.activationWaitMs ?? 30_000);
    if (signal.aborted && signal.reason instanceof InterruptedError) throw new InterruptedError(signal.reason.signal, 'activated');
    return { ...preview, outcome: 'activated', activation };
  });
}
