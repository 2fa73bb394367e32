/**
 * The base of a drift report read from Git (README.md "Drift", "Three sides"): the desired
 * state the project's manifests made at the commit this project last applied, for the same
 * target and variant. The commit's tree is written into a temporary directory through a
 * temporary index (`git read-tree` and `git checkout-index`: the repository's own index and
 * working tree are never touched), and the project is loaded from there as `prepare`
 * loads it now: the project file, its overlays and manifests as they were at that commit.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { GwopsError } from '../../errors.js';
import type { State } from '../../engine/model.js';
import type { Variant } from '../../kinds/index.js';
import type { RunInput } from '../plan.js';
import { prepare } from '../plan.js';

const run = promisify(execFile);

/** A base read from Git, or why it could not be. */
export type GitBase = { readonly desired: State } | { readonly unavailable: string };

async function git(cwd: string, args: readonly string[], env?: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await run('git', [...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 120_000, ...(env ? { env } : {}) });
  return stdout.trim();
}

/** `p` (absolute or relative to `cwd`) inside the tree written at `root`, when it lies in the repository at `top`. */
function inTree(p: string, cwd: string, top: string, root: string): string {
  const absolute = path.resolve(cwd, p);
  const relative = path.relative(top, absolute);
  return relative.startsWith('..') || path.isAbsolute(relative) ? absolute : path.join(root, relative);
}

/**
 * The desired state of the project at commit `sha` (a prefix of at least 7 hex digits).
 * Never throws for an expected failure: no repository, a commit this clone does not hold
 * (a shallow clone), manifests that do not load at that commit; each is told as
 * `unavailable`, one line.
 * @param input the run's input (its `cwd`, `paths`, `configFile` and `target` are read at the commit)
 * @param variant the variant the desired state now was prepared for
 */
export async function readGitBase(input: RunInput, sha: string, variant: Variant): Promise<GitBase> {
  if (input.paths.includes('-')) return { unavailable: 'the manifests are read from standard input, which Git holds no earlier version of' };
  let top: string;
  let full: string;
  try {
    top = await realpath(await git(input.cwd, ['rev-parse', '--show-toplevel']));
  } catch {
    return { unavailable: `${input.cwd} is not in a Git repository` };
  }
  try {
    full = await git(top, ['rev-parse', '--verify', '--quiet', `${sha}^{commit}`]);
  } catch {
    const shallow = await git(top, ['rev-parse', '--is-shallow-repository']).catch(() => 'false');
    return {
      unavailable:
        `commit ${sha} is not in this clone` +
        (shallow === 'true' ? ' (it is a shallow clone: fetch the whole history, e.g. actions/checkout with fetch-depth: 0)' : ' (fetch the history that holds it)'),
    };
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'gwops-base-'));
  try {
    const root = path.join(dir, 'tree');
    const env = { ...process.env, GIT_INDEX_FILE: path.join(dir, 'index') };
    await git(top, ['read-tree', full], env);
    await git(top, ['checkout-index', '--all', '--force', `--prefix=${root}${path.sep}`], env);
    const cwd = inTree(await realpath(input.cwd), input.cwd, top, root);
    const loaded = await prepare({
      ...input,
      cwd,
      paths: input.paths.map((p) => inTree(p, input.cwd, top, root)),
      ...(input.configFile !== undefined ? { configFile: inTree(input.configFile, input.cwd, top, root) } : {}),
      variant,
      allowEmpty: true,
      keepOrigins: false,
      progress: undefined,
    });
    return { desired: loaded.result.desired };
  } catch (error) {
    if (!(error instanceof GwopsError)) throw error;
    const first = error.message.split('\n')[0] ?? '';
    return { unavailable: `the project does not load at commit ${sha}: ${first}` };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
