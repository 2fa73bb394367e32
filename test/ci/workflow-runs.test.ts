/**
 * The jobs of gwops's own workflows (.github/workflows/), run here as a runner runs them
 * (test/ci/workflow-runner.ts): in a copy of this repository, with the GITHUB_* variables,
 * GITHUB_ENV, GITHUB_OUTPUT and the job summary, this repository's action (`uses: ./`) run
 * step by step. A workflow that fails on GitHub fails here first: a fork's CI is red from
 * its first push otherwise. Not run, each named below with its reason: the steps that need
 * the network (npm ci: node_modules of this checkout stands in), the test suite itself
 * (npm test: this test is part of it) and the hour-long drill matrix; the release itself
 * (gh release create) runs against a stand-in gh that records what it was asked.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './action-runner.js';
import type { JobResult } from './workflow-runner.js';
import { copyOfRepository, git, prebuilt, runJob } from './workflow-runner.js';

/** The `run:` steps not run, by their text, and why. */
const SKIP: Record<string, string> = {
  'npm ci': 'installs from the npm registry, through the network; node_modules of this checkout stands in',
  'npm test': 'the test suite, of which this test is part',
  'npm run drills': "the drills' full matrix, an hour; npm test runs their seeded sample",
};

/** The jobs of every workflow file; a new job or workflow is run here unless it is named in the list of those not run. */
const JOBS: Record<string, readonly string[]> = {
  'ci.yml': ['test', 'drills', 'action'],
  'release.yml': ['release'],
};

describe('the workflows under .github/workflows', () => {
  it('are every one run below', () => {
    const files = readdirSync(join(ROOT, '.github/workflows')).sort();
    expect(files).toEqual(Object.keys(JOBS).sort());
    for (const [file, jobs] of Object.entries(JOBS)) {
      const workflow = parse(readFileSync(join(ROOT, '.github/workflows', file), 'utf8')) as { jobs: Record<string, unknown> };
      expect(Object.keys(workflow.jobs).sort(), file).toEqual([...jobs].sort());
    }
  });
});

describe('ci.yml', () => {
  let workspace: string;
  beforeAll(() => {
    workspace = copyOfRepository();
  });

  it('job test: checkout, node, then npm ci and npm test, which are not run here', () => {
    const r = runJob({ workflow: '.github/workflows/ci.yml', job: 'test', workspace, skip: SKIP });
    expect(r.conclusion).toBe('success');
    expect(r.substituted).toEqual([
      expect.stringContaining('actions/checkout@v4'),
      expect.stringContaining('actions/setup-node@v4'),
      expect.stringContaining('npm ci: not run'),
      expect.stringContaining('npm test: not run'),
    ]);
  });

  it('job drills: the comparison with the committed report runs, the report would be uploaded', () => {
    const r = runJob({ workflow: '.github/workflows/ci.yml', job: 'drills', workspace, skip: SKIP });
    expect(r.conclusion, r.log).toBe('success');
    expect(r.ran).toEqual(['Differences from the committed report']);
  });

  // The action on the emulator, as in a fork's first push: every step, the checks of its
  // last step included (the expected exit codes and outputs).
  let action: JobResult;
  beforeAll(() => {
    action = runJob({ workflow: '.github/workflows/ci.yml', job: 'action', workspace, skip: SKIP });
  }, 240_000);

  it('job action: every step succeeds, the stand-in certificates validated with their keys', () => {
    expect(action.steps, action.log).toBeDefined();
    const failed = Object.entries(action.steps).filter(([, s]) => s.outcome === 'failure');
    expect(failed.map(([name, s]) => `${name}\n${s.log}`)).toEqual([
      // The one step that must fail: its outcome is checked by the last step.
      expect.stringMatching(/^drift-error\n/),
    ]);
    expect(action.conclusion).toBe('success');
    expect(action.steps.validate?.outputs.exitcode).toBe('0');
    expect(action.steps['Check the outputs']?.log).toContain('ok   drift (unreachable gateway): failure/1');
    expect(action.steps['Check the outputs']?.log).not.toContain('::error::');
  });

  it('job action: only checkout and the uses of actions/* inside the action are stood in for', () => {
    expect(action.substituted).toEqual([
      expect.stringContaining('actions/checkout@v4'),
      expect.stringMatching(/^action\.yml actions\/cache@v4: a cache hit/),
    ]);
    expect(action.ran).toContain('Start the emulator in the background');
  });
});

/** A stand-in for the GitHub CLI: records its arguments and the notes file it is given, fails on a file that does not exist. */
function ghStandIn(): { dir: string; calls: () => { args: string[]; notes: string }[] } {
  const dir = mkdtempSync(join(tmpdir(), 'gwops-gh-'));
  const record = join(dir, 'calls.jsonl');
  writeFileSync(record, '');
  writeFileSync(
    join(dir, 'gh'),
    [
      `#!${process.execPath}`,
      "const { appendFileSync, existsSync, readFileSync } = require('node:fs');",
      'const args = process.argv.slice(2);',
      "const notes = args[args.indexOf('--notes-file') + 1] ?? '';",
      "for (const file of [args[3], notes]) if (!existsSync(file)) { console.error(`gh: no such file ${file}`); process.exit(1); }",
      `appendFileSync(${JSON.stringify(record)}, JSON.stringify({ args, notes: readFileSync(notes, 'utf8') }) + '\\n');`,
      "console.log(`https://github.com/your-org/gwops/releases/tag/${args[2]}`);",
    ].join('\n'),
  );
  chmodSync(join(dir, 'gh'), 0o755);
  const calls = (): { args: string[]; notes: string }[] =>
    readFileSync(record, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { args: string[]; notes: string });
  return { dir, calls };
}

const IDENTITY = { GIT_AUTHOR_NAME: 'maintainer', GIT_AUTHOR_EMAIL: 'm@example.com', GIT_COMMITTER_NAME: 'maintainer', GIT_COMMITTER_EMAIL: 'm@example.com' };

/** `npm run release -- <args>` without its build (dist/ is copied in), in `cwd`. */
function releaseScript(cwd: string, args: readonly string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(cwd, 'dist-tools/release/release.js'), ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: cwd, ...IDENTITY } });
  return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

describe('a release: npm run release in a copy of the repository, then release.yml on the tag it made', () => {
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const major = `v${version.split('.')[0] ?? ''}`;
  let workspace: string;
  let script: { code: number; stdout: string; stderr: string };
  beforeAll(() => {
    workspace = copyOfRepository();
    prebuilt(workspace);
    script = releaseScript(workspace, [version]);
  }, 60_000);

  it('the script commits the changelog and the version, tags v<version>, moves the major tag, pushes nothing', () => {
    expect(script.stderr).toBe('');
    expect(script.code).toBe(0);
    expect(script.stdout).toContain(`  git push origin HEAD v${version}\n  git push --force origin ${major}\n`);
    expect(git(workspace, ['log', '-1', '--format=%s']).trim()).toBe(`Release ${version}`);
    expect(git(workspace, ['rev-parse', `v${version}^{commit}`])).toBe(git(workspace, ['rev-parse', 'HEAD']));
    expect(git(workspace, ['rev-parse', `${major}^{commit}`])).toBe(git(workspace, ['rev-parse', 'HEAD']));
    expect(git(workspace, ['status', '--porcelain', '--untracked-files=no'])).toBe('');
    const changelog = readFileSync(join(workspace, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toMatch(new RegExp(`^## \\[Unreleased\\]\\n\\n## \\[${version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}\\n\\n### Added\\n`, 'm'));
  });

  it('the script refuses a second release of the same version, a lower one, and a dirty tree, changing nothing', () => {
    const head = git(workspace, ['rev-parse', 'HEAD']);
    expect(releaseScript(workspace, [version]).stderr).toContain(`the tag v${version} exists already`);
    expect(releaseScript(workspace, ['0.0.1']).stderr).toMatch(/is below the version of package\.json/);
    expect(releaseScript(workspace, ['1.2']).stderr).toContain('is not a release version');
    writeFileSync(join(workspace, 'README.md'), 'changed\n');
    expect(releaseScript(workspace, ['99.0.0']).stderr).toContain('uncommitted changes');
    git(workspace, ['checkout', '--', 'README.md']);
    expect(releaseScript(workspace, ['99.0.0']).stderr, 'nothing under Unreleased').toContain('lists no change');
    expect(git(workspace, ['rev-parse', 'HEAD'])).toBe(head);
    expect(git(workspace, ['status', '--porcelain', '--untracked-files=no'])).toBe('');
  });

  it('release.yml on the tag: the tarball (without prepare) attached to the GitHub release, its notes from the changelog', () => {
    const gh = ghStandIn();
    const r = runJob({ workflow: '.github/workflows/release.yml', job: 'release', workspace, ref: `refs/tags/v${version}`, skip: SKIP, path: [gh.dir] });
    expect(r.conclusion, r.log).toBe('success');
    expect(r.ran).toEqual(['The tag names the version of package.json', 'pack', 'The release notes, from CHANGELOG.md', 'The GitHub release, with the tarball']);
    const tarball = `gwops-${version}.tgz`;
    expect(r.steps.pack?.outputs.tarball).toBe(tarball);
    const [call, ...more] = gh.calls();
    expect(more).toEqual([]);
    expect(call?.args).toEqual(['release', 'create', `v${version}`, tarball, '--verify-tag', '--title', `gwops v${version}`, '--notes-file', expect.stringMatching(/notes\.md$/)]);
    expect(call?.notes).toMatch(/^### Added\n\n- The first release\./);
    const packed = spawnSync('tar', ['-xzOf', join(workspace, tarball), 'package/package.json'], { encoding: 'utf8' }).stdout;
    expect((JSON.parse(packed) as { scripts: Record<string, string> }).scripts.prepare).toBeUndefined();
    expect(readFileSync(join(workspace, 'package.json'), 'utf8'), 'postpack put package.json back').toContain('"prepare": "npm run build"');
  });

  it('the next major release points the documentation at the new tags: the version, and the major the action is used at', () => {
    const changelog = join(workspace, 'CHANGELOG.md');
    writeFileSync(changelog, readFileSync(changelog, 'utf8').replace('## [Unreleased]\n', '## [Unreleased]\n\n### Changed\n\n- Something that breaks.\n'));
    git(workspace, ['commit', '--quiet', '--all', '--message', 'a breaking change']);
    const next = `${Number(version.split('.')[0]) + 1}.0.0`;
    const nextMajor = `v${next.split('.')[0] ?? ''}`;
    const before = git(workspace, ['rev-parse', `${major}^{commit}`]);
    const r = releaseScript(workspace, [next]);
    expect(r.stderr).toBe('');
    expect(readFileSync(join(workspace, 'README.md'), 'utf8')).toContain(`npm install -g github:your-org/gwops#v${next}\n`);
    expect(readFileSync(join(workspace, 'examples/ci/plan-on-pull-request.yml'), 'utf8')).toContain(`uses: your-org/gwops@${nextMajor}\n`);
    expect(readFileSync(join(workspace, 'templates/init/workflow.yml'), 'utf8')).toContain(`uses: your-org/gwops@${nextMajor}\n`);
    expect((JSON.parse(readFileSync(join(workspace, 'package.json'), 'utf8')) as { version: string }).version).toBe(next);
    expect(git(workspace, ['rev-parse', `${nextMajor}^{commit}`])).toBe(git(workspace, ['rev-parse', 'HEAD']));
    expect(git(workspace, ['rev-parse', `${major}^{commit}`]), 'the old major stays on its last release').toBe(before);
    expect(readFileSync(changelog, 'utf8')).toMatch(new RegExp(`## \\[${next.replace(/\./g, '\\.')}\\] - [\\d-]+\\n\\n### Changed\\n\\n- Something that breaks\\.\\n\\n## \\[${version.replace(/\./g, '\\.')}\\]`));
  });

  it('release.yml on a tag that is not the version of package.json fails before anything is made', () => {
    const gh = ghStandIn();
    const r = runJob({ workflow: '.github/workflows/release.yml', job: 'release', workspace, ref: 'refs/tags/v99.0.0', skip: SKIP, path: [gh.dir] });
    expect(r.conclusion).toBe('failure');
    expect(r.ran).toEqual(['The tag names the version of package.json']);
    const current = (JSON.parse(readFileSync(join(workspace, 'package.json'), 'utf8')) as { version: string }).version;
    expect(r.log).toContain(`::error::the tag v99.0.0 does not name the version of package.json (${current})`);
    expect(gh.calls()).toEqual([]);
  });
});
