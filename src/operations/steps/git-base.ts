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
import { GwopsError } from '../../core/errors.js';
import type { State } from '../../engine/model.js';
import type { Variant } from '../../kinds/index.js';
import type { Prepared, RunInput } from './pipeline.js';
import { prepare } from './pipeline.js';

const run = promisify(execFile);

/** A base read from Git, or why it could not be. */
export type GitBase = { readonly desired: State } | { readonly unavailable: string };

async function git(cwd: string, args: readonly string[], env?: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await run('git', [...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 120_000, ...(env ? { env } : {}) });
  return stdout.trim();
}

/** The directory of the project: its project file's, else the run's working directory. */
export function projectDirectory(prepared: Prepared, input: RunInput): string {
  const file = prepared.loaded.project.file;
  return file !== undefined ? path.dirname(file) : input.cwd;
}

/** The top directory of the Git work tree holding `dir` (its real path), or undefined when there is none (or no git). */
export async function gitTopLevel(dir: string): Promise<string | undefined> {
  try {
    return await realpath(await git(dir, ['rev-parse', '--show-toplevel']));
  } catch {
    return undefined;
  }
}

/** The real path of `p` (absolute), or `p` when it does not exist. */
function real(p: string): Promise<string> {
  return realpath(p).catch(() => p);
}

/** True when `p` (absolute; its real path when it exists) lies under `top`. */
async function insideOf(top: string, p: string): Promise<boolean> {
  const relative = path.relative(top, await real(p));
  return !relative.startsWith('..') && !path.isAbsolute(relative);
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
export async function readGitBase(input: RunInput, sha: string, variant: Variant, projectDir: string): Promise<GitBase> {
  if (input.paths.includes('-')) return { unavailable: 'the manifests are read from standard input, which Git holds no earlier version of' };
  const top = await gitTopLevel(projectDir);
  if (top === undefined) return { unavailable: `the project (${projectDir}) is not in a Git repository` };
  const read = [projectDir, ...input.paths.map((p) => path.resolve(input.cwd, p)), ...(input.configFile !== undefined ? [path.resolve(input.cwd, input.configFile)] : [])];
  const outside = (await Promise.all(read.map(async (p) => ((await insideOf(top, p)) ? undefined : p)))).find((p) => p !== undefined);
  if (outside !== undefined) return { unavailable: `${outside} is not in the Git repository of the project (${top})` };
  let full: string;
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
    try {
      await git(top, ['read-tree', full], env);
      await git(top, ['checkout-index', '--all', '--force', `--prefix=${root}${path.sep}`], env);
    } catch (error) {
      const words = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
      return { unavailable: `the tree of commit ${sha} could not be read from Git (${words})` };
    }
    const realCwd = await real(input.cwd);
    const cwd = inTree(realCwd, realCwd, top, root);
    const loaded = await prepare({
      ...input,
      cwd,
      paths: await Promise.all(input.paths.map(async (p) => inTree(await real(path.resolve(input.cwd, p)), realCwd, top, root))),
      ...(input.configFile !== undefined ? { configFile: inTree(await real(path.resolve(input.cwd, input.configFile)), realCwd, top, root) } : {}),
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
