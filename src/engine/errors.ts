/**
 * The reconciler's errors (plan, apply, drift), in one module: what stops a run, each
 * with its exit code from `EXIT` (src/core/exit-codes.ts). Errors about located problems carry
 * them as {@link Diagnostic}s (`diagnostics`), which the CLI prints with the one
 * diagnostics formatter (src/core/diagnostics.ts) before the error's one-line message.
 * Callers import them from here (src/core/errors.ts "Where the error classes live").
 */
import { DiagnosticsError, GwopsError, InputError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';
import type { ConfigurationEntry } from '../api/documents.js';
import type { Diagnostic, DiagnosticLocation } from '../core/diagnostics.js';
import { objectDiagnostic } from '../core/diagnostics.js';
import type { ExecutionReport, MassDeleteCount, Plan } from './plan-types.js';

/** `2 errors`: the number of diagnostics of severity error. */
function errorCount(diagnostics: readonly Diagnostic[]): string {
  const n = diagnostics.filter((d) => d.severity === 'error').length;
  return `${n} error${n === 1 ? '' : 's'}`;
}

/** Manifests have errors: nothing was sent to any gateway. Exit code 1. */
export class ManifestError extends DiagnosticsError {
  constructor(diagnostics: readonly Diagnostic[]) {
    super(`the manifests have ${errorCount(diagnostics)}; nothing was sent to the gateway`, diagnostics);
  }
}

/**
 * Manifest documents that cannot form one desired state (codes `duplicate-object`,
 * `duplicate-identity`, `missing-identity`, `unknown-relationship`, `to-one-list`,
 * `conflicting-link`). Raised before any gateway is contacted. Exit code 1.
 */
export class DesiredStateError extends DiagnosticsError {
  constructor(diagnostics: readonly Diagnostic[]) {
    super(`the manifests' objects cannot be built into one desired state (${errorCount(diagnostics)}); nothing was sent to the gateway`, diagnostics);
  }
}

/**
 * Manifests link to objects that exist nowhere: neither a manifest nor the live gateway
 * has them (code `unresolved-link`, one diagnostic per link, at the declaring document).
 * Raised while planning, before any change. Exit code 1.
 */
export class UnresolvedReferenceError extends DiagnosticsError {
  constructor(diagnostics: readonly Diagnostic[]) {
    const n = diagnostics.length;
    super(`the manifests have ${n} link${n === 1 ? '' : 's'} to objects that no manifest declares and the gateway does not have; nothing was changed`, diagnostics);
  }
}

/**
 * A manifest names a sub-resource the gateway does not have (a mapping's use of a deny rule
 * group whose short name is not among the gateway's groups; src/engine/sub-resources.ts),
 * found before anything is sent. Each diagnostic is located at the key and suggests the
 * nearest known key.
 */
export class UnknownSubResourceError extends DiagnosticsError {
  constructor(diagnostics: readonly Diagnostic[]) {
    const n = diagnostics.length;
    super(`the manifests name ${n} entr${n === 1 ? 'y' : 'ies'} the gateway does not have; nothing was changed`, diagnostics);
  }
}

/**
 * A manifest declares an object that is built into the gateway (a negative id, such as
 * the virtual host `default`; docs/gateway-api.md "Documents and ids"): the gateway refuses
 * every change to it, and creating another object of that name would not manage it. Exit
 * code 1; the diagnostics locate each declaration.
 */
export class BuiltInObjectError extends DiagnosticsError {
  constructor(diagnostics: readonly Diagnostic[]) {
    const n = diagnostics.length;
    super(`the manifests declare ${n} object${n === 1 ? '' : 's'} built into the gateway, which gwops cannot manage; nothing was changed`, diagnostics);
  }
}

/**
 * Manifests declare names that exist live outside the project's ownership scope (code
 * `outside-ownership-scope`, one diagnostic per object, at the declaring document): the
 * objects belong to someone else, and the plan would change them in place. Raised while
 * planning, before any change; `plan` is the plan that was refused, for display. Exit code 1.
 */
export class OutsideScopeError extends DiagnosticsError {
  readonly plan: Plan;
  constructor(diagnostics: readonly Diagnostic[], plan: Plan) {
    const n = diagnostics.length;
    super(`the manifests declare ${n} object${n === 1 ? ' that exists' : 's that exist'} on the gateway outside the ownership scope; nothing was changed`, diagnostics);
    this.plan = plan;
  }
}

/**
 * Pruning would delete every owned object of a kind, or more than the allowed share,
 * and `--allow-mass-delete` was not given (docs/architecture.md "Decisions"). Exit code 1.
 */
export class MassDeleteError extends GwopsError {
  readonly counts: readonly MassDeleteCount[];
  constructor(counts: readonly MassDeleteCount[], share: number) {
    super(massDeleteMessage(counts, share));
    this.counts = counts;
  }
}

/** What the mass-delete guard says about `counts` (the error's message, and the `mass-delete` diagnostic's per kind). */
export function massDeleteMessage(counts: readonly MassDeleteCount[], share: number): string {
  const what = counts.map((c) => `${c.deletes} of ${c.owned} owned ${c.kind} object${c.owned === 1 ? '' : 's'}`).join(', ');
  return `refusing to delete ${what} (all of a kind, or more than ${Math.round(share * 100)} %); pass --allow-mass-delete to allow it`;
}

/** The gateway's validator found errors: nothing was activated. Exit code 3. */
export class ValidatorRejectedError extends DiagnosticsError {
  override readonly exitCode = EXIT.validatorErrors;
  constructor(diagnostics: readonly Diagnostic[]) {
    super(`the gateway's validator reported ${errorCount(diagnostics)}; nothing was activated`, diagnostics);
  }
}

/**
 * A step of the plan failed inside the session: nothing was activated. Exit code 1.
 * `failure` is the failed step as a diagnostic (code `step-failed`, the object, located at
 * the document that declares it when a manifest does), for `--format json`.
 */
export class ApplyFailedError extends GwopsError {
  readonly report: ExecutionReport;
  readonly plan: Plan;
  readonly failure: Diagnostic | undefined;
  constructor(plan: Plan, report: ExecutionReport, locate?: (kind: Plan['steps'][number]['kind'], name: string) => DiagnosticLocation | undefined) {
    const failed = report.outcomes.find((o) => o.status === 'failed');
    const step = plan.steps.find((s) => s.index === failed?.step);
    const reason = failed && failed.status === 'failed' ? failed.error : 'interrupted';
    super(
      `step ${failed?.step ?? '?'} (${step ? `${step.action} ${step.kind} '${step.name}'` : 'unknown'}) failed: ${reason}; ` +
        'nothing was activated and the session was terminated',
      { cause: report.error },
    );
    this.report = report;
    this.plan = plan;
    this.failure = step
      ? objectDiagnostic({
          code: 'step-failed',
          object: { kind: step.kind, name: step.name },
          source: locate?.(step.kind, step.name),
          message: `${step.action} ${step.kind} '${step.name}' failed: ${reason}`,
        })
      : undefined;
  }
}

/**
 * `plan`'s server check was refused with 403: the key may read but not write (a read-only
 * user's key: docs/gateway-api.md "Sessions"). The plan built from what was read is in
 * `plan`; the CLI prints it, then this message. Nothing was changed. Exit code 1.
 */
export class ServerCheckForbiddenError extends GwopsError {
  readonly plan: Plan;
  constructor(plan: Plan, reason: string, options?: ErrorOptions) {
    super(
      `the gateway refused the server check (${reason}): the API key may not write; ` +
        'the plan above is built from what was read; use --no-server-check for a read-only preview',
      options,
    );
    this.plan = plan;
  }
}

/**
 * The activation request was sent but its outcome is not known: the connection broke
 * before the answer, or the answer was not the documented success. Exit code 1;
 * `gwops drift` tells what is live.
 */
export class ActivationUnknownError extends GwopsError {
  constructor(reason: string, options?: ErrorOptions) {
    super(
      `${reason}; the activation request was sent, so the gateway may or may not have activated the configuration: ` +
        'run gwops drift to see the live state before applying again',
      options,
    );
  }
}

/**
 * The gateway answered the activation as a success, but its configurations list does not
 * show this run's configuration as the active one. Exit code 1.
 */
export class ActivationMismatchError extends GwopsError {}

/** Apply needs consent and none can be asked for (no terminal) nor was given (`--yes`). Exit code 1. */
export class ConsentRequiredError extends GwopsError {}

/** `apply --plan` was given a plan made against a different live state. Exit code 1. */
export class StalePlanError extends GwopsError {}

/** `apply --plan` was given a plan file made against another gateway (URL, variant or target). Exit code 1. */
export class PlanGatewayMismatchError extends GwopsError {}

/**
 * `apply --plan` was given a plan file whose steps or calls are not the plan its own desired
 * state makes against the live state (edited by hand): nothing was changed. Exit code 1.
 */
export class PlanFileMismatchError extends GwopsError {}

/** A rollback target that cannot be found, or names more than one configuration: lists the candidates. */
export class RollbackTargetError extends InputError {
  constructor(
    message: string,
    /** The entries the reference could have meant, or the recent ones gwops applied. */
    readonly candidates: readonly ConfigurationEntry[],
  ) {
    super(message);
  }
}

/**
 * A rollback within the ownership scope that cannot be made without changing an object
 * outside it (a link of the target to an object the active configuration no longer
 * holds): nothing was changed. Exit code 1.
 */
export class RollbackScopeError extends GwopsError {}

/**
 * A plan file whose signature (`<file>.sig`) does not verify with the plan-signing key, a
 * signed file read without the key, or an unsigned file read with a key configured:
 * nothing was sent. Exit code 1.
 */
export class PlanSignatureError extends GwopsError {}
