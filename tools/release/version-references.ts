/**
 * The places where the documentation names a release of gwops: the Git tag an install
 * takes (`github:your-org/gwops#v1.2.3`), the tarball (`gwops-1.2.3.tgz`) and the release it is
 * attached to (`…/releases/download/v1.2.3/`), a package spec
 * (`gwops@1.2.3`), a tag in backticks (`v1.2.3`), the action pinned to a release
 * (`your-org/gwops@v1.2.3`) and the moving major tag the action is used at
 * (`your-org/gwops@v1`). Each must name what the release process produces
 * (CONTRIBUTING.md "Releasing"): the version of package.json, or its major for the action.
 * `npm run release` rewrites them; a test checks that they agree.
 */

/** One kind of reference: its pattern (the version in the group `v`) and whether it names the major only. */
interface ReferenceKind {
  readonly pattern: RegExp;
  readonly major: boolean;
}

const KINDS: readonly ReferenceKind[] = [
  { pattern: /(?<=gwops#v)(?<v>\d+\.\d+\.\d+)\b/g, major: false },
  { pattern: /(?<=\bgwops-)(?<v>\d+\.\d+\.\d+)(?=\.tgz\b)/g, major: false },
  { pattern: /(?<=\bgwops@)(?<v>\d+\.\d+\.\d+)\b/g, major: false },
  { pattern: /(?<=`v)(?<v>\d+\.\d+\.\d+)(?=`)/g, major: false },
  { pattern: /(?<=\/releases\/download\/v)(?<v>\d+\.\d+\.\d+)(?=\/)/g, major: false },
  { pattern: /(?<=\/gwops@v)(?<v>\d+\.\d+\.\d+)\b/g, major: false },
  { pattern: /(?<=\/gwops@v)(?<v>\d+)(?![\d.])/g, major: true },
];

/** The files that name releases: paths relative to the repository, `/`-separated. The changelog names past releases and is not one of them. */
export function namesReleases(path: string): boolean {
  return /^(README\.md|action\.yml|docs\/[^/]+\.md|examples\/.+\.(md|ya?ml)|templates\/.+)$/.test(path);
}

/** One reference found: its line (1-based), the text found, and what it names (a whole version or a major). */
export interface VersionReference {
  readonly line: number;
  readonly found: string;
  readonly major: boolean;
}

/** Every release reference in `text`, in order of position. */
export function findVersionReferences(text: string): VersionReference[] {
  const found: (VersionReference & { index: number })[] = [];
  for (const kind of KINDS) {
    for (const m of text.matchAll(kind.pattern)) {
      const index = m.index;
      found.push({ index, line: text.slice(0, index).split('\n').length, found: m[0], major: kind.major });
    }
  }
  return found.sort((a, b) => a.index - b.index).map(({ line, found: f, major }) => ({ line, found: f, major }));
}

/** `text` with every release reference naming `version` (or its major). */
export function rewriteVersionReferences(text: string, version: string): string {
  const major = version.split('.')[0] ?? version;
  return KINDS.reduce((t, kind) => t.replace(kind.pattern, kind.major ? major : version), text);
}
