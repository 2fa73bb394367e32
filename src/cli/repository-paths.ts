/**
 * Manifest paths as a reader of the repository finds them: from the root of the repository
 * (GitHub's workspace in Actions, else the top of the Git work tree), whatever directory gwops
 * runs in (the action's `working-directory`, a project in a subdirectory). Used where a path
 * is read beside the repository rather than in a terminal: the markdown plan of a
 * pull-request comment (docs/ci-guide.md "The plan comment").
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { gitTopLevel } from '../operations/steps/git-base.js';
import type { CliIO } from './io.js';

/**
 * How a manifest path (relative to `io.cwd`, or absolute) is shown from the repository's
 * root: `GITHUB_WORKSPACE` when set, else `git rev-parse --show-toplevel` of `io.cwd`. A
 * path outside that root, stdin (`-`), and every path when there is no root stay as they
 * are. Separators are `/`.
 */
export async function repositoryPaths(io: Pick<CliIO, 'cwd' | 'env'>): Promise<(file: string) => string> {
  const workspace = io.env.GITHUB_WORKSPACE;
  const root = workspace !== undefined && workspace !== '' ? resolve(io.cwd, workspace) : await gitTopLevel(io.cwd);
  if (root === undefined) return (file) => file;
  // The top of a work tree is a real path: the working directory is compared as one too.
  const base = workspace !== undefined && workspace !== '' ? io.cwd : await realpath(io.cwd).catch(() => io.cwd);
  return (file) => {
    if (file === '-') return file;
    const fromRoot = relative(root, resolve(base, file));
    if (fromRoot === '' || fromRoot === '..' || fromRoot.startsWith(`..${sep}`) || isAbsolute(fromRoot)) return file;
    return fromRoot.split(sep).join('/');
  };
}
