/**
 * The activation comment derived from the commit being applied, so the gateway's
 * configuration history points back to Git: `gwops: <short sha> <subject> (<author>)`,
 * plus the CI run URL when known.
 */
import { execFileSync } from 'node:child_process';

/** What the comment is made of; every field optional. */
export interface CommitInfo {
  readonly sha?: string;
  readonly subject?: string;
  readonly author?: string;
  readonly runUrl?: string;
}

/**
 * Reads the commit from CI variables (`GITHUB_SHA`, `GITHUB_SERVER_URL`,
 * `GITHUB_REPOSITORY`, `GITHUB_RUN_ID`; `CI_COMMIT_SHA`, `CI_PIPELINE_URL` of GitLab) and
 * `git log -1` in `cwd`. Never throws: a missing git or repository yields fewer fields.
 */
export function readCommitInfo(env: Readonly<Record<string, string | undefined>>, cwd: string): CommitInfo {
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
  };
}

/** Formats the activation comment; `gwops apply` when nothing is known. */
export function activationComment(info: CommitInfo): string {
  const parts = ['gwops apply'];
  if (info.sha) parts.push(info.sha.slice(0, 7));
  if (info.subject) parts.push(info.subject);
  let comment = parts.join(': ').replace(/^gwops apply: ([0-9a-f]{7}): /, 'gwops apply: $1 ');
  if (info.author) comment += ` (${info.author})`;
  if (info.runUrl) comment += ` ${info.runUrl}`;
  return comment;
}
