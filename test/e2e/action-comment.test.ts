/**
 * The pull-request comment of a plan too long for a comment, as the action makes it: its
 * run step with the real gwops against the emulator (test/ci/action-runner.ts), then its
 * comment script as actions/github-script runs it, with a stand-in of the few calls of
 * GitHub's REST API it makes. A pull request of 300 new mappings, one update
 * (`threatHandling` to `BLOCK`) and one deletion (`--prune`): the comment names the deleted
 * and the updated mapping, stays within GitHub's limit and says where the whole plan is.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, actionStep, loadAction, runComposite } from '../ci/action-runner.js';
import type { GwopsProcess } from './spawn.js';
import { startGwops } from './spawn.js';

const temp = mkdtempSync(join(tmpdir(), 'gwops-action-comment-'));
let emulator: GwopsProcess;
let url = '';

beforeAll(async () => {
  emulator = startGwops(['emulator', '--no-tls', '--port', '0', '--api-key-file', join(temp, 'key')]);
  await emulator.waitFor(/listening on (http:\/\/\S+)/);
  url = /listening on (http:\/\/\S+)/.exec(emulator.stdout + emulator.stderr)?.[1] ?? '';
});
afterAll(async () => {
  emulator.child.kill('SIGTERM');
  await emulator.exited;
});

/** A mapping document, linked to the back-end group {@link BACKEND}. */
function mapping(name: string, attributes: string[]): string {
  return ['apiVersion: gwops/v1', 'kind: mapping', `name: ${name}`, 'attributes:', ...attributes.map((a) => `  ${a}`), 'relationships:', '  back-end-groups: [shop-backend]'].join('\n');
}

/** The back-end group of every mapping. */
const BACKEND = ['apiVersion: gwops/v1', 'kind: back-end-group', 'name: shop-backend', 'attributes:', '  backendHosts:', '    - { protocol: HTTP, hostName: shop.internal.example.com, port: 8080 }'].join('\n');

type ScriptFunction = (...args: unknown[]) => Promise<unknown>;
/** The constructor of async functions, which github-script wraps its script in. */
const AsyncFunction = (Object.getPrototypeOf(async function () {
  await Promise.resolve();
}) as { constructor: new (...params: string[]) => ScriptFunction }).constructor;

/** Runs the action's comment script with the run step's outputs; returns the bodies of the comments it created. */
async function comment(env: Record<string, string>): Promise<string[]> {
  const script = actionStep(loadAction(), 'comment').with?.script ?? '';
  const created: string[] = [];
  const github = {
    rest: {
      users: { getAuthenticated: () => Promise.resolve({ data: { login: 'github-actions[bot]' } }) },
      issues: {
        listComments: () => Promise.resolve({ data: [] }),
        createComment: (p: { body: string }) => {
          created.push(p.body);
          return Promise.resolve({ data: { html_url: 'https://github.example/acme/gateway/pull/17#issuecomment-1' } });
        },
        updateComment: () => Promise.reject(new Error('no comment to update')),
      },
    },
    paginate: () => Promise.resolve([]),
  };
  const context = { repo: { owner: 'acme', repo: 'gateway' }, serverUrl: 'https://github.example', runId: 4242, payload: { pull_request: { number: 17 } } };
  const core = { info: (): void => undefined, warning: (): void => undefined };
  await new AsyncFunction('require', 'github', 'context', 'core', 'process', script)(createRequire(import.meta.url), github, context, core, { env });
  return created;
}

describe('the plan comment of a large plan with destructive changes', () => {
  it('300 new mappings, one update and one deletion, in a subdirectory: the comment names the deleted and the updated mapping, paths from the repository root', async () => {
    // A project in the subdirectory gateway/ of a repository, pruning the mappings it owns.
    const repo = join(temp, 'repo');
    const project = join(repo, 'gateway');
    mkdirSync(join(project, 'manifests'), { recursive: true });
    spawnSync('git', ['init', '-q', repo]);
    writeFileSync(join(project, 'gwops.yaml'), "manifests: [manifests]\nownership:\n  mapping: ['name=@']\n");
    const gwops = (args: string[]): ReturnType<typeof spawnSync> =>
      spawnSync(process.execPath, [join(ROOT, 'bin', 'gwops.js'), ...args, '--url', url, '--api-key-file', join(temp, 'key')], { cwd: project, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    const file = join(project, 'manifests', 'mappings.yaml');
    writeFileSync(file, `${[BACKEND, mapping('shop-checkout', ['threatHandling: NOTIFY']), mapping('legacy-admin', ['entryPath: { value: /admin/ }'])].join('\n---\n')}\n`);
    const applied = gwops(['apply', '--yes', '--comment', 'seed', '--quiet']);
    expect(String(applied.stderr)).not.toMatch(/error/i);
    expect(applied.status).toBe(0);

    const created = Array.from({ length: 300 }, (_, i) => {
      const name = `catalog-item-${String(i).padStart(3, '0')}`;
      return mapping(name, [`entryPath: { value: /catalog/items/${name}/ }`, `backendPath: /internal/catalog/v2/items/${name}/`, 'threatHandling: NOTIFY']);
    });
    writeFileSync(file, `${[BACKEND, ...created, mapping('shop-checkout', ['threatHandling: BLOCK'])].join('\n---\n')}\n`);
    const runnerTemp = mkdtempSync(join(tmpdir(), 'gwops-runner-temp-'));
    const r = runComposite(loadAction(), {
      with: { command: 'plan', args: `--url ${url} --api-key-file ${join(temp, 'key')} --prune --no-server-check`, 'working-directory': 'gateway' },
      replace: { install: { bin: join(ROOT, 'bin', 'gwops.js'), dist: join(ROOT, 'dist') } },
      env: { GITHUB_JOB: 'plan', RUNNER_TEMP: runnerTemp, GITHUB_WORKSPACE: repo },
      cwd: repo,
    });
    expect(r.log).not.toContain('::error');
    expect(r.outputs).toMatchObject({ exitcode: '2', 'has-changes': 'true' });
    expect(r.summary).toContain('**Plan: 300 to create, 1 to update, 1 to delete');

    const bodies = await comment({
      RUNNER_TEMP: runnerTemp,
      GWOPS_REPORT: r.steps.run?.outputs.report ?? '',
      GWOPS_COMMENT: r.steps.run?.outputs.comment ?? '',
      GWOPS_EXIT: r.outputs.exitcode ?? '',
      GWOPS_TARGET: r.steps.run?.outputs.target ?? '',
      GWOPS_WORKING_DIRECTORY: 'gateway',
      GWOPS_ARTIFACT_URL: 'https://github.example/acme/gateway/actions/runs/4242/artifacts/99',
      GWOPS_COMMENT_AUTHOR: '',
    });
    expect(bodies).toHaveLength(1);
    const body = bodies[0] ?? '';
    expect(body.length).toBeLessThanOrEqual(65_536);
    expect(body).toContain('mapping "legacy-admin"');
    expect(body).toContain('mapping "shop-checkout"');
    expect(body).toContain('threatHandling');
    expect(body).toMatch(/\d+ more objects not shown/);
    expect(body).toContain('the whole plan is in the summary of the [workflow run](https://github.example/acme/gateway/actions/runs/4242)');
    expect(body).toContain('[plan files](https://github.example/acme/gateway/actions/runs/4242/artifacts/99)');
    // Paths from the repository's root, as a reader of the pull request finds the files.
    expect(body).toMatch(/Declared in `gateway\/manifests\/mappings\.yaml:\d+`/);
    expect(body).not.toMatch(/Declared in `manifests\//);

    // Outside Actions (no GITHUB_WORKSPACE): the root of the Git work tree.
    const local = gwops(['plan', '--format', 'markdown', '--no-server-check', '--prune']);
    expect(String(local.stdout)).toMatch(/Declared in `gateway\/manifests\/mappings\.yaml:\d+`/);
  }, 180_000);
});
