/**
 * How the use cases tell the CLI where a long run is (README.md "Progress"): a phase with
 * an optional count of units, then the units done. The CLI draws it (src/cli/progress.ts);
 * the use cases only call it, so they stay free of output.
 */

/** The phases of plan, apply and drift, in their order. */
export type RunPhase =
  | 'reading manifests'
  | 'connecting'
  | 'reading live state'
  | 'planning'
  | 'executing'
  | 'reading validator messages'
  | 'activating';

/** Receives the progress of a run. */
export interface ProgressReporter {
  /** A new phase begins (a {@link RunPhase}, or export's own); `total` is its number of units (lists, steps) when known. */
  phase(name: string, total?: number): void;
  /** `done` units of the current phase are complete (a count, not an increment). */
  update(done: number): void;
}
