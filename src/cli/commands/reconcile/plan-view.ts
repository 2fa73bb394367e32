/**
 * The view of `gwops plan` (as Terraform's command/views): chosen once from `--format`
 * (text, markdown, json), it prints the plan and what a failed run carries. The views of
 * apply and drift build on it (apply.ts, drift.ts). Data goes to stdout; the human text
 * of a failure (diagnostics, the execution report) goes to stderr.
 */
import type { Diagnostic } from '../../../core/diagnostics.js';
import { formatDiagnostics } from '../../../core/diagnostics-format.js';
import { ApplyFailedError, OutsideScopeError, ServerCheckForbiddenError, ValidatorRejectedError } from '../../../engine/errors.js';
import { isDiagnosticsError } from '../../../core/errors.js';
import type { State } from '../../../engine/model.js';
import type { Plan } from '../../../engine/plan-types.js';
import { planTopology, renderJsonChunks, renderMarkdown, renderTextChunks, renderTextLines } from '../../../render/index.js';
import type { Backlog } from '../../../operations/steps/execute.js';
import { writingBacklog } from '../../backlog.js';
import type { ServerCheck } from '../../../render/run-report.js';
import { renderExecutionReport, renderValidatorMessages, serverCheckOutcome, serverCheckSentence } from '../../../render/run-report.js';
import { colorEnabled } from '../../color.js';
import { runFailure } from '../../exit.js';
import type { CliIO } from '../../io.js';
import { annotationPaths } from '../validate/view.js';

/** Output formats of plan, apply and drift. */
export type Format = 'text' | 'markdown' | 'json';

/**
 * Output formats of plan: those of {@link Format}, and `github`: the plan as text without
 * colours, then every diagnostic (the validator's messages at their manifest lines) as a
 * GitHub Actions annotation.
 */
export type PlanFormat = Format | 'github';

/** What a plan is shown with. */
export interface PlanContent {
  /** The gateway validator's messages of the server check; absent without one. */
  readonly messages?: readonly Diagnostic[] | undefined;
  /** Markdown only: how a manifest path is shown (from the repository's root, src/cli/repository-paths.ts); as it is when absent. */
  readonly filePath?: ((file: string) => string) | undefined;
  /** Whether the plan went through the server check (`plan` only): every format says so. */
  readonly serverCheck?: ServerCheck | undefined;
  /** The manifests' warnings of the run so far (JSON carries them; text printed them on arrival). */
  readonly warnings: readonly Diagnostic[];
  /** The desired and live state, for markdown's picture of the plan's topology. */
  readonly states?: { readonly desired: State; readonly live: State } | undefined;
  /** Markdown only: the most UTF-8 bytes the document may take (`plan --max-bytes`); the renderer's default when absent. */
  readonly maxBytes?: number | undefined;
  /** Text only: the plan's text, made already (the view's `planAhead`); made here when absent. */
  readonly text?: Iterable<string> | undefined;
}

/** The view of a run of plan, apply or drift. */
export interface RunView {
  /**
   * Prints what a typed failure carries, then rethrows it for the exit code (its one-line
   * message follows on stderr). With `json` stdout gets exactly one JSON document, whatever
   * stopped the run. Else diagnostics (of the manifests, the desired state, unresolved
   * links, the gateway's validator) go to stderr in the text format of the one diagnostics
   * formatter, and a plan the gateway refused to check, or refused for objects outside the
   * ownership scope, to stdout. A failed step prints the execution report on stderr (the
   * counts; every step with `verbose`) in every format.
   * @throws `error`, always
   */
  failure(error: unknown, warnings: readonly Diagnostic[]): never;
}

/** The view of `gwops plan`. */
export interface PlanView extends RunView {
  /** The plan of a run, on stdout. */
  plan(plan: Plan, content: PlanContent): void;
  /**
   * Told the plan before its server check's calls: what the view can make of it while they
   * wait for their answers (text: the plan's text, kept until {@link PlanView.plan} prints
   * that plan, so stdout gets the same, in the same order, whatever the check's outcome), or
   * undefined.
   */
  planAhead(plan: Plan): Backlog | undefined;
}

/** The execution report of a failed step, on stderr; nothing for other errors. */
function executionReport(error: unknown, io: CliIO, verbose: boolean): void {
  if (error instanceof ApplyFailedError) io.stderr.write(renderExecutionReport(error.plan, error.report, { verbose }));
}

/**
 * The plan view of text or markdown: `render` gives the plan's text. Text shows the
 * validator's messages after the plan in the text format of every diagnostic; markdown
 * shows them in a table, and the plan's topology when the states are given.
 */
function humanPlanView(
  io: CliIO,
  verbose: boolean,
  render: (plan: Plan, content: PlanContent) => Iterable<string>,
  text?: (plan: Plan) => Iterable<string>,
  annotations = false,
): PlanView {
  const color = colorEnabled(io);
  // Diagnostics of a failed run: the text format on stderr, and with `annotations` also as GitHub annotations on stdout.
  const diagnosticsOf = (diagnostics: readonly Diagnostic[]): void => {
    io.stderr.write(`${formatDiagnostics(diagnostics, 'text', { color })}\n`);
    if (annotations) io.stdout.write(githubAnnotations(io, diagnostics));
  };
  const print = (chunks: Iterable<string>): void => {
    for (const chunk of chunks) io.stdout.write(chunk);
  };
  let ahead: { readonly plan: Plan; readonly made: string[] } | undefined;
  return {
    plan(plan, content) {
      const made = ahead?.plan === plan ? ahead.made : undefined;
      ahead = undefined;
      print(render(plan, made ? { ...content, text: made } : content));
    },
    planAhead(plan) {
      if (!text) return undefined;
      const made: string[] = [];
      ahead = { plan, made };
      return writingBacklog(text(plan), { write: (chunk: string) => made.push(chunk) });
    },
    failure(error, warnings) {
      if (error instanceof OutsideScopeError) {
        print(render(error.plan, { warnings }));
        diagnosticsOf(error.diagnostics);
      } else if (error instanceof ValidatorRejectedError) {
        io.stderr.write(renderValidatorMessages(error.diagnostics, { color }));
        if (annotations) io.stdout.write(githubAnnotations(io, error.diagnostics));
      } else if (isDiagnosticsError(error)) {
        diagnosticsOf(error.diagnostics);
      } else if (error instanceof ServerCheckForbiddenError) {
        // The plan from what was read, as a plan without a server check; the error's message follows on stderr.
        print(render(error.plan, { warnings }));
      }
      executionReport(error, io, verbose);
      throw error;
    },
  };
}

/** The text of a plan for a terminal, then the validator's messages, in chunks (each made when written). */
export function textPlan(io: CliIO, fullCertificates = false): (plan: Plan, content: PlanContent) => Iterable<string> {
  const color = colorEnabled(io);
  return function* (plan, { messages, text, serverCheck }) {
    yield* text ?? renderTextChunks(plan, { color, fullCertificates });
    if (messages) yield renderValidatorMessages(messages, { color });
    yield serverCheckText(serverCheck, messages);
  };
}

/** The sentence on the server check of a plan that changes something, after a blank line (empty without a check to speak of). */
function serverCheckText(check: ServerCheck | undefined, messages: readonly Diagnostic[] | undefined): string {
  return check === undefined || check === 'not-needed' ? '' : `\n${serverCheckSentence(check, messages ?? [])}\n`;
}

/**
 * `diagnostics` as GitHub Actions annotations (src/core/diagnostics-format.ts, escaped by
 * GitHub's rules for workflow commands), each manifest path given from GITHUB_WORKSPACE as
 * `validate --format github` gives it (validate.ts `annotationPaths`).
 */
function githubAnnotations(io: CliIO, diagnostics: readonly Diagnostic[]): string {
  return formatDiagnostics(annotationPaths(diagnostics, io.cwd, io.env.GITHUB_WORKSPACE), 'github');
}

/** The plan of `--format github`: its text without colours, then the manifests' warnings and the validator's messages as annotations. */
function githubPlan(io: CliIO, fullCertificates: boolean): (plan: Plan, content: PlanContent) => Iterable<string> {
  return function* (plan, { messages, warnings, text, serverCheck }) {
    yield* text ?? renderTextChunks(plan, { color: false, fullCertificates });
    yield serverCheckText(serverCheck, messages);
    yield githubAnnotations(io, [...warnings, ...(messages ?? [])]);
  };
}

/** The markdown of a plan (under `title` when given): its picture and the validator's messages. */
export function markdownPlan(title?: string, fullCertificates = false): (plan: Plan, content: PlanContent) => [string] {
  return (plan, { messages, states, maxBytes, serverCheck, filePath }) => [
    renderMarkdown(plan, {
      fullCertificates,
      ...(filePath !== undefined ? { filePath } : {}),
      ...(serverCheck !== undefined ? { serverCheck } : {}),
      ...(maxBytes !== undefined ? { maxBytes } : {}),
      ...(messages ? { validatorMessages: messages } : {}),
      ...(title !== undefined ? { title } : {}),
      ...(states ? { topology: planTopology(plan, states.desired, states.live) } : {}),
    }),
  ];
}

/**
 * The one JSON document of a failed run of plan or drift, in chunks (src/render/json-chunks.ts): the document of `gwops validate
 * --format json` with the diagnostics (the manifests' `warnings` first, unless a plan
 * document already carried them) when the error carries them; the plan (without a server
 * check) when the gateway refused it; the plan with the failed step as a diagnostic when a
 * step failed; else the document of validate with the error as its one error (`run-failed`).
 */
function failureJson(error: unknown, warnings: readonly Diagnostic[]): Iterable<string> {
  // The refused plan, carrying the diagnostics.
  if (error instanceof OutsideScopeError) return renderJsonChunks(error.plan, { diagnostics: [...warnings, ...error.diagnostics] });
  if (isDiagnosticsError(error)) {
    // Only the validator rejects after the plan (and the warnings with it) was printed.
    return [formatDiagnostics(error instanceof ValidatorRejectedError ? error.diagnostics : [...warnings, ...error.diagnostics], 'json')];
  }
  if (error instanceof ServerCheckForbiddenError) return renderJsonChunks(error.plan, { diagnostics: warnings });
  if (error instanceof ApplyFailedError) return renderJsonChunks(error.plan, { diagnostics: [...warnings, ...(error.failure ? [error.failure] : [])] });
  return [formatDiagnostics([...warnings, runFailure(error)], 'json')];
}

/**
 * The plan view of `json`: the plan with every diagnostic of the run so far in
 * `diagnostics` (the manifests' warnings, then the validator's messages), in the shape of
 * `gwops validate --format json`.
 */
function jsonPlanView(io: CliIO, verbose: boolean): PlanView {
  return {
    planAhead: () => undefined,
    plan(plan, { messages, warnings, serverCheck }) {
      const check = serverCheck !== undefined ? { serverCheck: serverCheckOutcome(serverCheck, messages ?? []) } : {};
      for (const chunk of renderJsonChunks(plan, { ...check, diagnostics: [...warnings, ...(messages ?? [])] })) io.stdout.write(chunk);
    },
    failure(error, warnings) {
      // In chunks, as the plan itself: a refused plan is as large as an accepted one.
      for (const chunk of failureJson(error, warnings)) io.stdout.write(chunk);
      executionReport(error, io, verbose);
      throw error;
    },
  };
}

/**
 * The view of `gwops plan` in `format`; markdown under `title` when given.
 * @param verbose certificates shown as their PEM (else summarised); a failed step lists every step with its status (else the counts)
 */
export function planView(format: PlanFormat, io: CliIO, options: { verbose?: boolean | undefined; title?: string } = {}): PlanView {
  const verbose = options.verbose === true;
  switch (format) {
    case 'github':
      return humanPlanView(io, verbose, githubPlan(io, verbose), (plan) => renderTextLines(plan, { color: false, fullCertificates: verbose }), true);
    case 'text':
      return humanPlanView(io, verbose, textPlan(io, verbose), (plan) => renderTextLines(plan, { color: colorEnabled(io), fullCertificates: verbose }));
    case 'markdown':
      return humanPlanView(io, verbose, markdownPlan(options.title, verbose));
    case 'json':
      return jsonPlanView(io, verbose);
  }
}
