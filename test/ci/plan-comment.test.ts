/**
 * The plan comment of action.yml (its github-script step), run against a mock of the GitHub
 * REST API: a local HTTP server holding a pull request's comments, which knows who each
 * token is (a person's personal access token, the job's GITHUB_TOKEN that may not call
 * GET /user, a read-only token) and pages its lists as GitHub does (`per_page`, `page`,
 * a `Link` header with rel="next"). The script gets a client with the calls of Octokit's
 * REST API that it uses, each a real HTTP request to that server, as github-script gives it.
 * What the action promises: one comment per pull request and target, found by its marker
 * and by the token's own identity, never a person's; its heading names the target; a plan
 * too long for a comment is cut with links to the run and the artifact.
 */
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MARKDOWN_MARKER } from '../../src/render/index.js';
import { ROOT, actionStep, loadAction, runComposite } from './action-runner.js';

interface User {
  readonly login: string;
  readonly type: 'User' | 'Bot';
}
interface Comment {
  id: number;
  body: string;
  user: User;
  html_url: string;
}

/** Who each token is, and whether it may call GET /user and write comments. */
const TOKENS: Record<string, { user: User; getUser: boolean; write: boolean }> = {
  'pat-alice': { user: { login: 'alice', type: 'User' }, getUser: true, write: true },
  'github-token': { user: { login: 'github-actions[bot]', type: 'Bot' }, getUser: false, write: true },
  'app-token': { user: { login: 'gateway-bot[bot]', type: 'Bot' }, getUser: false, write: true },
  'fork-token': { user: { login: 'github-actions[bot]', type: 'Bot' }, getUser: false, write: false },
};

/** The mock of GitHub's REST API: the comments of pull request 17 of acme/gateway. */
class MockGitHub {
  comments: Comment[] = [];
  requests: string[] = [];
  private nextId = 1000;
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** A comment as someone wrote it before the run. */
  add(user: User, body: string): Comment {
    const comment = { id: this.nextId++, body, user, html_url: `https://github.example/acme/gateway/pull/17#issuecomment-${this.nextId}` };
    this.comments.push(comment);
    return comment;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    const url = new URL(req.url ?? '/', this.url);
    this.requests.push(`${req.method ?? ''} ${url.pathname}${url.search}`);
    const send = (status: number, data: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(data));
    };
    const token = TOKENS[(req.headers.authorization ?? '').replace(/^token /, '')];
    if (!token) return send(401, { message: 'Bad credentials' });
    if (req.method === 'GET' && url.pathname === '/user') {
      return token.getUser ? send(200, token.user) : send(403, { message: 'Resource not accessible by integration' });
    }
    if (req.method === 'GET' && url.pathname === '/repos/acme/gateway/issues/17/comments') {
      const perPage = Number(url.searchParams.get('per_page') ?? '30');
      const page = Number(url.searchParams.get('page') ?? '1');
      const slice = this.comments.slice((page - 1) * perPage, page * perPage);
      const more = page * perPage < this.comments.length;
      return send(200, slice, more ? { link: `<${this.url}${url.pathname}?per_page=${perPage}&page=${page + 1}>; rel="next"` } : {});
    }
    const body = (text ? (JSON.parse(text) as { body?: unknown }) : {}).body;
    if (req.method === 'POST' && url.pathname === '/repos/acme/gateway/issues/17/comments') {
      if (!token.write) return send(403, { message: 'Resource not accessible by integration' });
      if (typeof body !== 'string' || body.length > 65_536) return send(422, { message: 'Validation Failed: body is too long (maximum is 65536 characters)' });
      return send(201, this.add(token.user, body));
    }
    const patch = /^\/repos\/acme\/gateway\/issues\/comments\/(\d+)$/.exec(url.pathname);
    if (req.method === 'PATCH' && patch) {
      const comment = this.comments.find((c) => c.id === Number(patch[1]));
      if (!comment) return send(404, { message: 'Not Found' });
      if (!token.write || comment.user.login !== token.user.login) return send(403, { message: 'Must have admin rights to Repository.' });
      if (typeof body !== 'string' || body.length > 65_536) return send(422, { message: 'Validation Failed' });
      comment.body = body;
      return send(200, comment);
    }
    return send(404, { message: 'Not Found' });
  }
}

/** The calls of Octokit's REST API the script uses, each an HTTP request to `base`. */
function octokit(base: string, token: string): unknown {
  const request = async (method: string, path: string, body?: unknown): Promise<{ data: unknown; headers: Record<string, string> }> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `token ${token}`, accept: 'application/vnd.github+json', 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const data = (await response.json()) as { message?: string };
    if (!response.ok) throw Object.assign(new Error(data.message ?? response.statusText), { status: response.status });
    return { data, headers: Object.fromEntries(response.headers) };
  };
  type Params = Record<string, string | number>;
  const issues = {
    listComments: (p: Params) => request('GET', `/repos/${p.owner}/${p.repo}/issues/${p.issue_number}/comments?per_page=${p.per_page ?? 30}&page=${p.page ?? 1}`),
    createComment: (p: Params) => request('POST', `/repos/${p.owner}/${p.repo}/issues/${p.issue_number}/comments`, { body: p.body }),
    updateComment: (p: Params) => request('PATCH', `/repos/${p.owner}/${p.repo}/issues/comments/${p.comment_id}`, { body: p.body }),
  };
  return {
    rest: { issues, users: { getAuthenticated: () => request('GET', '/user') } },
    paginate: async (method: (p: Params) => Promise<{ data: unknown; headers: Record<string, string> }>, params: Params): Promise<unknown[]> => {
      const all: unknown[] = [];
      for (let page = 1; ; page++) {
        const { data, headers } = await method({ ...params, page });
        all.push(...(data as unknown[]));
        if (!/rel="next"/.test(headers.link ?? '')) return all;
      }
    },
  };
}

type ScriptFunction = (...args: unknown[]) => Promise<unknown>;
/** The constructor of async functions, which github-script wraps its script in. */
const AsyncFunction = (Object.getPrototypeOf(async function () {
  await Promise.resolve();
}) as { constructor: new (...params: string[]) => ScriptFunction }).constructor;

const github = new MockGitHub();
beforeAll(() => github.start());
afterAll(() => github.stop());
beforeEach(() => {
  github.comments = [];
  github.requests = [];
});

const RUN_URL = 'https://github.example/acme/gateway/actions/runs/4242';
const ARTIFACT_URL = 'https://github.example/acme/gateway/actions/runs/4242/artifacts/99';

interface ScriptRun {
  report?: string;
  /** The path the report output names, when not the file the run step wrote. */
  reportPath?: string;
  /** The runner's RUNNER_TEMP, when the run step ran (else a new directory). */
  runnerTemp?: string;
  token?: string;
  target?: string;
  workingDirectory?: string;
  exit?: string;
  commentAuthor?: string;
}

/** Runs the comment script as actions/github-script does; returns its warnings. */
async function postPlan(run: ScriptRun): Promise<string[]> {
  const script = actionStep(loadAction(), 'comment').with?.script ?? '';
  // Where the run step writes its report: plan.md in a directory it made under RUNNER_TEMP.
  const runnerTemp = run.runnerTemp ?? mkdtempSync(join(tmpdir(), 'gwops-runner-temp-'));
  const file = join(mkdtempSync(join(runnerTemp, 'gwops-')), 'plan.md');
  if (run.report !== undefined) writeFileSync(file, run.report);
  const warnings: string[] = [];
  const context = { repo: { owner: 'acme', repo: 'gateway' }, serverUrl: 'https://github.example', runId: 4242, payload: { pull_request: { number: 17 } } };
  const core = { info: (): void => undefined, warning: (m: string) => void warnings.push(m) };
  const env = {
    RUNNER_TEMP: runnerTemp,
    GWOPS_REPORT: run.reportPath ?? (run.report === undefined ? '' : file),
    GWOPS_EXIT: run.exit ?? '2',
    GWOPS_TARGET: run.target ?? '',
    GWOPS_WORKING_DIRECTORY: run.workingDirectory ?? '.',
    GWOPS_ARTIFACT_URL: ARTIFACT_URL,
    GWOPS_COMMENT_AUTHOR: run.commentAuthor ?? '',
  };
  const client = octokit(github.url, run.token ?? 'github-token');
  await new AsyncFunction('require', 'github', 'context', 'core', 'process', script)(createRequire(import.meta.url), client, context, core, { env });
  return warnings;
}

const PLAN = (n: number): string => `${MARKDOWN_MARKER}\n### gwops plan\n\n**Plan: ${n} to create**\n`;

describe('the plan comment, against a mock of the GitHub API', () => {
  it('runs only for plan, in a pull request, unless comment is false', () => {
    const step = actionStep(loadAction(), 'comment');
    expect(step.uses).toMatch(/^actions\/github-script@v\d+$/);
    expect(step.if).toBe("inputs.command == 'plan' && inputs.comment == 'true' && github.event.pull_request.number");
  });

  it('with a personal access token: one comment, updated on the next push, not one per push', async () => {
    await postPlan({ token: 'pat-alice', target: 'production', report: PLAN(1) });
    await postPlan({ token: 'pat-alice', target: 'production', report: PLAN(2) });
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]?.user.login).toBe('alice');
    expect(github.comments[0]?.body).toBe('<!-- gwops-plan target=production -->\n### gwops plan for target `production`\n\n**Plan: 2 to create**\n');
    expect(github.requests.filter((r) => r === 'GET /user')).toHaveLength(2);
  });

  it('with GITHUB_TOKEN (GET /user refused): the comment of github-actions[bot], updated in place', async () => {
    await postPlan({ target: 'production', report: PLAN(1) });
    await postPlan({ target: 'production', report: PLAN(3) });
    expect(github.comments.map((c) => [c.user.login, c.body.split('\n')[0]])).toEqual([['github-actions[bot]', '<!-- gwops-plan target=production -->']]);
    expect(github.comments[0]?.body).toContain('**Plan: 3 to create**');
  });

  it("never touches a person's comment that quotes the marker, nor another bot's", async () => {
    const person = github.add({ login: 'bob', type: 'User' }, '<!-- gwops-plan target=production -->\nI copied this plan');
    const other = github.add({ login: 'renovate[bot]', type: 'Bot' }, '<!-- gwops-plan target=production -->\nnot ours');
    await postPlan({ target: 'production', report: PLAN(1) });
    expect(github.comments).toHaveLength(3);
    expect(person.body).toBe('<!-- gwops-plan target=production -->\nI copied this plan');
    expect(other.body).toBe('<!-- gwops-plan target=production -->\nnot ours');
  });

  it('two plan steps for two targets keep two comments, each naming its target; a re-run updates its own', async () => {
    await postPlan({ target: 'staging', report: PLAN(1) });
    await postPlan({ target: 'production', report: PLAN(2) });
    await postPlan({ target: 'staging', report: PLAN(5) });
    expect(github.comments.map((c) => c.body.split('\n').slice(0, 2))).toEqual([
      ['<!-- gwops-plan target=staging -->', '### gwops plan for target `staging`'],
      ['<!-- gwops-plan target=production -->', '### gwops plan for target `production`'],
    ]);
    expect(github.comments[0]?.body).toContain('**Plan: 5 to create**');
    expect(github.comments[1]?.body).toContain('**Plan: 2 to create**');
  });

  it('tells projects in two directories apart, and a target named like the start of another', async () => {
    await postPlan({ target: 'prod', workingDirectory: 'gateways/eu/', report: PLAN(1) });
    await postPlan({ target: 'prod', workingDirectory: './gateways/us', report: PLAN(2) });
    await postPlan({ target: 'production', workingDirectory: 'gateways/eu', report: PLAN(3) });
    expect(github.comments.map((c) => c.body.split('\n').slice(0, 2))).toEqual([
      ['<!-- gwops-plan target=prod dir=gateways%2Feu -->', '### gwops plan for target `prod` in `gateways/eu`'],
      ['<!-- gwops-plan target=prod dir=gateways%2Fus -->', '### gwops plan for target `prod` in `gateways/us`'],
      ['<!-- gwops-plan target=production dir=gateways%2Feu -->', '### gwops plan for target `production` in `gateways/eu`'],
    ]);
  });

  it('finds its comment on a later page of the list', async () => {
    for (let i = 0; i < 130; i++) github.add({ login: 'bob', type: 'User' }, `comment ${i}`);
    const ours = github.add({ login: 'github-actions[bot]', type: 'Bot' }, '<!-- gwops-plan target=production -->\nold plan');
    await postPlan({ target: 'production', report: PLAN(4) });
    expect(github.requests.filter((r) => r.startsWith('GET /repos/acme/gateway/issues/17/comments'))).toEqual([
      'GET /repos/acme/gateway/issues/17/comments?per_page=100&page=1',
      'GET /repos/acme/gateway/issues/17/comments?per_page=100&page=2',
    ]);
    expect(github.comments).toHaveLength(131);
    expect(ours.body).toContain('**Plan: 4 to create**');
  });

  it("with a GitHub App's token: the comment of the login given in comment-author", async () => {
    await postPlan({ token: 'app-token', commentAuthor: 'gateway-bot[bot]', target: 'production', report: PLAN(1) });
    await postPlan({ token: 'app-token', commentAuthor: 'gateway-bot[bot]', target: 'production', report: PLAN(2) });
    expect(github.comments.map((c) => c.user.login)).toEqual(['gateway-bot[bot]']);
    expect(github.requests).not.toContain('GET /user');
  });

  it('without a target (no --target, no plan file): the bare marker and heading', async () => {
    await postPlan({ report: PLAN(1) });
    expect(github.comments[0]?.body.split('\n').slice(0, 2)).toEqual([MARKDOWN_MARKER, '### gwops plan']);
  });

  it('says the plan failed, naming the target and linking the run, when gwops wrote no report', async () => {
    await postPlan({ target: 'production', exit: '1' });
    expect(github.comments[0]?.body).toBe(
      `<!-- gwops-plan target=production -->\n**gwops plan for target \`production\` failed** (exit code 1): the reason is in the [workflow run](${RUN_URL}).`,
    );
  });

  it('cuts a plan over 60,000 characters at a line end, closes what is open, and links the run and the artifact', async () => {
    const section = (i: number): string => `<details><summary>object ${i}</summary>\n\n\`\`\`diff\n${'+ attribute: value\n'.repeat(40)}\`\`\`\n\n</details>\n`;
    let report = `${MARKDOWN_MARKER}\n### gwops plan\n\n`;
    for (let i = 0; report.length < 200_000; i++) report += section(i);
    await postPlan({ target: 'production', report });
    const body = github.comments[0]?.body ?? '';
    expect(body.length).toBeLessThan(60_500);
    expect(body.startsWith('<!-- gwops-plan target=production -->\n### gwops plan for target `production`\n')).toBe(true);
    expect(body.trimEnd()).toMatch(
      new RegExp(`the whole plan is in the summary of the \\[workflow run\\]\\(${RUN_URL}\\) and in the \\[plan files\\]\\(${ARTIFACT_URL}\\) \\(markdown, text, JSON\\)\\._$`),
    );
    const kept = body.slice(0, body.indexOf('\n\n_The plan is longer'));
    expect(kept.split('\n').filter((l) => l === '```diff').length).toBe(kept.split('\n').filter((l) => l === '```').length);
    expect(kept.match(/<details>/g)?.length).toBe(kept.match(/<\/details>/g)?.length);
  });

  it('posts only the report the run step wrote: a path elsewhere (the runner environment, a symbolic link) is not read', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'gwops-'));
    const link = join(elsewhere, 'plan.md');
    symlinkSync('/proc/self/environ', link);
    for (const reportPath of ['/proc/self/environ', link, '/etc/passwd']) {
      github.comments = [];
      const warnings = await postPlan({ target: 'production', exit: '3', report: PLAN(1), reportPath });
      expect(warnings).toEqual([expect.stringContaining('not the one the run step wrote') as string]);
      expect(github.comments.map((c) => c.body)).toEqual([
        `<!-- gwops-plan target=production -->\n**gwops plan for target \`production\` failed** (exit code 3): the reason is in the [workflow run](${RUN_URL}).`,
      ]);
    }
  });

  it('warns instead of failing when the token may not comment (a pull request from a fork)', async () => {
    const warnings = await postPlan({ token: 'fork-token', target: 'production', report: PLAN(1) });
    expect(github.comments).toEqual([]);
    expect(warnings).toEqual([expect.stringContaining('pull-requests: write') as string]);
  });
});

describe('a target name that tries to forge the outputs of the run step', () => {
  const HOSTILE = 'staging\nexitcode=0\nreport=/proc/self/environ\r\nhas-changes<<EOF\ntrue\nEOF';

  it('leaves exitcode, report and target as the run step set them, and the comment posts the plan gwops wrote', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gwops-hostile-target-'));
    const stub = join(dir, 'gwops-stub.mjs');
    // gwops as it answers a plan the validator rejects: the markdown plan, the plan file of
    // --out naming the target of the project file, exit 3.
    writeFileSync(
      stub,
      [
        "import { writeFileSync } from 'node:fs';",
        'const args = process.argv.slice(2);',
        "if (args[0] === '--version') { console.log('0.1.0'); process.exit(0); }",
        "writeFileSync(args[args.indexOf('--out') + 1], JSON.stringify({ gateway: { target: process.env.STUB_TARGET } }));",
        `process.stdout.write(${JSON.stringify(PLAN(1))});`,
        'process.exitCode = 3;',
      ].join('\n'),
    );
    const runnerTemp = mkdtempSync(join(tmpdir(), 'gwops-runner-temp-'));
    const r = runComposite(loadAction(), {
      with: { command: 'plan' },
      replace: { install: { bin: stub, dist: join(ROOT, 'dist') } },
      env: { STUB_TARGET: HOSTILE, RUNNER_TEMP: runnerTemp },
    });
    expect(r.code, 'the validator errors fail the action').toBe(3);
    expect(r.steps.run?.outputs).toMatchObject({ exitcode: '3', 'has-changes': 'false', target: '' });
    expect(Object.keys(r.steps.run?.outputs ?? {}).sort()).toEqual(['artifact', 'comment', 'exitcode', 'has-changes', 'plan-files', 'report', 'target']);
    const report = r.outputs.report ?? '';
    expect(report).toMatch(new RegExp(`^${runnerTemp}/gwops-[A-Za-z0-9]{6}/plan\\.md$`));
    expect(r.log).toContain('::warning::gwops action: the target name holds a control character');
    expect(r.summary).not.toContain('exitcode=0');

    const warnings = await postPlan({ exit: r.outputs.exitcode, target: r.steps.run?.outputs.target, reportPath: report, runnerTemp });
    expect(warnings).toEqual([]);
    expect(github.comments.map((c) => c.body)).toEqual([`${MARKDOWN_MARKER}\n### gwops plan\n\n**Plan: 1 to create**\n`]);
  });
});
