/**
 * What Git shows of the commits a rollback undid (src/engine/revert-advice.ts): whether the
 * target and the commits applied after it lie on one line of history, read with
 * `git rev-parse`, `git merge-base --is-ancestor` and `git rev-list --first-parent`. Only
 * reads; the repository is never changed.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { AppliedCommit, GitLine } from '../../engine/revert-advice.js';

const run = promisify(execFile);

async function git(cwd: string, args: readonly string[]): Promise<string> {
  const { stdout } = await run('git', [...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 60_000 });
  return stdout.trim();
}

/** True when `git` ends with exit code 0. */
async function succeeds(cwd: string, args: readonly string[]): Promise<boolean> {
  return git(cwd, args).then(
    () => true,
    () => false,
  );
}

/**
 * The line of history from `target` through the commits `applied` after it, as the
 * repository at `dir` holds it: the newest of them (every other one, and the target, its
 * ancestor) and the commits from the target to it along first parents, newest first.
 * Never throws: undefined when Git cannot tell (no git, no repository, a commit the clone
 * does not hold, commits on no one line, or a target that is not on the newest's first-parent line).
 * @param target the target's short SHA
 */
export async function readGitLine(dir: string, target: string, applied: readonly AppliedCommit[]): Promise<GitLine | undefined> {
  try {
    const shas = [target, ...applied.map((c) => c.sha)];
    const full = new Map<string, string>();
    for (const sha of shas) full.set(sha, await git(dir, ['rev-parse', '--verify', '--quiet', `${sha}^{commit}`]));
    const resolved = (sha: string): string => full.get(sha) ?? sha;
    // The newest: the one every other is an ancestor of; tried newest applied first.
    const descendsFromAll = async (candidate: string): Promise<boolean> => {
      for (const other of shas) {
        if (resolved(other) !== resolved(candidate) && !(await succeeds(dir, ['merge-base', '--is-ancestor', resolved(other), resolved(candidate)]))) return false;
      }
      return true;
    };
    let tip: string | undefined;
    for (const candidate of [...shas].reverse()) {
      if (await descendsFromAll(candidate)) {
        tip = candidate;
        break;
      }
    }
    if (tip === undefined) return undefined;
    if (resolved(tip) === resolved(target)) return { tip, commits: [], merges: false };
    // Each line: the short SHA, then the full SHAs of its parents (the first parent first).
    const lines = (await git(dir, ['log', '--no-show-signature', '--first-parent', '--abbrev=7', '--format=%h %P', resolved(tip), `^${resolved(target)}`]))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.split(' '));
    // The first-parent line must reach the target: else reverting it does not give the target's tree.
    if (lines[lines.length - 1]?.[1] !== resolved(target)) return undefined;
    return { tip, commits: lines.map((l) => l[0] ?? ''), merges: lines.some((l) => l.length > 2) };
  } catch {
    return undefined;
  }
}
