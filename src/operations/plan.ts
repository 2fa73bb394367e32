/**
 * The use case `plan` as a function that returns data (the CLI prints it): the stages of
 * the reconcile pipeline (src/operations/steps/pipeline.ts) in one session, with the
 * server check, and nothing saved on the gateway.
 */
import { withSession } from '../gateway/index.js';
import { ApiError } from '../gateway/errors.js';
import type { Diagnosed } from '../core/diagnostics.js';
import { Diagnostics } from '../core/diagnostics.js';
import type { Plan } from '../engine/plan-types.js';
import { ApplyFailedError, ServerCheckForbiddenError } from '../engine/errors.js';
import type { Backlog } from './steps/execute.js';
import { outsideChanges } from './steps/outside-changes.js';
import type { Planned, Prepared, RunInput } from './steps/pipeline.js';
import { connectionFor, executeAndValidate, ignoreInForce, preparedForGateway, readAndPlan, reloadFor } from './steps/pipeline.js';

/** Result of {@link runPlan}. */
export interface PlanResult extends Planned {
  readonly prepared: Prepared;
  /**
   * True when the plan was executed in the session and the validator asked (the server
   * check): the diagnostics returned are its messages. False with `--no-server-check` or
   * an empty plan.
   */
  readonly serverChecked: boolean;
}

/** Options of {@link runPlan}. */
export interface PlanInput extends RunInput {
  /** False for `--no-server-check`: the plan is not executed in the session. */
  readonly serverCheck: boolean;
  /**
   * Told the plan before its server check's calls; may return work to do while they wait
   * for their answers (a {@link Backlog}, such as making the plan's text), which the run
   * finishes before it returns or throws.
   */
  readonly onPlan?: ((plan: Plan) => Backlog | undefined) | undefined;
}

/**
 * `gwops plan` on manifests {@link prepare}d: builds the plan; unless `serverCheck` is
 * false, executes it in the session and reads the validator messages (the diagnostics
 * returned), then terminates without saving (nothing persisted).
 * @throws ServerCheckForbiddenError (carrying the plan) when the gateway answers a call of
 *   the server check with 403, as to a read-only key
 */
export async function runPlan(input: PlanInput, loaded: Prepared): Promise<Diagnosed<PlanResult>> {
  const connection = connectionFor(input, loaded);
  return withSession({ ...connection, onWarning: input.warn }, async (session, signal) => {
    const prepared = await preparedForGateway(session, loaded, connection.declaredVariant, {}, reloadFor(input));
    // The digest is keyed by what a later apply shares (the plan-signing key), never by this run's API key.
    const planned = await readAndPlan(session, prepared, input, input.planSigningKey, ignoreInForce(prepared, input));
    if (input.onOutsideChanges) {
      const outside = await outsideChanges(session, prepared, planned, input);
      if (outside) input.onOutsideChanges(outside);
    }
    if (!input.serverCheck || planned.plan.steps.length === 0) return { result: { ...planned, prepared, serverChecked: false }, diagnostics: Diagnostics.none };
    const backlog = input.onPlan?.(planned.plan);
    try {
      const { messages } = await executeAndValidate(session, prepared, planned, signal, undefined, input.progress, backlog).catch((error: unknown) => {
        const cause = error instanceof ApplyFailedError ? error.report.error : undefined;
        if (cause instanceof ApiError && cause.status === 403) {
          throw new ServerCheckForbiddenError(planned.plan, `${cause.status}${cause.code !== undefined ? ` ${cause.code}` : ''} on ${cause.method} ${cause.path}`, { cause });
        }
        throw error;
      });
      return { result: { ...planned, prepared, serverChecked: true }, diagnostics: Diagnostics.of(messages) };
    } finally {
      backlog?.finish();
    }
  });
}
