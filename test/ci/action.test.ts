/**
 * action.yml, run here: its shell steps with a stand-in gwops that records its arguments and
 * exits with a chosen code (test/ci/action-runner.ts plays the runner). What the action
 * promises: the arguments
 * gwops gets, the exit code kept in `exitcode`, `has-changes`, the report in the job
 * summary, the plan files, failing only on real errors. The plan comment is tested against a
 * mock of the GitHub API in plan-comment.test.ts.
 * CI (.github/workflows/ci.yml, job `action`) runs the whole action against the emulator.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { identityHandles, desiredState } from '../../src/engine/desired.js';
import { liveState } from '../../src/engine/live.js';
import { buildPlan } from '../../src/engine/plan.js';
import { MARKDOWN_MARKER, renderMarkdown, renderText } from '../../src/render/index.js';
import { doc, options } from '../engine/helpers.js';
import type { ActionFile, CompositeResult } from './action-runner.js';
import { ROOT, loadAction, parseOutputFile, runComposite } from './action-runner.js';

const action: ActionFile = loadAction();

describe('the shell steps of action.yml', () => {
  let dir: string;
  let stub: string;
  let argvFile: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gwops-action-test-'));
    stub = join(dir, 'gwops-stub.mjs');
    argvFile = join(dir, 'argv.jsonl');
    writeFileSync(
      stub,
      [
        "import { appendFileSync, copyFileSync, readFileSync } from 'node:fs';",
        'const args = process.argv.slice(2);',
        "if (args[0] === '--version') { console.log('0.1.0'); process.exit(0); }",
        "appendFileSync(process.env.STUB_ARGV, JSON.stringify({ args, cwd: process.cwd() }) + '\\n');",
        "if (process.env.STUB_PLAN_FILE && args.includes('--out')) copyFileSync(process.env.STUB_PLAN_FILE, args[args.indexOf('--out') + 1]);",
        "process.stdout.write(process.env.STUB_STDOUT_FILE ? readFileSync(process.env.STUB_STDOUT_FILE, 'utf8') : (process.env.STUB_STDOUT ?? ''));",
        "process.stderr.write(process.env.STUB_STDERR ?? '');",
        "process.exitCode = Number(process.env.STUB_EXIT ?? '0');",
      ].join('\n'),
    );
  });

  /** Runs the action with the stand-in gwops; returns the result and the arguments gwops got. */
  function run(
    inputs: Record<string, string>,
    stubbed: { exit?: number; stdout?: string; stdoutFile?: string; planFile?: string; stderr?: string } = {},
  ): CompositeResult & { calls: { args: string[]; cwd: string }[] } {
    writeFileSync(argvFile, '');
    const result = runComposite(action, {
      with: inputs,
      replace: { install: { bin: stub, dist: join(ROOT, 'dist') } },
      env: {
        STUB_ARGV: argvFile,
        STUB_EXIT: String(stubbed.exit ?? 0),
        STUB_STDOUT: stubbed.stdout ?? '',
        STUB_STDOUT_FILE: stubbed.stdoutFile ?? '',
        STUB_PLAN_FILE: stubbed.planFile ?? '',
        STUB_STDERR: stubbed.stderr ?? '',
      },
    });
    const calls = readFileSync(argvFile, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { args: string[]; cwd: string });
    return { ...result, calls };
  }

  const PLAN = `${MARKDOWN_MARKER}\n## gwops plan\n\n2 to create\n`;

  it('plan: markdown with --detailed-exitcode; exit 2 is changes, reported and not a failure', () => {
    const r = run({ command: 'plan', args: '--target production' }, { exit: 2, stdout: PLAN });
    const [args] = r.calls.map((c) => c.args);
    expect(args?.slice(0, 6)).toEqual(['plan', '--format', 'markdown', '--detailed-exitcode', '--max-bytes', '1040000']);
    expect(args?.[6]).toBe('--out');
    expect(args?.[8]).toBe('--markdown-out');
    expect(args?.[9]).toMatch(/\/comment\.md$/);
    expect(args?.slice(10)).toEqual(['--target', 'production']);
    expect(r.code).toBe(0);
    expect(r.outputs.exitcode).toBe('2');
    expect(r.outputs['has-changes']).toBe('true');
    expect(r.outputs.report).toMatch(/plan\.md$/);
    expect(readFileSync(r.outputs.report ?? '', 'utf8')).toBe(PLAN);
    expect(r.summary).toContain('**gwops plan** (target `production`): changes (exit code 2)');
    expect(r.summary).toContain(PLAN);
    expect(r.log).toContain('## gwops plan');
  });

  it('plan of 400 new objects: the job summary holds every object, and the markdown, text and JSON plans are written for the artifact', () => {
    const docs = Array.from({ length: 400 }, (_, i) => doc('back-end-group', `summary-group-${String(i).padStart(3, '0')}`, { backendHosts: [{ protocol: 'HTTP', hostName: `h${i}.example.com`, port: 8080 }] }));
    const desired = desiredState(docs);
    const plan = buildPlan(desired, liveState({}, identityHandles(desired)), options());
    // What gwops writes with the flags the action gives it (--max-bytes, --out).
    const markdown = renderMarkdown(plan, { maxBytes: 1_040_000 });
    const files = mkdtempSync(join(tmpdir(), 'gwops-plan-files-'));
    writeFileSync(join(files, 'stdout.md'), markdown);
    writeFileSync(join(files, 'plan.json'), JSON.stringify({ ...plan, gateway: { target: 'production', url: 'https://gw.example.com/airlock/rest', variant: 'latest' } }));
    expect(Buffer.byteLength(markdown), 'more than a comment holds').toBeGreaterThan(65_536);

    const r = run({ command: 'plan' }, { exit: 2, stdoutFile: join(files, 'stdout.md'), planFile: join(files, 'plan.json') });
    expect(r.code).toBe(0);
    for (let i = 0; i < 400; i++) expect(r.summary).toContain(`back-end-group "summary-group-${String(i).padStart(3, '0')}"</code>`);
    expect(r.summary).not.toContain('not shown');
    expect(Buffer.byteLength(r.summary)).toBeLessThanOrEqual(1_048_576);
    expect(r.steps.run?.outputs.target, 'the target the plan file names').toBe('production');
    expect(r.summary).toContain('**gwops plan** (target `production`): changes (exit code 2)');

    const dir = r.steps.run?.outputs['plan-files'] ?? '';
    expect(readdirSync(dir).sort()).toEqual(['plan.json', 'plan.md', 'plan.txt']);
    expect(readFileSync(join(dir, 'plan.md'), 'utf8')).toBe(markdown);
    expect(JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8'))).toMatchObject({ summary: { create: 400 } });
    const text = readFileSync(join(dir, 'plan.txt'), 'utf8');
    expect(text).toBe(renderText(plan, { color: false }));
    expect(r.steps.run?.outputs.artifact).toBe('gwops-plan-production-job');
    expect(r.summary).toContain('in the artifact `gwops-plan-production-job` of this run');
  });

  it('plan: the artifact is uploaded from the files the run step wrote, under a name of the target and job', () => {
    const upload = action.runs.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.if).toBe("steps.run.outputs.plan-files != ''");
    expect(upload?.with).toMatchObject({ name: '${{ steps.run.outputs.artifact }}', path: '${{ steps.run.outputs.plan-files }}', overwrite: 'true' });
  });

  it('plan: exit 0 is no changes', () => {
    const r = run({ command: 'plan' }, { exit: 0, stdout: `${MARKDOWN_MARKER}\nNo changes.\n` });
    expect(r.code).toBe(0);
    expect(r.outputs).toMatchObject({ exitcode: '0', 'has-changes': 'false' });
  });

  it('plan: exit 3 (the gateway validator) keeps the report and fails the step with 3', () => {
    const r = run({ command: 'plan' }, { exit: 3, stdout: `${PLAN}\n### Validator messages\nERROR\n` });
    expect(r.code).toBe(3);
    expect(r.outputs).toMatchObject({ exitcode: '3', 'has-changes': 'false' });
    expect(r.outputs.report).not.toBe('');
    expect(r.summary).toContain("the gateway's validator found errors");
    expect(r.summary).toContain('### Validator messages');
    expect(r.log).toContain("::error::gwops plan: the gateway's validator found errors (exit code 3)");
  });

  it('plan: exit 1 before any report fails with 1, with no report and a pointer to the log', () => {
    const r = run({ command: 'plan' }, { exit: 1, stderr: 'Error: cannot connect\n' });
    expect(r.code).toBe(1);
    expect(r.outputs).toMatchObject({ exitcode: '1', 'has-changes': 'false', report: '' });
    expect(r.summary).toContain('**gwops plan**: error (exit code 1)');
    expect(r.summary).toContain('The reason is in the job log.');
    expect(r.log).toContain('::error::gwops plan failed with exit code 1');
  });

  it('drift: markdown; exit 2 is drift, exit 0 in sync, exit 1 a failure', () => {
    const drifted = run({ command: 'drift', args: '--target production' }, { exit: 2, stdout: PLAN });
    expect(drifted.calls.map((c) => c.args)).toEqual([['drift', '--format', 'markdown', '--target', 'production']]);
    expect(drifted.code).toBe(0);
    expect(drifted.outputs).toMatchObject({ exitcode: '2', 'has-changes': 'true' });
    expect(drifted.outputs.report).toMatch(/drift\.md$/);
    expect(drifted.summary).toContain('the live gateway differs from the manifests');
    const clean = run({ command: 'drift' }, { exit: 0, stdout: `${MARKDOWN_MARKER}\nNo changes.\n` });
    expect(clean.code).toBe(0);
    expect(clean.outputs).toMatchObject({ exitcode: '0', 'has-changes': 'false' });
    expect(clean.summary).toContain('the live gateway matches the manifests');
    expect(run({ command: 'drift' }, { exit: 1 }).code).toBe(1);
  });

  it('apply: no format added, the output in the summary; exit 2 is not success for apply', () => {
    const r = run({ command: 'apply', args: '--target production --yes' }, { exit: 0, stdout: 'Apply complete: configuration 7 activated\n' });
    expect(r.calls.map((c) => c.args)).toEqual([['apply', '--target', 'production', '--yes']]);
    expect(r.code).toBe(0);
    expect(r.outputs).toMatchObject({ exitcode: '0', 'has-changes': 'false', report: '' });
    expect(r.summary).toContain('Apply complete: configuration 7 activated');
    expect(r.log).not.toContain('::warning::');
    expect(run({ command: 'apply', args: '-y' }, { exit: 2 }).code).toBe(2);
    expect(run({ command: 'apply', args: '-y' }, { exit: 3 }).code).toBe(3);
  });

  it('apply: the output in the summary is fenced longer than any backtick run in it, so no line of it ends the block', () => {
    const stdout = 'Apply complete\n``````\n[FORGED](https://evil.example/) @octo-victim\n';
    const r = run({ command: 'apply', args: '--yes' }, { exit: 0, stdout });
    expect(r.code).toBe(0);
    expect(r.summary).toContain(`\`\`\`\`\`\`\`text\n${stdout}\`\`\`\`\`\`\`\n`);
    const plain = run({ command: 'apply', args: '--yes' }, { exit: 0, stdout: 'Apply complete\n' });
    expect(plain.summary).toContain('`````text\nApply complete\n`````\n');
  });

  it('apply without --yes warns that gwops will stop before any change', () => {
    const r = run({ command: 'apply', args: '--target production' }, { exit: 1 });
    expect(r.log).toContain('::warning::gwops apply without --yes in args');
    expect(r.code).toBe(1);
  });

  it('validate: annotations (--format github); exit 1 fails', () => {
    const ok = run({ command: 'validate', args: '--config examples/gwops.yaml' });
    expect(ok.calls.map((c) => c.args)).toEqual([['validate', '--format', 'github', '--config', 'examples/gwops.yaml']]);
    expect(ok.code).toBe(0);
    expect(ok.summary).toContain('the manifests are valid');
    const bad = run({ command: 'validate' }, { exit: 1, stdout: '::error file=m.yaml,line=3::bad\n' });
    expect(bad.code).toBe(1);
    expect(bad.summary).toContain('the manifests have errors');
  });

  it('targets: the JSON list as a one-line output for fromJSON, no summary', () => {
    const list = { targets: [{ name: 'staging', url: 'https://s.example.com/airlock/rest', variant: 'latest' }] };
    const r = run({ command: 'targets' }, { stdout: JSON.stringify(list, null, 2) + '\n' });
    expect(r.calls.map((c) => c.args)).toEqual([['targets', '--format', 'json']]);
    expect(r.code).toBe(0);
    expect(r.outputs.targets).toBe(JSON.stringify(list.targets));
    expect(r.summary).toBe('');
  });

  it('splits args as a shell would, without expanding anything', () => {
    const r = run({ command: 'apply', args: `--comment "release 1.2 (ok)" --target 'eu west'\n  --yes $HOME \`id\` a\\ b` });
    expect(r.calls.map((c) => c.args)).toEqual([['apply', '--comment', 'release 1.2 (ok)', '--target', 'eu west', '--yes', '$HOME', '`id`', 'a b']]);
  });

  it('refuses args with an unbalanced quote, and an unknown command, before running gwops', () => {
    const quote = run({ command: 'plan', args: '--comment "oops' });
    expect(quote.code).toBe(1);
    expect(quote.calls).toEqual([]);
    expect(quote.log).toContain('cannot split the args input');
    const unknown = run({ command: 'destroy' });
    expect(unknown.code).toBe(1);
    expect(unknown.calls).toEqual([]);
    expect(unknown.log).toContain("command must be validate, plan, apply, drift or targets, not 'destroy'");
  });

  it('runs gwops in working-directory', () => {
    const r = run({ command: 'validate', 'working-directory': 'examples' });
    expect(r.calls[0]?.cwd).toMatch(/\/examples$/);
  });

  it('an interruption (130) fails the step with its code', () => {
    const r = run({ command: 'drift' }, { exit: 130 });
    expect(r.code).toBe(130);
    expect(r.outputs.exitcode).toBe('130');
  });
});

describe('installing gwops: the action builds its own checkout once, keyed for the cache', () => {
  /**
   * A stand-in for the action's checkout (sources, lockfile, a bin that prints its version)
   * and an `npm` on PATH that records its calls and builds nothing: what the install step
   * runs and when it skips the build.
   */
  function fakeCheckout(): { path: string; env: Record<string, string>; npmCalls: () => string[] } {
    const path = mkdtempSync(join(tmpdir(), 'gwops-action-path-'));
    for (const dir of ['src/cli', 'bin', 'dist', 'node_modules', 'fake-bin']) mkdirSync(join(path, dir), { recursive: true });
    writeFileSync(join(path, 'package.json'), '{ "name": "gwops", "version": "9.9.9" }\n');
    writeFileSync(join(path, 'package-lock.json'), '{ "lockfileVersion": 3 }\n');
    writeFileSync(join(path, 'tsconfig.json'), '{}\n');
    writeFileSync(join(path, 'src/cli/main.ts'), 'export {};\n');
    writeFileSync(join(path, 'bin/gwops.js'), "if (process.argv[2] === '--version') console.log('9.9.9');\n");
    const calls = join(path, 'npm-calls');
    writeFileSync(calls, '');
    writeFileSync(join(path, 'fake-bin/npm'), `#!/bin/sh\necho "$*" >> '${calls}'\n`, { mode: 0o755 });
    return {
      path,
      env: { GITHUB_ACTION_PATH: path, PATH: `${join(path, 'fake-bin')}:${process.env.PATH ?? ''}`, RUNNER_OS: 'Linux', RUNNER_ARCH: 'X64' },
      npmCalls: () => readFileSync(calls, 'utf8').split('\n').filter((l) => l !== ''),
    };
  }
  const install = (checkout: ReturnType<typeof fakeCheckout>, actionRef = 'v1'): CompositeResult =>
    runComposite(action, { with: { command: 'validate' }, env: checkout.env, actionRef });

  it('keys the build by the ref, the Node major, and a hash of the sources and the lockfile', () => {
    const checkout = fakeCheckout();
    const key = install(checkout).steps.build?.outputs.key ?? '';
    const major = process.versions.node.split('.')[0] ?? '';
    expect(key).toMatch(new RegExp(`^gwops-action-Linux-X64-node${major}-v1-[0-9a-f]{16}$`));
    expect(install(checkout, 'v1.2.0').steps.build?.outputs.key).toBe(key.replace('-v1-', '-v1.2.0-'));
    expect(install(checkout, '').steps.build?.outputs.key, 'github.action_ref empty in a composite action').toBe(key.replace('-v1-', '-local-'));
    writeFileSync(join(checkout.path, 'package-lock.json'), '{ "lockfileVersion": 3, "packages": {} }\n');
    const afterLock = install(checkout).steps.build?.outputs.key;
    expect(afterLock).not.toBe(key);
    writeFileSync(join(checkout.path, 'src/cli/main.ts'), 'export const changed = 1;\n');
    expect(install(checkout).steps.build?.outputs.key).not.toBe(afterLock);
  });

  it('builds once (npm ci without scripts, then the build), and reuses the build a restored cache or an earlier step left', () => {
    const checkout = fakeCheckout();
    const first = install(checkout);
    expect(first.code).toBe(0);
    expect(checkout.npmCalls()).toEqual(['ci --ignore-scripts --no-audit --no-fund', 'run build']);
    expect(readFileSync(join(checkout.path, 'dist/.gwops-action-build'), 'utf8').trim()).toBe(first.steps.build?.outputs.key);
    expect(first.steps.install?.outputs.bin).toBe(join(checkout.path, 'bin/gwops.js'));
    expect(first.log).toContain('gwops 9.9.9');
    const second = install(checkout);
    expect(second.code).toBe(0);
    expect(second.log).toContain('from the cache or an earlier step');
    expect(checkout.npmCalls(), 'no second build').toHaveLength(2);
    writeFileSync(join(checkout.path, 'package-lock.json'), '{ "lockfileVersion": 3, "packages": {} }\n');
    install(checkout);
    expect(checkout.npmCalls(), 'a changed lockfile builds again').toHaveLength(4);
  });

  it('installs the opt-in package spec instead, once per job, a tarball path taken from the working directory', () => {
    const checkout = fakeCheckout();
    const runnerTemp = mkdtempSync(join(tmpdir(), 'gwops-runner-temp-'));
    const r = runComposite(action, { with: { command: 'validate', package: './gwops-0.1.0.tgz' }, env: checkout.env, cwd: runnerTemp });
    expect(checkout.npmCalls()).toEqual([expect.stringMatching(new RegExp(`^install --prefix \\S+ --no-audit --no-fund ${runnerTemp}/gwops-0\\.1\\.0\\.tgz$`))]);
    // The fake npm installed nothing: the step fails on running the missing bin.
    expect(r.code).not.toBe(0);
  });
});

describe('parseOutputFile (the runner stand-in)', () => {
  it('reads name=value lines and delimited blocks', () => {
    expect(parseOutputFile('a=1\nb=x=y\nc<<EOF\nline 1\nline 2\nEOF\n')).toEqual({ a: '1', b: 'x=y', c: 'line 1\nline 2' });
  });
});
