/**
 * The GitHub Actions files: every workflow under .github/workflows/, every recipe in
 * examples/ci/, the workflow `gwops init` writes (templates/init/workflow.yml) and action.yml. Each parses as YAML (no duplicate keys) and is valid against
 * the stored JSON Schemas in test/ci/schemas/ (written for gwops: no npm package ships
 * GitHub's own; see their `$comment`). Then what a schema cannot see: references between
 * steps, jobs and the action resolve, the recipes use nothing but the action and
 * actions/*, every apply passes `--yes` and runs in an environment, the secrets the
 * manifests read are passed, and no expression is spliced into a shell script.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ROOT, loadAction, yamlFiles } from './action-runner.js';
import type { Job, Obj, Step } from './workflow-values.js';
import { conditionsAndExpressions, jobsOf, list, needsOf, obj, stepsOf, str } from './workflow-values.js';

/** Parses a YAML file; parse errors and warnings (a duplicate key is an error) fail the test. */
function readYaml(file: string): Obj {
  const doc = parseDocument(readFileSync(file, 'utf8'), { prettyErrors: true });
  expect([...doc.errors, ...doc.warnings].map((e) => e.message), relative(ROOT, file)).toEqual([]);
  return obj(doc.toJS());
}

const WORKFLOWS = yamlFiles('.github/workflows');
const RECIPES = yamlFiles('examples/ci');
const INIT_WORKFLOW = join(ROOT, 'templates/init/workflow.yml');
const ACTION_FILE = join(ROOT, 'action.yml');
const FILES = [...WORKFLOWS, ...RECIPES, INIT_WORKFLOW, ACTION_FILE];
const name = (file: string): string => relative(ROOT, file);

const ajv = new Ajv2020.default({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
const schema = (file: string): Obj => obj(JSON.parse(readFileSync(join(ROOT, 'test/ci/schemas', file), 'utf8')));
const validateWorkflow = ajv.compile(schema('github-workflow.schema.json'));
const validateAction = ajv.compile(schema('github-action.schema.json'));
const problems = (errors: ErrorObject[] | null | undefined): string[] =>
  (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${e.params ? JSON.stringify(e.params) : ''}`);

const action = loadAction();
const ACTION_REF = /^[\w.-]+\/gwops@v\d+$/;
const isGwopsAction = (uses: string | undefined): boolean => uses !== undefined && (ACTION_REF.test(uses) || uses === './');

/** Names of the `{ fromEnv: NAME }` secrets the example manifests read. */
const MANIFEST_SECRETS = [
  ...new Set(
    readdirSync(join(ROOT, 'examples/manifests'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.yaml'))
      .flatMap((f) => [...readFileSync(join(ROOT, 'examples/manifests', f), 'utf8').matchAll(/fromEnv:\s*([A-Z0-9_]+)/g)].map((m) => m[1] ?? '')),
  ),
].sort();

describe('YAML and schema', () => {
  it('finds the files', () => {
    expect(WORKFLOWS.map(name)).toContain('.github/workflows/ci.yml');
    expect(RECIPES.map(name)).toEqual([
      'examples/ci/apply-on-merge.yml',
      'examples/ci/apply-to-targets.yml',
      'examples/ci/nightly-drift.yml',
      'examples/ci/plan-on-pull-request.yml',
    ]);
    expect(MANIFEST_SECRETS).toEqual(['GWOPS_EXAMPLE_SHOP_TLS_KEY', 'GWOPS_EXAMPLE_WILDCARD_TLS_KEY']);
  });

  for (const file of [...WORKFLOWS, ...RECIPES, INIT_WORKFLOW]) {
    it(`${name(file)} is a valid workflow`, () => {
      const ok = validateWorkflow(readYaml(file));
      expect(problems(validateWorkflow.errors), name(file)).toEqual([]);
      expect(ok).toBe(true);
    });
  }

  it('action.yml is valid action metadata', () => {
    const ok = validateAction(readYaml(ACTION_FILE));
    expect(problems(validateAction.errors)).toEqual([]);
    expect(ok).toBe(true);
  });

  it('the schemas reject what they are there to catch', () => {
    const job = (steps: unknown[], extra: Obj = {}): Obj => ({ on: 'push', jobs: { a: { 'runs-on': 'ubuntu-latest', steps, ...extra } } });
    const valid = (w: Obj): boolean => validateWorkflow(w);
    expect(valid(job([{ run: 'true' }]))).toBe(true);
    expect(valid(job([{ run: 'true', uses: 'actions/checkout@v4' }])), 'run and uses').toBe(false);
    expect(valid(job([{ uses: 'actions/checkout@v4', shell: 'bash' }])), 'shell on uses').toBe(false);
    expect(valid(job([{ name: 'nothing' }])), 'neither run nor uses').toBe(false);
    expect(valid(job([{ run: 'true', 'timeout-minute': 3 }])), 'misspelt key').toBe(false);
    expect(valid(job([{ uses: 'actions/checkout' }])), 'uses without a ref').toBe(false);
    expect(valid(job([{ run: 'true' }], { 'runs-on': undefined, runs_on: 'x' })), 'runs_on').toBe(false);
    expect(valid(job([{ run: 'true' }], { environment: { url: 'https://x' } })), 'environment without name').toBe(false);
    expect(valid({ ...job([{ run: 'true' }]), on: { pull_requests: null } }), 'unknown event').toBe(false);
    expect(valid({ ...job([{ run: 'true' }]), on: { push: { branches: ['main'], 'branches-ignore': ['x'] } } }), 'branches and branches-ignore').toBe(false);
    expect(valid({ ...job([{ run: 'true' }]), on: { schedule: [{ cron: '17 3 * *' }] } }), 'cron of 4 fields').toBe(false);
    expect(valid({ ...job([{ run: 'true' }]), permissions: { 'pull-request': 'write' } }), 'permission name').toBe(false);

    const composite = (steps: unknown[], extra: Obj = {}): boolean =>
      validateAction({ name: 'x', description: 'y', runs: { using: 'composite', steps }, ...extra });
    expect(composite([{ run: 'true', shell: 'bash' }])).toBe(true);
    expect(composite([{ run: 'true' }]), 'run step without shell').toBe(false);
    expect(composite([{ run: 'true', shell: 'bash', 'timeout-minutes': 3 }]), 'timeout-minutes in a composite').toBe(false);
    expect(composite([{ run: 'true', shell: 'bash' }], { outputs: { o: { description: 'd' } } }), 'composite output without value').toBe(false);
    expect(composite([{ run: 'true', shell: 'bash' }], { inputs: { i: { default: 'x' } } }), 'input without description').toBe(false);
  });
});

describe('no expression inside a shell script', () => {
  // `${{ … }}` in `run:` is pasted into the script before the shell sees it: a branch name
  // or an input could inject commands. Values reach scripts through `env:` instead.
  for (const file of FILES) {
    it(name(file), () => {
      const doc = readYaml(file);
      const steps = file === ACTION_FILE ? list(obj(doc.runs).steps).map((s) => obj(s) as Step) : jobsOf(doc).flatMap(([, job]) => stepsOf(job));
      for (const step of steps) expect(step.run ?? '', `${name(file)}: step ${str(step.name ?? step.id)}`).not.toContain('${{');
    });
  }
});

/** The outputs of the actions that action.yml reads an output of (their action.yml). */
const ACTION_OUTPUTS: Record<string, readonly string[]> = { 'actions/upload-artifact': ['artifact-id', 'artifact-url', 'artifact-digest'] };

describe('action.yml', () => {
  const doc = readYaml(ACTION_FILE);
  const steps = action.runs.steps;

  it('uses nothing but actions/setup-node, actions/cache, actions/upload-artifact and actions/github-script', () => {
    const uses = steps.flatMap((s) => (s.uses ? [s.uses] : []));
    expect(uses.map((u) => u.replace(/@v\d+$/, ''))).toEqual(['actions/setup-node', 'actions/cache', 'actions/upload-artifact', 'actions/github-script']);
  });

  it('caches the build of its own checkout under the key of its build step, unless a package is given', () => {
    const cache = steps.find((s) => s.uses?.startsWith('actions/cache@'));
    expect(cache?.if).toBe("inputs.package == ''");
    expect(cache?.with?.key).toBe('${{ steps.build.outputs.key }}');
    expect(cache?.with?.path?.split('\n').filter((l) => l !== '')).toEqual(['${{ steps.build.outputs.node-modules }}', '${{ steps.build.outputs.dist }}']);
  });

  // Outputs are written as `echo "name=…" >> "$GITHUB_OUTPUT"`.
  it('refers only to inputs it declares, to steps before the reference, and to outputs those steps write', () => {
    const declared = Object.keys(action.inputs);
    for (const expression of conditionsAndExpressions(doc)) {
      for (const [, input] of expression.matchAll(/\binputs\.([\w-]+)/g)) expect(declared, expression).toContain(input);
      expect(expression, 'a composite action has no secrets or vars context').not.toMatch(/\b(secrets|vars)\./);
    }
    steps.forEach((step, index) => {
      for (const expression of conditionsAndExpressions(step)) {
        for (const [, id, output] of expression.matchAll(/\bsteps\.([\w-]+)\.outputs\.([\w-]+)/g)) {
          const source = steps.slice(0, index).find((s) => s.id === id);
          expect(source, `step ${step.id ?? step.name ?? index} reads steps.${id}, which does not come before it`).toBeDefined();
          const known = source?.uses !== undefined ? ACTION_OUTPUTS[source.uses.replace(/@v\d+$/, '')] : undefined;
          if (known) expect(known, `${source?.uses ?? ''} has the output ${output}`).toContain(output);
          else expect(source?.run ?? '', `step ${id} writes ${output}`).toContain(`output ${output} "`);
        }
      }
    });
    for (const [output, { value }] of Object.entries(action.outputs)) {
      const [, id, name] = /^\$\{\{ steps\.([\w-]+)\.outputs\.([\w-]+) \}\}$/.exec(value) ?? [];
      expect(id, `output ${output}`).toBeDefined();
      expect(steps.find((s) => s.id === id)?.run ?? '', `output ${output}`).toContain(`output ${name} "`);
    }
  });

  it('writes every output as a block with a random delimiter, never as a name=value line a value could end early', () => {
    for (const step of steps.filter((s) => s.run !== undefined)) {
      const writes = (step.run ?? '').split('\n').filter((line) => /\$\{?GITHUB_(OUTPUT|ENV)\b/.test(line));
      for (const line of writes) expect(line.trim(), `step ${step.id ?? step.name ?? ''}`).toBe(`printf '%s<<%s\\n%s\\n%s\\n' "$1" "$delimiter" "$2" "$delimiter" >> "$GITHUB_OUTPUT"`);
      if (writes.length > 0) expect(step.run, `step ${step.id ?? step.name ?? ''}`).toContain('delimiter="ghadelimiter_$(od -An -N16 -tx1 /dev/urandom');
    }
  });

  it('offers the commands and inputs the recipes and the README rely on', () => {
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['command', 'args', 'working-directory', 'package']));
    expect(Object.keys(action.outputs)).toEqual(expect.arrayContaining(['exitcode', 'has-changes']));
    expect(action.inputs.command?.required).toBe(true);
    expect(action.inputs.args?.description).toContain('--yes');
    expect(action.inputs.package?.default, 'the npm registry has no gwops: installing a package is opt-in').toBe('');
    expect(steps.find((s) => s.id === 'install')?.run).toContain('npm ci --ignore-scripts --no-audit --no-fund && npm run build');
  });
});

/** The `with:` of a step that uses the gwops action, checked against action.yml. */
function gwopsInputs(step: Step, where: string): { command: string; args: string } {
  const given = obj(step.with);
  for (const key of Object.keys(given)) expect(Object.keys(action.inputs), `${where}: input ${key}`).toContain(key);
  for (const [key, input] of Object.entries(action.inputs)) if (input.required === true) expect(given, `${where}: required input ${key}`).toHaveProperty(key);
  const command = str(given.command);
  expect(['validate', 'plan', 'apply', 'drift', 'targets'], `${where}: command`).toContain(command);
  return { command, args: str(given.args) };
}

describe('references between jobs, steps and the action', () => {
  for (const file of [...WORKFLOWS, ...RECIPES, INIT_WORKFLOW]) {
    it(name(file), () => {
      const workflow = readYaml(file);
      const jobs = new Map(jobsOf(workflow));
      for (const [jobId, job] of jobs) {
        const steps = stepsOf(job);
        for (const need of needsOf(job)) expect([...jobs.keys()], `${jobId} needs ${need}`).toContain(need);
        for (const expression of conditionsAndExpressions(job)) {
          for (const [, id, output] of expression.matchAll(/\bsteps\.([\w-]+)\.outputs\.([\w-]+)/g)) {
            const step = steps.find((s) => s.id === id);
            expect(step, `${jobId}: steps.${id}`).toBeDefined();
            if (isGwopsAction(step?.uses)) expect(Object.keys(action.outputs), `${jobId}: steps.${id}.outputs.${output}`).toContain(output);
          }
          for (const [, need, output] of expression.matchAll(/\bneeds\.([\w-]+)\.outputs\.([\w-]+)/g)) {
            expect(needsOf(job), `${jobId} reads needs.${need} without needing it`).toContain(need);
            expect(Object.keys(obj(jobs.get(need ?? '')?.outputs)), `${jobId}: needs.${need}.outputs.${output}`).toContain(output);
          }
          for (const [, key] of expression.matchAll(/\bmatrix\.([\w-]+)/g)) {
            const matrix = obj(obj(job.strategy).matrix);
            expect(Object.keys(matrix), `${jobId}: matrix.${key}`).toContain(key);
          }
        }
        for (const step of steps) if (isGwopsAction(step.uses)) gwopsInputs(step, `${jobId}: ${str(step.name ?? step.id)}`);
      }
    });
  }
});

/**
 * The gateway a gwops step works on: the value of `--target` in its args, else the name of
 * the job's environment (one target per environment; the workflow of gwops init has no
 * `--target`, its gwops.yaml one target). Undefined for a gateway on the runner itself
 * (`--url http://127.0.0.1…`, CI's emulator).
 */
function targetOf(args: string, job: Job): string | undefined {
  const given = /(?:^|\s)--target(?:=|\s+)(\$\{\{.*?\}\}|\S+)/.exec(args)?.[1];
  if (given !== undefined) return given;
  if (/--url\s+https?:\/\/(127\.0\.0\.1|localhost)[:/]/.test(args)) return undefined;
  return typeof job.environment === 'string' ? job.environment : str(obj(job.environment).name) || undefined;
}

describe('applies to one target never overlap, whichever workflow starts them', () => {
  // GitHub runs one job of a concurrency group at a time across all workflows of the
  // repository: the same group for the same target in every file serializes the applies
  // of apply-on-merge, apply-to-targets and the workflow of gwops init.
  for (const file of [...WORKFLOWS, ...RECIPES, INIT_WORKFLOW]) {
    it(`${name(file)}: every apply job is in the group gwops-<target>, never cancelled`, () => {
      const workflow = readYaml(file);
      for (const [jobId, job] of jobsOf(workflow)) {
        for (const step of stepsOf(job).filter((s) => isGwopsAction(s.uses))) {
          const { command, args } = gwopsInputs(step, jobId);
          if (command !== 'apply') continue;
          const target = targetOf(args, job);
          if (target === undefined) continue;
          const concurrency = obj(job.concurrency);
          expect(concurrency.group, `${jobId}: the job's concurrency group`).toBe(`gwops-${target}`);
          expect(concurrency['cancel-in-progress'], `${jobId}: a running apply is never cancelled`).toBe(false);
          // A workflow-wide group would serialize by workflow instead, and one equal to the
          // job's would make the job wait for its own run.
          expect(workflow.concurrency, `${jobId}: no workflow-level concurrency beside the target's`).toBeUndefined();
        }
      }
    });
  }

  it('the target of a step: --target, else the environment, none for the runner\'s own emulator', () => {
    expect(targetOf('--target staging --yes', { environment: 'production' })).toBe('staging');
    expect(targetOf('--target=${{ matrix.target.name }} --yes', {})).toBe('${{ matrix.target.name }}');
    expect(targetOf('--yes', { environment: { name: 'production' } })).toBe('production');
    expect(targetOf('--url http://127.0.0.1:8443/airlock/rest --yes', {})).toBeUndefined();
  });
});

describe('the workflow of gwops init', () => {
  it('applies only with --yes, in an environment, never two at once, and gives every gateway step the API key', () => {
    const jobs = jobsOf(readYaml(INIT_WORKFLOW));
    const commands: string[] = [];
    for (const [jobId, job] of jobs) {
      for (const step of stepsOf(job).filter((s) => isGwopsAction(s.uses))) {
        const { command, args } = gwopsInputs(step, jobId);
        commands.push(command);
        if (command !== 'validate') expect(str(obj(step.env).GWOPS_API_KEY), `${jobId}: ${command}`).toBe('${{ secrets.GWOPS_API_KEY }}');
        if (command !== 'apply') continue;
        expect(args.split(/\s+/)).toContain('--yes');
        expect(job.environment).toBeDefined();
        expect(job.concurrency).toBeDefined();
      }
    }
    expect(commands).toEqual(['validate', 'plan', 'validate', 'apply']);
  });
});

describe('the recipes in examples/ci/', () => {
  for (const file of RECIPES) {
    describe(name(file), () => {
      const workflow = readYaml(file);
      const jobs = jobsOf(workflow);

      it('use the gwops action and actions/* only', () => {
        const uses = jobs.flatMap(([, job]) => stepsOf(job).flatMap((s) => (s.uses ? [s.uses] : [])));
        expect(uses.some((u) => ACTION_REF.test(u)), 'the gwops action').toBe(true);
        for (const u of uses) expect(u).toMatch(/^([\w.-]+\/gwops|actions\/[\w.-]+)@v\d+$/);
      });

      it('do not repeat what the action does (install gwops, run it by hand)', () => {
        for (const [jobId, job] of jobs) {
          for (const step of stepsOf(job)) {
            expect(step.uses ?? '', `${jobId}`).not.toMatch(/^actions\/setup-node@/);
            expect(step.run ?? '', `${jobId}`).not.toMatch(/\bnpm (ci|install)\b|\bgwops (validate|plan|apply|drift)\b/);
          }
        }
      });

      it('apply only with --yes, in an environment, never two at once', () => {
        for (const [jobId, job] of jobs) {
          for (const step of stepsOf(job).filter((s) => isGwopsAction(s.uses))) {
            const { command, args } = gwopsInputs(step, jobId);
            if (command !== 'apply') continue;
            expect(args.split(/\s+/), `${jobId}: apply without --yes`).toContain('--yes');
            expect(job.environment, `${jobId}: apply outside an environment`).toBeDefined();
            expect(workflow.concurrency ?? job.concurrency, `${jobId}: apply without a concurrency group`).toBeDefined();
          }
        }
      });

      it('pass the API key and the secrets the manifests read, from repository or environment secrets', () => {
        for (const [jobId, job] of jobs) {
          for (const step of stepsOf(job).filter((s) => isGwopsAction(s.uses))) {
            const { command } = gwopsInputs(step, jobId);
            if (command === 'targets') continue;
            const env = { ...obj(workflow.env), ...obj(job.env), ...obj(step.env) };
            const needed = command === 'validate' ? MANIFEST_SECRETS : ['GWOPS_API_KEY', ...MANIFEST_SECRETS];
            for (const variable of needed) expect(str(env[variable]), `${jobId}: ${command} gets ${variable}`).toMatch(/^\$\{\{ secrets\.\w+ \}\}$/);
          }
        }
      });

      it('grant what their steps need and nothing of the rest', () => {
        const permissions = obj(workflow.permissions);
        expect(permissions.contents, 'contents: read').toBe('read');
        const commands = jobs.flatMap(([jobId, job]) => stepsOf(job).filter((s) => isGwopsAction(s.uses)).map((s) => gwopsInputs(s, jobId).command));
        const onPullRequest = 'pull_request' in obj(workflow.on);
        if (onPullRequest && commands.includes('plan')) expect(permissions['pull-requests']).toBe('write');
        if (!onPullRequest) expect(permissions['pull-requests']).toBeUndefined();
        const opensIssues = readFileSync(file, 'utf8').includes('github.rest.issues.create(');
        expect(permissions.issues === 'write', 'issues: write exactly when the recipe opens issues').toBe(opensIssues);
        // A job that pushes a branch and opens a pull request gets the write permissions itself.
        for (const [jobId, job] of jobs) {
          const opensPulls = stepsOf(job).some((s) => str(obj(s.with).script).includes('github.rest.pulls.create('));
          const granted = obj(job.permissions);
          expect(granted['pull-requests'] === 'write' && granted.contents === 'write', `${jobId}: contents and pull-requests write exactly when it opens a pull request`).toBe(opensPulls);
        }
      });
    });
  }

  it('nightly-drift.yml pushes and opens the adoption pull request with a token that starts workflows, when one is given', () => {
    const text = readFileSync(join(ROOT, 'examples/ci/nightly-drift.yml'), 'utf8');
    const workflow = readYaml(join(ROOT, 'examples/ci/nightly-drift.yml'));
    const adopt = new Map(jobsOf(workflow)).get('adopt');
    const steps = stepsOf(adopt ?? {});
    const token = '${{ steps.app.outputs.token || secrets.GWOPS_ADOPTION_TOKEN || github.token }}';
    const app = steps.findIndex((s) => s.id === 'app');
    expect(steps[app]?.uses).toMatch(/^actions\/create-github-app-token@v\d+$/);
    const checkout = steps.findIndex((s) => str(s.uses).startsWith('actions/checkout@'));
    expect(app, 'the app token before the checkout').toBeLessThan(checkout);
    expect(obj(steps[checkout]?.with).token, 'the push uses it').toBe(token);
    const opener = steps.find((s) => str(obj(s.with).script).includes('github.rest.pulls.create('));
    expect(obj(opener?.with)['github-token'], 'the pull request is opened with it').toBe(token);
    expect(text).toContain('Allow GitHub Actions to create and approve pull requests');
  });

  it('apply-to-targets.yml feeds its matrix from gwops targets and protects production', () => {
    const workflow = readYaml(join(ROOT, 'examples/ci/apply-to-targets.yml'));
    const jobs = new Map(jobsOf(workflow));
    const lister = [...jobs].find(([, job]) => stepsOf(job).some((s) => isGwopsAction(s.uses) && str(obj(s.with).command) === 'targets'));
    expect(lister, 'a job runs gwops targets').toBeDefined();
    const matrixJobs = [...jobs].filter(([, job]) => str(obj(obj(job.strategy).matrix).target).includes(`needs.${lister?.[0] ?? ''}.outputs.`));
    expect(matrixJobs.length, 'a matrix over the targets').toBeGreaterThan(0);
    const production = [...jobs].find(([, job]) => job.environment === 'production' || obj(job.environment).name === 'production');
    expect(production, 'a job in the production environment').toBeDefined();
    expect(needsOf(production?.[1] ?? {}), 'production after the other targets').toEqual(expect.arrayContaining(matrixJobs.map(([id]) => id)));
  });
});

describe('.github/workflows/ci.yml', () => {
  const ci = readYaml(join(ROOT, '.github/workflows/ci.yml'));
  const jobs = new Map(jobsOf(ci));

  it('keeps the test job on Node 20, 22 and 24', () => {
    const test = jobs.get('test');
    expect(obj(obj(test?.strategy).matrix).node).toEqual([20, 22, 24]);
    expect(stepsOf(test ?? {}).map((s) => s.run)).toContain('npm test');
  });

  it('runs the action from this checkout (uses: ./) for validate, plan and drift against a background emulator', () => {
    const [, job] = [...jobs].find(([, j]) => stepsOf(j).some((s) => s.uses === './')) ?? [];
    expect(job, 'a job using ./').toBeDefined();
    const steps = stepsOf(job ?? {});
    const emulator = steps.findIndex((s) => /gwops\.js emulator .*--no-tls.*&/s.test(s.run ?? ''));
    expect(emulator, 'starts gwops emulator in the background').toBeGreaterThan(0);
    const commands = steps.filter((s) => s.uses === './').map((s) => gwopsInputs(s, 'ci').command);
    for (const command of ['validate', 'plan', 'drift']) expect(commands).toContain(command);
    const remote = steps.slice(emulator + 1).filter((s) => s.uses === './' && ['plan', 'apply', 'drift'].includes(str(obj(s.with).command)));
    for (const step of remote) expect(str(obj(step.with).args), str(step.name)).toMatch(/--url http:\/\/127\.0\.0\.1:\d+\/airlock\/rest/);
  });
});
