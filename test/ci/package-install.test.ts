/**
 * gwops installed outside this checkout, as a team installs it: `npm pack` into a temporary
 * directory, the tarball installed into an empty project (its dependencies from the npm
 * cache, which `npm ci` of this repository filled), then the installed `gwops` run there.
 * What it proves: the package's `files` hold everything the CLI reads at run time (dist,
 * schemas, server defaults, the templates of init, the examples), `bin` works from
 * node_modules/.bin, the install runs no script and asks for none (the packed package.json
 * has no `prepare`), and the scripts that install from a git reference build the package
 * (`prepare`). The pack runs npm's whole pack lifecycle in a copy of the repository but the
 * build that `prepack` starts with: `npm test` has built dist/ before this runs, and the
 * copy takes it (test/ci/workflow-runner.ts `prebuilt`).
 */
import { spawnSync } from 'node:child_process';
import type { SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './action-runner.js';
import { copyOfRepository, prebuilt } from './workflow-runner.js';

interface PackageJson {
  readonly version: string;
  readonly files: readonly string[];
  readonly bin: Record<string, string>;
  readonly scripts: Record<string, string>;
}
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;

/** Runs a command; the test fails with its output when it exits non-zero. */
function run(command: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 240_000 });
  expect(result.status, `${command} ${args.join(' ')}\n${result.stdout}\n${result.stderr}`).toBe(0);
  return result;
}

describe('the package, installed from its tarball into an empty project', () => {
  let project: string;
  let gwops: string;
  let install: SpawnSyncReturns<string>;
  beforeAll(() => {
    const temp = mkdtempSync(join(tmpdir(), 'gwops-pack-'));
    const checkout = copyOfRepository();
    prebuilt(checkout);
    run('npm', ['pack', '--pack-destination', temp], checkout);
    const tarball = readdirSync(temp).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBe(`gwops-${pkg.version}.tgz`);
    project = join(temp, 'team-repository');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{ "private": true }\n');
    install = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(temp, tarball ?? '')], project);
    gwops = join(project, 'node_modules', '.bin', 'gwops');
  }, 300_000);

  it('installs without a word on stderr: no install script to approve (the packed package.json has no prepare)', () => {
    expect(install.stderr).toBe('');
    const installed = JSON.parse(readFileSync(join(project, 'node_modules', 'gwops', 'package.json'), 'utf8')) as PackageJson;
    expect(installed.scripts.prepare).toBeUndefined();
  });

  it('gwops --version prints the version of package.json', () => {
    expect(run(gwops, ['--version'], project).stdout.trim()).toBe(pkg.version);
  });

  it('gwops validate checks the examples the package ships (schemas and server defaults read from the package)', () => {
    const r = run(gwops, ['validate', '--config', 'node_modules/gwops/examples/gwops.yaml', '--skip-secrets'], project);
    expect(r.stdout).toMatch(/^\d+ documents valid \(variant latest\)$/m);
  });

  it('gwops init writes its templates, and gwops validate accepts what it wrote', () => {
    const team = join(project, 'gateway');
    mkdirSync(team);
    run(gwops, ['init'], team);
    expect(readdirSync(join(team, '.github', 'workflows'))).toEqual(['gwops.yml']);
    expect(run(gwops, ['validate'], team).stdout).toContain('documents valid');
  });
});

describe('the scripts that install from a git reference', () => {
  it('prepare builds dist/ (npm runs it after installing a git dependency); prepack builds before npm pack and packs without prepare', () => {
    expect(pkg.scripts.prepare).toBe('npm run build');
    // tsc, then the validators precompiled from the schemas (src/manifest/precompile.ts).
    expect(pkg.scripts.build).toMatch(/^tsc -p tsconfig\.json && node dist\/manifest\/precompile\.js$/);
    expect(pkg.scripts.prepack).toBe('npm run build:tools && node dist-tools/release/packed-manifest.js strip');
    expect(pkg.scripts.postpack).toBe('node dist-tools/release/packed-manifest.js restore');
  });

  it('files holds every folder the CLI reads at run time', () => {
    for (const folder of ['bin', 'dist', 'schemas', 'server-defaults', 'templates', 'examples']) expect(pkg.files).toContain(folder);
    expect(pkg.bin.gwops).toBe('bin/gwops.js');
  });
});
