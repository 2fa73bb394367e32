/**
 * Redoing a whole apply transaction in a new session (docs/architecture.md "Habits":
 * "Redo a transaction, never continue one"). An apply is one transaction: load the active
 * configuration, fetch, plan, execute, validate, activate. Two failures end it before
 * anything was activated and are cured by starting it again from the beginning:
 *
 * - the REST session expired (401 inside the session, docs/gateway-api.md "Sessions"): the
 *   transaction is redone once;
 * - the activation was refused with 409 `OUTDATED_CONFIGURATION` because another session
 *   activated first (docs/gateway-api.md "Configurations and activation"): redone up to
 *   `retryOnConflict` times (`apply --retry-on-conflict N`; 0 by default).
 *
 * A half-done session is never continued: every attempt opens a new session, loads the
 * active configuration again and plans afresh.
 */
import { ApplyFailedError } from '../../engine/errors.js';
import type { Plan } from '../../engine/plan-types.js';
import { OutdatedConfigurationError, SessionError } from '../../gateway/errors.js';

/** Why a transaction is being redone. */
export type RedoReason = 'session-expired' | 'conflict';

/** What one attempt of the transaction is told. */
export interface TransactionAttempt {
  /** 1 for the first attempt. */
  readonly number: number;
  /** Why the previous attempt ended, for every attempt but the first. */
  readonly redoing?: RedoReason;
}

/** Options of {@link redoTransaction}. */
export interface RedoPolicy {
  /** How many times a 409 `OUTDATED_CONFIGURATION` is answered by planning again (≥ 0). */
  readonly retryOnConflict: number;
  /** Told, in one line, each time the transaction is redone. */
  readonly warn?: ((message: string) => void) | undefined;
}

/** How often an expired session is answered by redoing the transaction. */
export const SESSION_EXPIRY_REDOS = 1;

/**
 * Why `error` ended a transaction in a way that a new one may cure, or undefined when it
 * must not be redone. Only failures that certainly activated nothing qualify: a session
 * that expired before activation (an expired session answers 401 to the activation
 * itself, which therefore did not happen), and a refused activation (409).
 */
export function redoReason(error: unknown): RedoReason | undefined {
  const cause = error instanceof ApplyFailedError ? error.report.error : error;
  if (cause instanceof SessionError && cause.reason === 'expired') return 'session-expired';
  if (cause instanceof OutdatedConfigurationError) return 'conflict';
  return undefined;
}

/**
 * True when two plans send the same calls (the steps and their batching), whatever the
 * digest of the live state they were made against: the plan a user consented to still
 * describes what a redone transaction would do.
 */
export function samePlan(a: Plan, b: Plan): boolean {
  return JSON.stringify([a.steps, a.calls]) === JSON.stringify([b.steps, b.calls]);
}

function redoMessage(reason: RedoReason, conflicts: number, policy: RedoPolicy): string {
  switch (reason) {
    case 'session-expired':
      return 'the REST session expired before activation (nothing was activated); redoing the whole apply once in a new session';
    case 'conflict':
      return (
        'another session activated a configuration first (409 OUTDATED_CONFIGURATION; nothing was activated); ' +
        `planning again against the new active configuration (retry ${conflicts} of ${policy.retryOnConflict})`
      );
  }
}

/**
 * Runs `attempt` (one whole transaction in its own session) and runs it again from the
 * start after a failure that {@link redoReason} accepts, within the bounds: one redo after
 * an expired session, `policy.retryOnConflict` after refused activations.
 * @returns what the successful attempt returns
 * @throws the error of the last attempt (unchanged) when it may not be redone or the bounds are reached
 */
export async function redoTransaction<T>(policy: RedoPolicy, attempt: (a: TransactionAttempt) => Promise<T>): Promise<T> {
  let expiries = 0;
  let conflicts = 0;
  let redoing: RedoReason | undefined;
  for (let number = 1; ; number++) {
    try {
      return await attempt(redoing === undefined ? { number } : { number, redoing });
    } catch (error) {
      const reason = redoReason(error);
      if (reason === undefined) throw error;
      if (reason === 'session-expired' && expiries >= SESSION_EXPIRY_REDOS) throw error;
      if (reason === 'conflict' && conflicts >= policy.retryOnConflict) throw error;
      if (reason === 'session-expired') expiries += 1;
      else conflicts += 1;
      redoing = reason;
      policy.warn?.(redoMessage(reason, conflicts, policy));
    }
  }
}
