/**
 * The documentation points at what the release process produces (CONTRIBUTING.md
 * "Releasing"): every release reference in README.md, docs/, examples/, templates/ (the
 * workflow `gwops init` writes) and action.yml names the version of package.json, and the
 * action's moving tag its major; `gwops --version` prints that version too; CHANGELOG.md
 * is in the form `npm run release` reads.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/cli/main.js';
import { releaseChangelog, releaseNotes } from '../../tools/release/changelog.js';
import { findVersionReferences, namesReleases, rewriteVersionReferences } from '../../tools/release/version-references.js';
import { withoutPrepare } from '../../tools/release/packed-manifest.js';
import { thrownBy } from '../support/thrown.js';

const ROOT = join(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; scripts: Record<string, string> };
const major = pkg.version.split('.')[0] ?? '';
const files = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).stdout.split('\n').filter(namesReleases);

describe('release references in the documentation', () => {
  it('are found in the install instructions, the recipes, the workflow of gwops init and action.yml', () => {
    const where = files.filter((f) => findVersionReferences(readFileSync(join(ROOT, f), 'utf8')).length > 0);
    for (const f of ['README.md', 'action.yml', 'docs/ci-guide.md', 'examples/ci/plan-on-pull-request.yml', 'templates/init/workflow.yml']) expect(where).toContain(f);
  });

  it(`each names the version of package.json (${pkg.version}), or its major (v${major}) for the action`, () => {
    const wrong = files.flatMap((f) =>
      findVersionReferences(readFileSync(join(ROOT, f), 'utf8'))
        .filter((r) => r.found !== (r.major ? major : pkg.version))
        .map((r) => `${f}:${r.line}: ${r.found}`),
    );
    expect(wrong).toEqual([]);
  });

  it('gwops --version prints the version of package.json', () => {
    expect(VERSION).toBe(pkg.version);
  });

  it('are rewritten by kind: the whole version, or the major of the action', () => {
    const text = 'npx github:o/gwops#v0.1.0 x\ngwops-0.1.0.tgz gwops@0.1.0 `v0.1.0` /releases/download/v0.1.0/x\nuses: o/gwops@v0\nuses: o/gwops@v0.1.0\nnode 20.19.0 actionlint 1.6.22 `v2`\n';
    expect(findVersionReferences(text).map((r) => r.found)).toEqual(['0.1.0', '0.1.0', '0.1.0', '0.1.0', '0.1.0', '0', '0.1.0']);
    expect(rewriteVersionReferences(text, '3.2.1')).toBe(
      'npx github:o/gwops#v3.2.1 x\ngwops-3.2.1.tgz gwops@3.2.1 `v3.2.1` /releases/download/v3.2.1/x\nuses: o/gwops@v3\nuses: o/gwops@v3.2.1\nnode 20.19.0 actionlint 1.6.22 `v2`\n',
    );
  });
});

describe('CHANGELOG.md', () => {
  const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');

  it('has an Unreleased section on top; the version of package.json is released there or waits in it', () => {
    expect(changelog).toMatch(/^# Changelog\n[\s\S]*?\n## \[Unreleased\]\n/);
    const sections = [...changelog.matchAll(/^## \[([^\]]+)\]/gm)].map((m) => m[1]);
    expect(sections[0]).toBe('Unreleased');
    expect(sections[1] ?? pkg.version, 'the newest release').toBe(pkg.version);
    expect(releaseNotes(releaseChangelog(changelog, '99.0.0', '2030-01-01'), '99.0.0')).toMatch(/^### /);
  });

  it('a release needs an entry under Unreleased and a version without a section', () => {
    const empty = '# Changelog\n\n## [Unreleased]\n\n## [1.0.0] - 2026-01-01\n\n- x\n';
    expect(thrownBy(() => releaseChangelog(empty, '1.1.0', '2026-02-02')).message).toContain('lists no change');
    expect(thrownBy(() => releaseChangelog(empty.replace('## [Unreleased]\n', '## [Unreleased]\n\n- y\n'), '1.0.0', '2026-02-02')).message).toContain('has a section for 1.0.0 already');
    expect(releaseChangelog(empty.replace('## [Unreleased]\n', '## [Unreleased]\n\n- y\n'), '1.1.0', '2026-02-02')).toBe(
      '# Changelog\n\n## [Unreleased]\n\n## [1.1.0] - 2026-02-02\n\n- y\n\n## [1.0.0] - 2026-01-01\n\n- x\n',
    );
  });
});

describe('the package', () => {
  it('builds before it is packed, is packed without prepare and gets it back after (Git installs need prepare)', () => {
    expect(pkg.scripts.prepare).toBe('npm run build');
    expect(pkg.scripts.prepack).toBe('npm run build:tools && node dist-tools/release/packed-manifest.js strip');
    expect(pkg.scripts.postpack).toBe('node dist-tools/release/packed-manifest.js restore');
    const text = readFileSync(join(ROOT, 'package.json'), 'utf8');
    const packed = JSON.parse(withoutPrepare(text)) as { scripts: Record<string, string> };
    expect(packed.scripts.prepare).toBeUndefined();
    expect({ ...packed.scripts, prepare: pkg.scripts.prepare }).toEqual(pkg.scripts);
  });
});
