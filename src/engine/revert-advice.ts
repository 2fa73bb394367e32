/**
 * How Git can agree again after `gwops rollback` (pure): which commits the rollback undid
 * on the gateway, read from the configuration history, and the `git revert` that undoes
 * them in Git (README.md "Rollback", docs/adoption-guide.md "`gwops rollback`").
 *
 * A rollback to configuration T undoes every commit this project applied after T, not only
 * the last one: apply A, B and C, then roll back to A, and both B and C are gone from the
 * gateway. When Git shows them on one line of history ({@link GitLine}), the advice is the
 * revert of that whole line from T to its newest commit (`git revert --no-commit T..C`), so
 * the manifests become T's exactly, also when a commit in between was never applied on its
 * own or a commit was applied twice. When Git cannot tell (no repository here, a clone
 * without those commits, commits on no one line), it is the list of the commits applied
 * after T, newest first.
 */
import type { ActivationCommentInfo } from './commit-comment.js';

/** A configuration of the history as the advice reads it (newest first, as the gateway lists them). */
export interface AdviceEntry {
  readonly id: string;
  /** What a comment `gwops apply` wrote names. */
  readonly apply?: Pick<ActivationCommentInfo, 'sha' | 'project' | 'subject'> | undefined;
}

/** A commit applied after the target, once (its newest application). */
export interface AppliedCommit {
  /** Short SHA (7 hex digits), as the activation comment holds it. */
  readonly sha: string;
  readonly subject: string | undefined;
}

/**
 * The commits this project applied after configuration `targetId` (pure), oldest first,
 * each once (at its newest application), without the target's own commit. Activations of
 * other projects (another project trailer, commit-comment.ts `projectId`) are left out;
 * so are activations that name no commit (changes by hand, rollbacks).
 * @param entries the configurations list, newest first
 * @param project the project id the target's activation names, else the project's own
 * @returns empty when `targetId` is not in `entries`
 */
export function commitsAppliedAfter(entries: readonly AdviceEntry[], targetId: string, project: string | undefined): AppliedCommit[] {
  const index = entries.findIndex((e) => e.id === targetId);
  if (index < 0) return [];
  const targetSha = entries[index]?.apply?.sha;
  const seen = new Set<string>();
  const newestFirst: AppliedCommit[] = [];
  for (const entry of entries.slice(0, index)) {
    const apply = entry.apply;
    if (apply?.sha === undefined || apply.sha === targetSha || seen.has(apply.sha)) continue;
    // A comment without a project trailer (written before it existed) may be this project's.
    if (apply.project !== undefined && project !== undefined && apply.project !== project) continue;
    seen.add(apply.sha);
    newestFirst.push({ sha: apply.sha, subject: apply.subject });
  }
  return newestFirst.reverse();
}

/**
 * What Git shows of the target and the commits applied after it, read by
 * src/operations/steps/git-revert.ts: the newest of them, of which the target and every
 * other one is an ancestor, and the commits from the target to it along first parents.
 */
export interface GitLine {
  /** Short SHA of the newest commit (every other one is its ancestor); the target's when nothing applied after it is newer. */
  readonly tip: string;
  /** The commits after the target up to `tip` along first parents, newest first (short SHAs). */
  readonly commits: readonly string[];
  /** True when one of `commits` is a merge (its revert needs `-m 1`: the changes its merge brought into the first parent). */
  readonly merges: boolean;
}

/** The advice: the commands that make the manifests in Git the target's again, or why there is nothing to do. */
export type RevertAdvice =
  /** The target's commit is not known: the rollback went to a configuration gwops did not apply from a commit. */
  | { readonly kind: 'unknown-target' }
  /** No commit of this project was applied after the target, or Git holds none after it on the line: Git already agrees. */
  | { readonly kind: 'nothing'; readonly target: string }
  /**
   * `range`: Git shows the target and the applied commits on one line; `commands` revert
   * that line. `list`: Git could not tell; `commands` revert the applied commits, newest first.
   */
  | {
      readonly kind: 'range' | 'list';
      readonly target: string;
      /** The commits the rollback undid on the gateway, oldest first. */
      readonly applied: readonly AppliedCommit[];
      /** The commands to run, in order, each as its arguments (`git`, `revert`, …). */
      readonly commands: readonly (readonly string[])[];
    };

/**
 * The advice for a rollback to the configuration applied from `target` (pure).
 * @param target the short SHA of the target's commit; undefined when it names none
 * @param applied {@link commitsAppliedAfter}
 * @param line what Git shows ({@link GitLine}); undefined when Git could not tell
 */
export function revertAdvice(target: string | undefined, applied: readonly AppliedCommit[], line: GitLine | undefined): RevertAdvice {
  if (target === undefined) return { kind: 'unknown-target' };
  const commit = ['git', 'commit', '-m', `Revert to ${target}, the commit gwops rollback brought back`];
  if (line !== undefined) {
    if (line.commits.length === 0) return { kind: 'nothing', target };
    const revert = line.merges ? ['git', 'revert', '--no-commit', '-m', '1', ...line.commits] : ['git', 'revert', '--no-commit', `${target}..${line.tip}`];
    return { kind: 'range', target, applied, commands: [revert, commit] };
  }
  if (applied.length === 0) return { kind: 'nothing', target };
  const newestFirst = [...applied].reverse().map((c) => c.sha);
  return { kind: 'list', target, applied, commands: [['git', 'revert', '--no-commit', ...newestFirst], commit] };
}
