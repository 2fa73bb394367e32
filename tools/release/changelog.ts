/**
 * CHANGELOG.md in the form of Keep a Changelog (https://keepachangelog.com/en/1.1.0/): a
 * `## [Unreleased]` section on top, then one `## [x.y.z] - YYYY-MM-DD` section per release,
 * newest first, each with `### Added`, `### Changed`, `### Fixed`, … lists. A release
 * (`npm run release`, tools/release/release.ts) turns what is under Unreleased into the
 * release's section and leaves an empty Unreleased above it; the release workflow
 * (.github/workflows/release.yml) takes a release's notes from its section.
 */
import { UsageError } from '#src/core/errors.js';
import { trimEdges } from '#src/core/linear-text.js';

const UNRELEASED = /^## \[Unreleased\][ \t]*$/m;
const SECTION = /^## /m;

/** A version as a release names it: three numbers, no pre-release or build part. */
export const RELEASE_VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/** The body of the section whose heading line matches `heading`, or undefined when there is none. */
function sectionBody(text: string, heading: RegExp): { start: number; end: number; body: string } | undefined {
  const match = heading.exec(text);
  if (!match) return undefined;
  const start = match.index + match[0].length;
  const next = SECTION.exec(text.slice(start + 1));
  const end = next ? start + 1 + next.index : text.length;
  return { start, end, body: text.slice(start, end) };
}

const escape = (version: string): string => version.replace(/\./g, '\\.');

/**
 * The changelog with the entries under `## [Unreleased]` moved into a new section
 * `## [version] - date` below an empty Unreleased section.
 * @param date The release day, `YYYY-MM-DD` (UTC).
 * @throws UsageError when there is no Unreleased section, it holds no entry (a release
 *   says what changed), or the version has a section already.
 */
export function releaseChangelog(text: string, version: string, date: string): string {
  const unreleased = sectionBody(text, UNRELEASED);
  if (!unreleased) throw new UsageError('CHANGELOG.md has no "## [Unreleased]" section');
  if (!unreleased.body.split('\n').some((line) => /^[-*] /.test(line.trimStart()))) throw new UsageError('CHANGELOG.md: the "## [Unreleased]" section lists no change; say what this release changes first');
  if (new RegExp(`^## \\[${escape(version)}\\]`, 'm').test(text)) throw new UsageError(`CHANGELOG.md has a section for ${version} already`);
  const body = trimEdges(unreleased.body, '\n');
  return `${text.slice(0, unreleased.start)}\n\n## [${version}] - ${date}\n\n${body}\n\n${text.slice(unreleased.end)}`;
}

/**
 * The notes of one release: the body of its section, without the heading.
 * @throws UsageError when the changelog has no section for `version`.
 */
export function releaseNotes(text: string, version: string): string {
  const section = sectionBody(text, new RegExp(`^## \\[${escape(version)}\\][^\\n]*$`, 'm'));
  if (!section) throw new UsageError(`CHANGELOG.md has no section "## [${version}]"`);
  return `${section.body.trim()}\n`;
}
