/**
 * The demo's Git repository: the examples the demo applies, committed once with a fixed
 * author, date and message, so the activation comment that `gwops apply` derives from the
 * commit (src/engine/commit-comment.ts) reads the same in every run, wherever gwops is
 * installed: `gwops apply: <sha7> <DEMO_COMMIT_SUBJECT> (gwops demo)`.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The subject of the demo's commit, the activation comment's subject. */
export const DEMO_COMMIT_SUBJECT = 'Publish the example shop and the token API through the gateway';

/** The demo commit's author, the comment's parenthesised part. */
export const DEMO_COMMIT_AUTHOR = 'gwops demo';

/** The examples copied into the repository, relative to examples/ (their layout kept: the project files' relative paths hold). */
const EXAMPLE_PARTS = ['manifests', 'demo/gwops.yaml', 'login-app/manifests'] as const;

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));

/** Where the projects of the demo are. */
export interface DemoRepository {
  /** The working directory of the demo's commands. */
  readonly cwd: string;
  /** The demo project's file (examples/demo/gwops.yaml). */
  readonly demoProject: string;
  /** The login-app example's manifests. */
  readonly loginAppManifests: string;
}

/**
 * Copies the examples into `<dir>/example-repository` and commits them there with
 * {@link DEMO_COMMIT_SUBJECT}, author {@link DEMO_COMMIT_AUTHOR} and a fixed date, as a
 * throw-away repository of the demo (the user's Git configuration does not matter: no
 * signing, no hooks).
 * @returns undefined when git is not installed or the commit fails: the demo then runs on the examples in place
 */
export async function demoRepository(dir: string): Promise<DemoRepository | undefined> {
  const repo = join(dir, 'example-repository');
  try {
    for (const part of EXAMPLE_PARTS) {
      await mkdir(join(repo, 'examples', part, '..'), { recursive: true });
      await cp(join(EXAMPLES, part), join(repo, 'examples', part), { recursive: true });
    }
    const date = '2026-11-02T09:00:00Z';
    const env = {
      ...process.env,
      GIT_AUTHOR_NAME: DEMO_COMMIT_AUTHOR,
      GIT_AUTHOR_EMAIL: 'demo@example.com',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_NAME: DEMO_COMMIT_AUTHOR,
      GIT_COMMITTER_EMAIL: 'demo@example.com',
      GIT_COMMITTER_DATE: date,
    };
    const git = (args: readonly string[]): Promise<unknown> =>
      run('git', ['-c', 'commit.gpgsign=false', '-c', 'core.hooksPath=/dev/null', '-c', 'core.autocrlf=false', ...args], { cwd: repo, env, timeout: 30_000 });
    await git(['init', '-q']);
    await git(['add', '-A']);
    await git(['commit', '-q', '--no-verify', '-m', DEMO_COMMIT_SUBJECT]);
  } catch {
    return undefined;
  }
  return {
    cwd: repo,
    demoProject: join(repo, 'examples', 'demo', 'gwops.yaml'),
    loginAppManifests: join(repo, 'examples', 'login-app', 'manifests'),
  };
}
