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
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './action-runner.js';
import type { JobResult } from './workflow-runner.js';
import { copyOfRepository, runJob } from './workflow-runner.js';

/** The `run:` steps not run, by their text, and why. */
const SKIP: Record<string, string> = {
  'npm ci': 'installs from the npm registry, through the network; node_modules of this checkout stands in',
  'npm test': 'the test suite, of which this test is part',
  'npm run drills': "the drills' full matrix, an hour; npm test runs their seeded sample",
};

/** The jobs of every workflow file; a new job or workflow is run here unless it is named in the list of those not run. */
const JOBS: Record<string, readonly string[]> = {
  'ci.yml': ['test', 'drills', 'action'],
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
