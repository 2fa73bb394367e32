/**
 * The commit being applied, read from CI variables and `git log`: the I/O half of the
 * activation comment, whose format lives in src/engine/commit-comment.ts.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { CommitInfo } from '../../engine/commit-comment.js';

/**
 * Reads the commit from CI variables (`GITHUB_SHA`, `GITHUB_SERVER_URL`,
 * `GITHUB_REPOSITORY`, `GITHUB_RUN_ID`; `CI_COMMIT_SHA`, `CI_PIPELINE_URL` of GitLab) and
 * `git log -1` in `cwd`, and whether the working tree holds changes to tracked files (`dirty`,
 * as `git describe --dirty` decides it: untracked files do not count) under `projectPaths`
 * (the project's directory and the manifest paths given; the whole repository when none):
 * what the run reads. Never throws: a missing git or repository yields fewer fields.
 */
export function readCommitInfo(env: Readonly<Record<string, string | undefined>>, cwd: string, projectPaths: readonly string[] = []): CommitInfo {
  const sha = env.GITHUB_SHA ?? env.CI_COMMIT_SHA;
  let runUrl: string | undefined;
  if (env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID) {
    runUrl = `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`;
  } else if (env.CI_PIPELINE_URL) {
    runUrl = env.CI_PIPELINE_URL;
  }
  let fromGit: { sha: string; subject: string; author: string } | undefined;
  try {
    const out = execFileSync('git', ['log', '-1', '--format=%H%n%s%n%an', ...(sha ? [sha] : [])], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    });
    const [fullSha = '', subject = '', author = ''] = out.split('\n');
    if (fullSha) fromGit = { sha: fullSha, subject, author };
  } catch {
    fromGit = undefined;
  }
  return {
    sha: sha ?? fromGit?.sha,
    subject: fromGit?.subject,
    author: fromGit?.author,
    runUrl,
    ...(fromGit !== undefined && workingTreeDirty(cwd, projectPaths) ? { dirty: true } : {}),
  };
}

/** True when tracked files under `paths` (absolute or relative to `cwd`; all when none) differ from HEAD, in the index or the working tree; false also when git cannot tell. */
export function workingTreeDirty(cwd: string, paths: readonly string[] = []): boolean {
  try {
    const out = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', ...paths.map((p) => path.resolve(cwd, p))], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    });
    return out.trim() !== '';
  } catch {
    return false;
  }
}
