/**
 * A small stand-in for the GitHub runner, enough to run the steps of action.yml here: each
 * `run:` step in `bash --noprofile --norc -eo pipefail` (what `shell: bash` means on a
 * runner), with its `env:` expressions resolved, GITHUB_OUTPUT read back as the step's
 * outputs and GITHUB_STEP_SUMMARY kept. `uses:` steps (actions/setup-node, actions/cache,
 * actions/github-script, actions/upload-artifact) are not run; the github-script step is
 * tested on its own (action.test.ts). Expressions other than `inputs.*`,
 * `steps.*.outputs.*`, `github.token` and `github.action_ref` are refused, so the action
 * cannot start relying on something this runner does not model without a test noticing. `GITHUB_ACTION_PATH` is this checkout unless the
 * caller's `env` names another.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface ActionStep {
  readonly name?: string;
  readonly id?: string;
  readonly if?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly shell?: string;
  readonly with?: Record<string, string>;
  readonly env?: Record<string, string>;
  readonly 'working-directory'?: string;
}

export interface ActionFile {
  readonly name: string;
  readonly description: string;
  readonly inputs: Record<string, { readonly description: string; readonly required?: boolean; readonly default?: string }>;
  readonly outputs: Record<string, { readonly description: string; readonly value: string }>;
  readonly runs: { readonly using: string; readonly steps: readonly ActionStep[] };
}

/** The YAML files of `dir` (relative to the repository), sorted, as absolute paths. */
export function yamlFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir))
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => join(ROOT, dir, f));
}

/** Every workflow file of the repository: .github/workflows/, the recipes of examples/ci/ and the workflow gwops init writes. */
export function workflowFiles(): string[] {
  return [...yamlFiles('.github/workflows'), ...yamlFiles('examples/ci'), join(ROOT, 'templates/init/workflow.yml')];
}

/** action.yml as parsed YAML (its shape is checked against the schema in workflows.test.ts). */
export function loadAction(): ActionFile {
  return parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as ActionFile;
}

/** The step of action.yml with this id. */
export function actionStep(action: ActionFile, id: string): ActionStep {
  const step = action.runs.steps.find((s) => s.id === id);
  if (!step) throw new Error(`action.yml has no step with id '${id}'`);
  return step;
}

/** What one step left behind. */
export interface StepResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly outputs: Record<string, string>;
}

/** The result of a run of the composite action's `run:` steps. */
export interface CompositeResult {
  /** Exit code of the first failing step, else 0. */
  readonly code: number;
  /** Per step id (or name), its result; steps not reached are missing. */
  readonly steps: Record<string, StepResult>;
  /** The action's outputs, evaluated from its `outputs:` values. */
  readonly outputs: Record<string, string>;
  /** Everything the steps printed, in order. */
  readonly log: string;
  /** The job summary written. */
  readonly summary: string;
}

/** Parses a GITHUB_OUTPUT file: `name=value` lines and `name<<DELIMITER` blocks. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block?.[1] !== undefined && block[2] !== undefined) {
      const end = lines.indexOf(block[2], i + 1);
      if (end < 0) throw new Error(`GITHUB_OUTPUT: no end delimiter for ${block[1]}`);
      outputs[block[1]] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('=')) {
      const at = line.indexOf('=');
      outputs[line.slice(0, at)] = line.slice(at + 1);
    } else if (line !== '') {
      throw new Error(`GITHUB_OUTPUT: cannot read the line '${line}'`);
    }
  }
  return outputs;
}

interface Context {
  readonly inputs: Record<string, string>;
  readonly steps: Record<string, StepResult>;
  /** The `github.*` values the action reads (`token`, `action_ref`). */
  readonly github?: Record<string, string>;
}

/** `${{ … }}` replaced by its value; only the expressions the action uses in env and outputs. */
function interpolate(text: string, context: Context): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_all, expression: string) => {
    const input = /^inputs\.([\w-]+)$/.exec(expression);
    if (input?.[1] !== undefined) {
      const value = context.inputs[input[1]];
      if (value === undefined) throw new Error(`expression '${expression}': no such input`);
      return value;
    }
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
    if (output?.[1] !== undefined && output[2] !== undefined) return context.steps[output[1]]?.outputs[output[2]] ?? '';
    const github = /^github\.(token|action_ref)$/.exec(expression)?.[1];
    if (github !== undefined) return context.github?.[github] ?? (github === 'token' ? 'fake-token' : '');
    throw new Error(`expression '${expression}' is not modelled by test/ci/action-runner.ts`);
  });
}

/** Options of {@link runComposite}. */
export interface RunOptions {
  /** The action's inputs as a workflow would give them (defaults are filled in). */
  readonly with: Record<string, string>;
  /** Step ids not to run, with the outputs they would have set. */
  readonly replace?: Record<string, Record<string, string>>;
  /** Extra environment (the calling step's `env:`). */
  readonly env?: Record<string, string>;
  /** The job's working directory (the workspace). */
  readonly cwd?: string;
  /** The ref the action is used at (`github.action_ref`); default empty, as GitHub leaves it in some composite actions. */
  readonly actionRef?: string;
  /**
   * Stands in for the `uses:` steps (not run otherwise): gets the step and a function that
   * resolves its `${{ … }}` expressions; returns the step's outputs.
   */
  readonly uses?: (step: ActionStep, resolve: (text: string) => string) => Record<string, string>;
}

/** Runs the `run:` steps of action.yml in order, as a runner would, stopping at the first failure. */
export function runComposite(action: ActionFile, options: RunOptions): CompositeResult {
  const temp = mkdtempSync(join(tmpdir(), 'gwops-action-'));
  const summaryFile = join(temp, 'summary.md');
  writeFileSync(summaryFile, '');
  const inputs: Record<string, string> = {};
  for (const [name, input] of Object.entries(action.inputs)) {
    const given = options.with[name];
    if (given === undefined && input.required === true) throw new Error(`input '${name}' is required`);
    inputs[name] = given ?? interpolate(input.default ?? '', { inputs: {}, steps: {} });
  }
  for (const name of Object.keys(options.with)) if (!(name in action.inputs)) throw new Error(`unknown input '${name}'`);
  const context: Context = { inputs, steps: {}, github: { token: 'fake-token', action_ref: options.actionRef ?? '' } };
  let log = '';
  let code = 0;
  action.runs.steps.forEach((step, index) => {
    if (code !== 0) return;
    const key = step.id ?? `step-${index}`;
    const replaced = step.id !== undefined ? options.replace?.[step.id] : undefined;
    if (replaced) {
      context.steps[key] = { code: 0, stdout: '', stderr: '', outputs: replaced };
      return;
    }
    if (step.uses !== undefined && options.uses) {
      const outputs = options.uses(step, (text) => interpolate(text, context));
      context.steps[key] = { code: 0, stdout: '', stderr: '', outputs };
      return;
    }
    if (step.run === undefined) return;
    if (step.shell !== 'bash') throw new Error(`step ${key}: only shell: bash is modelled`);
    const outputFile = join(temp, `output-${index}`);
    writeFileSync(outputFile, '');
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? temp,
      RUNNER_TEMP: temp,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_ACTION_PATH: ROOT,
      ...options.env,
    };
    for (const [name, value] of Object.entries(step.env ?? {})) env[name] = interpolate(String(value), context);
    const cwd = resolve(options.cwd ?? ROOT, interpolate(step['working-directory'] ?? '.', context));
    const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], { cwd, env, encoding: 'utf8' });
    const stepResult: StepResult = {
      code: result.status ?? 1,
      stdout: result.stdout,
      stderr: result.stderr,
      outputs: parseOutputFile(readFileSync(outputFile, 'utf8')),
    };
    context.steps[key] = stepResult;
    log += result.stdout + result.stderr;
    code = stepResult.code;
  });
  const outputs: Record<string, string> = {};
  for (const [name, output] of Object.entries(action.outputs)) outputs[name] = interpolate(output.value, context);
  return { code, steps: context.steps, outputs, log, summary: readFileSync(summaryFile, 'utf8') };
}
