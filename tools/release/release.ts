/**
 * `npm run release -- <version>`: makes a release of gwops in the repository of the current
 * directory (CONTRIBUTING.md "Releasing"), without pushing anything. In order: checks that
 * the tracked files have no change and that the tag `v<version>` does not exist; moves the
 * entries under `## [Unreleased]` of CHANGELOG.md into `## [<version>] - <today>`; sets the
 * version with `npm version --no-git-tag-version` (package.json and package-lock.json);
 * points every release reference of the documentation at it (tools/release/version-references.ts);
 * commits that as `Release <version>`; tags it `v<version>` (annotated) and moves the major
 * tag `v<major>`, which the action is used at, to it. Then prints the two push commands: the
 * push of the tag starts .github/workflows/release.yml, which makes the GitHub release with
 * the tarball. The version must be above package.json's, or equal to it when that version
 * was never tagged (the first release).
 *
 * `npm run release -- --notes <version>` prints the release notes of a version, its section
 * of CHANGELOG.md (the release workflow's notes).
 *
 * Development tooling: it runs git and npm from the PATH. Exit code 0, or 1 with the reason
 * on stderr; a check that fails changes nothing.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from '#src/core/errors.js';
import { FILE_LIMITS, readTextBounded } from '#src/core/files.js';
import { writeFileAtomicSync } from '#src/core/staged-files.js';
import { RELEASE_VERSION, releaseChangelog, releaseNotes } from './changelog.js';
import { namesReleases, rewriteVersionReferences } from './version-references.js';

/** Runs a command in `cwd`; returns its stdout. @throws UsageError with its output when it fails. */
function run(cwd: string, command: string, args: readonly string[]): string {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new UsageError(`${command} ${args.join(' ')} failed: ${(r.stderr || r.stdout || String(r.error ?? '')).trim()}`);
  return r.stdout;
}

const read = (file: string): string => readTextBounded(file, FILE_LIMITS.bundled);

/** [major, minor, patch] of a release version. */
const parts = (version: string): number[] => version.split('.').map(Number);

/** Negative, zero or positive as `a` is below, equal to or above `b`. */
function compareVersions(a: string, b: string): number {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/**
 * Makes the release commit and its tags in the repository `cwd`.
 * @param date The release day, `YYYY-MM-DD`.
 * @returns The lines to print: what was done, then the push commands.
 * @throws UsageError when a check fails (nothing is changed then) or git or npm fails.
 */
export function release(cwd: string, version: string, date: string): string[] {
  if (!RELEASE_VERSION.test(version)) throw new UsageError(`'${version}' is not a release version: give three numbers, e.g. 1.4.0`);
  const root = run(cwd, 'git', ['rev-parse', '--show-toplevel']).trim();
  if (run(root, 'git', ['status', '--porcelain', '--untracked-files=no']).trim() !== '') {
    throw new UsageError('the working tree has uncommitted changes: commit or discard them first, a release is made from a commit');
  }
  const tag = `v${version}`;
  if (run(root, 'git', ['tag', '--list', tag]).trim() !== '') throw new UsageError(`the tag ${tag} exists already`);
  const current = (JSON.parse(read(join(root, 'package.json'))) as { version: string }).version;
  if (compareVersions(version, current) < 0) throw new UsageError(`${version} is below the version of package.json, ${current}`);
  const changelog = releaseChangelog(read(join(root, 'CHANGELOG.md')), version, date);

  writeFileAtomicSync(join(root, 'CHANGELOG.md'), changelog);
  run(root, 'npm', ['version', version, '--no-git-tag-version', '--allow-same-version']);
  const rewritten: string[] = [];
  for (const file of run(root, 'git', ['ls-files', '-z']).split('\0').filter(namesReleases)) {
    const text = read(join(root, file));
    const next = rewriteVersionReferences(text, version);
    if (next !== text) {
      writeFileAtomicSync(join(root, file), next);
      rewritten.push(file);
    }
  }
  run(root, 'git', ['add', '--update']);
  run(root, 'git', ['commit', '--quiet', '--message', `Release ${version}`]);
  const major = `v${parts(version)[0] ?? 0}`;
  run(root, 'git', ['tag', '--annotate', tag, '--message', `gwops ${version}`]);
  run(root, 'git', ['tag', '--force', '--annotate', major, '--message', `gwops ${version}, the latest release of ${major}`]);
  return [
    `Release ${version}: CHANGELOG.md, package.json and package-lock.json${rewritten.length ? `, ${rewritten.join(', ')}` : ''} committed; tagged ${tag}, ${major} moved to it.`,
    'Nothing is pushed. Push the commit and the tag (the tag starts the release workflow, which attaches the tarball), then move the major tag:',
    `  git push origin HEAD ${tag}`,
    `  git push --force origin ${major}`,
  ];
}

/** The command line: `<version>` or `--notes <version>`. Returns the exit code. */
export function main(args: readonly string[], cwd: string, today: Date): number {
  try {
    if (args[0] === '--notes' && args.length === 2) {
      const root = run(cwd, 'git', ['rev-parse', '--show-toplevel']).trim();
      process.stdout.write(releaseNotes(read(join(root, 'CHANGELOG.md')), (args[1] ?? '').replace(/^v/, '')));
      return 0;
    }
    if (args.length !== 1) throw new UsageError('usage: npm run release -- <version>   (or -- --notes <version>)');
    for (const line of release(cwd, args[0] ?? '', today.toISOString().slice(0, 10))) process.stdout.write(`${line}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`release: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main(process.argv.slice(2), process.cwd(), new Date());
