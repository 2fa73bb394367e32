/**
 * A stand-in for the GitHub runner that runs one job of a workflow file the way a runner
 * does: in a workspace that is a copy of this repository (what actions/checkout leaves),
 * each `run:` step in `bash --noprofile --norc -eo pipefail` with the GITHUB_* and RUNNER_*
 * variables, GITHUB_ENV carried to later steps, GITHUB_OUTPUT read back as the step's
 * outputs, GITHUB_STEP_SUMMARY kept, `if:` (success(), failure(), always()) and
 * `continue-on-error` honoured. The workspace's environment is clean: nothing of the test's
 * own environment but PATH.
 *
 * What cannot run here is substituted, and each substitution is named in the result:
 * `uses: ./` (this repository's action) runs its composite steps (action-runner.ts), with
 * its build cache restored from the build `npm test` made; actions/checkout is the
 * workspace already there, actions/setup-node the node running this test, and
 * actions/upload-artifact checks that what it would upload exists. `run:` steps listed in
 * `skip` (they need the network or are the test suite itself) are not run. Any other action
 * or expression is refused, so a workflow cannot start relying on something this runner does
 * not model without this test noticing.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import type { ActionFile, ActionStep } from './action-runner.js';
import { ROOT, parseOutputFile, runComposite } from './action-runner.js';
import type { Job, Step } from './workflow-values.js';
import { list, obj, str } from './workflow-values.js';

/** A copy of this repository's files (tracked and new, as on disk), made a Git repository of one commit. */
export function copyOfRepository(): string {
  const workspace = mkdtempSync(join(tmpdir(), 'gwops-workspace-'));
  const files = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).stdout.split('\0');
  for (const file of files) {
    if (file === '' || !existsSync(join(ROOT, file))) continue;
    mkdirSync(dirname(join(workspace, file)), { recursive: true });
    cpSync(join(ROOT, file), join(workspace, file));
  }
  git(workspace, ['init', '--quiet', '--initial-branch=main']);
  git(workspace, ['add', '--all']);
  git(workspace, ['commit', '--quiet', '--no-verify', '--message', 'the checkout']);
  return workspace;
}

/**
 * Lets `npm pack` in the copy skip the build its `prepack` starts with: dist/ and
 * dist-tools/ of this checkout (built by `npm test`) are copied in instead, and the rest of
 * the pack lifecycle runs as written (prepack's strip of `prepare`, postpack's restore).
 * Committed, so the copy's tree stays clean. Returns what stands in for what, for the job's list.
 */
export function prebuilt(workspace: string): string {
  for (const dir of ['dist', 'dist-tools']) cpSync(join(ROOT, dir), join(workspace, dir), { recursive: true });
  const file = join(workspace, 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as { scripts: Record<string, string> };
  const build = 'npm run build:tools && ';
  if (!manifest.scripts.prepack?.startsWith(build)) throw new Error(`prepack does not start with '${build}'`);
  manifest.scripts.prepack = manifest.scripts.prepack.slice(build.length);
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  git(workspace, ['commit', '--quiet', '--all', '--message', 'the build of npm test stands in for the one of prepack']);
  return "prepack: the build of npm test (dist/ and dist-tools/ of this checkout) stands in for its 'npm run build:tools'";
}

/** Runs git in `cwd` with a fixed identity; throws with its output when it fails. */
export function git(cwd: string, args: readonly string[]): string {
  const env = { PATH: process.env.PATH ?? '', HOME: cwd, GIT_AUTHOR_NAME: 'gwops test', GIT_AUTHOR_EMAIL: 'test@example.com', GIT_COMMITTER_NAME: 'gwops test', GIT_COMMITTER_EMAIL: 'test@example.com', GIT_CONFIG_NOSYSTEM: '1' };
  const r = spawnSync('git', args, { cwd, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** What one step did. */
export interface WorkflowStepResult {
  readonly outcome: 'success' | 'failure' | 'skipped';
  readonly outputs: Record<string, string>;
  readonly log: string;
}

/** What a job did. */
export interface JobResult {
  /** success when every step succeeded (or failed with continue-on-error). */
  readonly conclusion: 'success' | 'failure';
  /** Per step (id, else name, else its `run:`/`uses:`), in order. */
  readonly steps: Record<string, WorkflowStepResult>;
  /** The steps that ran as written. */
  readonly ran: readonly string[];
  /** What was not run as written, and what stood in for it. */
  readonly substituted: readonly string[];
  readonly log: string;
  readonly summary: string;
}

/** Options of {@link runJob}. */
export interface JobOptions {
  /** The workflow file, relative to the workspace. */
  readonly workflow: string;
  readonly job: string;
  /** A copy of the repository ({@link copyOfRepository}). */
  readonly workspace: string;
  /** GITHUB_EVENT_NAME (default push) and GITHUB_REF (default refs/heads/main). */
  readonly event?: string;
  readonly ref?: string;
  /** `run:` steps (their text, trimmed) not to run, with the reason. */
  readonly skip?: Record<string, string>;
  /** Directories put first on PATH (stand-ins of network tools such as gh). */
  readonly path?: readonly string[];
  /** Environment added to every step (the repository's secrets do not exist here). */
  readonly env?: Record<string, string>;
}

const keyOf = (step: Step, index: number): string => step.id ?? (step.name !== undefined ? str(step.name) : str(step.run ?? step.uses) || `step-${index}`);

/** Runs the steps of one job; background processes its steps started are ended when it is done. */
export function runJob(options: JobOptions): JobResult {
  const { workspace } = options;
  const workflow = obj(parse(readFileSync(join(workspace, options.workflow), 'utf8')));
  const job = obj(obj(workflow.jobs)[options.job]) as Job;
  if (!Object.keys(job).length) throw new Error(`${options.workflow} has no job ${options.job}`);
  if (job.defaults !== undefined) throw new Error('job defaults are not modelled');
  const temp = mkdtempSync(join(tmpdir(), 'gwops-runner-'));
  const runnerTemp = join(temp, 'temp');
  const home = join(temp, 'home');
  mkdirSync(runnerTemp);
  mkdirSync(home);
  const envFile = join(temp, 'env');
  const summaryFile = join(temp, 'summary.md');
  writeFileSync(envFile, '');
  writeFileSync(summaryFile, '');
  if (!existsSync(join(workspace, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(workspace, 'node_modules'));
  const sha = git(workspace, ['rev-parse', 'HEAD']).trim();
  const ref = options.ref ?? 'refs/heads/main';
  const matrix = Object.fromEntries(Object.entries(obj(obj(job.strategy).matrix)).map(([k, v]) => [k, str(list(v)[0] ?? v)]));
  const github: Record<string, string> = {
    token: 'fake-token',
    repository: 'your-org/gwops',
    repository_owner: 'your-org',
    ref,
    ref_name: ref.replace(/^refs\/(heads|tags)\//, ''),
    sha,
    event_name: options.event ?? 'push',
    workspace,
    run_id: '1234567890',
    job: options.job,
    server_url: 'https://github.com',
  };
  const base: Record<string, string> = {
    PATH: [...(options.path ?? []), dirname(process.execPath), process.env.PATH ?? ''].join(':'),
    HOME: home,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: workspace,
    GITHUB_REPOSITORY: github.repository ?? '',
    GITHUB_REPOSITORY_OWNER: 'your-org',
    GITHUB_REF: ref,
    GITHUB_REF_NAME: github.ref_name ?? '',
    GITHUB_REF_TYPE: ref.startsWith('refs/tags/') ? 'tag' : 'branch',
    GITHUB_SHA: sha,
    GITHUB_EVENT_NAME: github.event_name ?? '',
    GITHUB_RUN_ID: github.run_id ?? '',
    GITHUB_RUN_NUMBER: '1',
    GITHUB_JOB: options.job,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: 'https://api.github.com',
    GITHUB_ENV: envFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    RUNNER_TEMP: runnerTemp,
    RUNNER_OS: 'Linux',
    RUNNER_ARCH: 'X64',
    ...options.env,
  };
  const steps: Record<string, WorkflowStepResult> = {};
  const ran: string[] = [];
  const substituted: string[] = [];
  const groups: number[] = [];
  let log = '';
  let failed = false;

  const expression = (text: string): string => {
    const [head, ...rest] = text.split('.');
    const path = rest.join('.');
    if (head === 'matrix' && path in matrix) return matrix[path] ?? '';
    if (head === 'runner' && path === 'temp') return runnerTemp;
    if (head === 'runner' && path === 'os') return 'Linux';
    if (head === 'github' && path in github) return github[path] ?? '';
    if (head === 'secrets' && path === 'GITHUB_TOKEN') return 'fake-token';
    const output = /^steps\.([\w-]+)\.(outputs\.([\w-]+)|outcome|conclusion)$/.exec(text);
    if (output?.[1] !== undefined) {
      const step = steps[output[1]];
      if (output[3] !== undefined) return step?.outputs[output[3]] ?? '';
      return step?.outcome ?? '';
    }
    throw new Error(`expression '${text}' is not modelled by test/ci/workflow-runner.ts`);
  };
  const interpolate = (text: string): string => text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_all, e: string) => expression(e));
  const condition = (value: unknown): boolean => {
    if (value === undefined) return !failed;
    const text = str(value).replace(/^\$\{\{\s*|\s*\}\}$/g, '').trim();
    if (text === 'always()') return true;
    if (text === 'success()') return !failed;
    if (text === 'failure()') return failed;
    throw new Error(`condition '${text}' is not modelled by test/ci/workflow-runner.ts`);
  };
  const envOf = (step: Step): Record<string, string> => {
    const env: Record<string, string> = { ...base };
    for (const [k, v] of Object.entries({ ...obj(workflow.env), ...obj(job.env) })) env[k] = interpolate(str(v));
    Object.assign(env, parseOutputFile(readFileSync(envFile, 'utf8')));
    for (const [k, v] of Object.entries(obj(step.env))) env[k] = interpolate(str(v));
    return env;
  };

  list(job.steps).forEach((raw, index) => {
    const step = obj(raw) as Step;
    const key = keyOf(step, index);
    if (!condition(step.if)) {
      steps[key] = { outcome: 'skipped', outputs: {}, log: '' };
      return;
    }
    let outcome: WorkflowStepResult['outcome'] = 'success';
    let outputs: Record<string, string> = {};
    let stepLog = '';
    if (step.run !== undefined) {
      const reason = options.skip?.[step.run.trim()];
      if (reason !== undefined) {
        substituted.push(`${key}: not run (${reason})`);
        steps[key] = { outcome: 'success', outputs: {}, log: '' };
        return;
      }
      if (step.shell !== undefined && step.shell !== 'bash') throw new Error(`step ${key}: only bash is modelled`);
      const outputFile = join(temp, `output-${index}`);
      writeFileSync(outputFile, '');
      const cwd = resolve(workspace, interpolate(str(step['working-directory'] ?? '.')));
      // setsid: the step's processes form a group of their own, ended with the job (a server
      // started in the background, as a runner ends it).
      const r = spawnSync('setsid', ['bash', '--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], {
        cwd,
        env: { ...envOf(step), GITHUB_OUTPUT: outputFile },
        encoding: 'utf8',
        timeout: 180_000,
      });
      if (r.pid) groups.push(r.pid);
      stepLog = `${r.stdout}${r.stderr}`;
      outcome = r.status === 0 ? 'success' : 'failure';
      outputs = parseOutputFile(readFileSync(outputFile, 'utf8'));
      ran.push(key);
    } else {
      const uses = str(step.uses);
      const withs = Object.fromEntries(Object.entries(obj(step.with)).map(([k, v]) => [k, interpolate(str(v))]));
      if (uses === './') {
        const action = parse(readFileSync(join(workspace, 'action.yml'), 'utf8')) as ActionFile;
        const env = envOf(step);
        delete env.GITHUB_OUTPUT;
        const result = runComposite(action, { with: withs, env: { ...env, GITHUB_ACTION_PATH: workspace }, cwd: workspace, uses: compositeUses(workspace, substituted) });
        stepLog = result.log;
        outputs = result.outputs;
        outcome = result.code === 0 ? 'success' : 'failure';
        ran.push(key);
      } else if (/^actions\/checkout@/.test(uses)) {
        substituted.push(`${key}: ${uses} = the copy of this repository the job runs in`);
      } else if (/^actions\/setup-node@/.test(uses)) {
        substituted.push(`${key}: ${uses} = node ${process.version}, which runs this test (node-version ${withs['node-version'] ?? ''} asked)`);
      } else if (/^actions\/upload-artifact@/.test(uses)) {
        const path = withs.path ?? '';
        if (!existsSync(resolve(workspace, path))) outcome = 'failure';
        substituted.push(`${key}: ${uses} = a check that ${path} exists`);
      } else {
        throw new Error(`step ${key}: ${uses} is not modelled by test/ci/workflow-runner.ts`);
      }
    }
    log += stepLog;
    steps[key] = { outcome, outputs, log: stepLog };
    if (outcome === 'failure' && step['continue-on-error'] !== true) failed = true;
  });
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGTERM');
    } catch {
      // The group has ended already.
    }
  }
  return { conclusion: failed ? 'failure' : 'success', steps, ran, substituted, log, summary: readFileSync(summaryFile, 'utf8') };
}

/**
 * The `uses:` steps inside action.yml: the build cache is restored with the build `npm test`
 * made (dist/ of this checkout, stamped with the cache key as the action's install step
 * stamps a build it made); setup-node is the node running this test; upload-artifact and
 * github-script (a pull request's comment, through the network) are not run.
 */
function compositeUses(workspace: string, substituted: string[]): (step: ActionStep, resolve: (text: string) => string) => Record<string, string> {
  return (step, resolveText): Record<string, string> => {
    const uses = step.uses ?? '';
    if (/^actions\/cache@/.test(uses) && resolveText('${{ inputs.package }}') === '') {
      const key = resolveText(step.with?.key ?? '');
      const dist = join(workspace, 'dist');
      if (!existsSync(join(dist, '.gwops-action-build'))) {
        cpSync(join(ROOT, 'dist'), dist, { recursive: true });
        writeFileSync(join(dist, '.gwops-action-build'), `${key}\n`);
        substituted.push(`action.yml ${uses}: a cache hit, restoring the build of this checkout under ${key}`);
      }
      return { 'cache-hit': 'true' };
    }
    if (/^actions\/(setup-node|upload-artifact|github-script)@/.test(uses)) return {};
    throw new Error(`action.yml: ${uses} is not modelled by test/ci/workflow-runner.ts`);
  };
}
