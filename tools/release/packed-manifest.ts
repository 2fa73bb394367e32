/**
 * The package.json that goes into the tarball (`npm pack`, `npm publish`) holds no
 * `prepare` script. gwops needs `prepare` to be installed from Git (npm clones the
 * repository, installs the build tools and runs `prepare`, which builds dist/), but a
 * tarball holds dist/ already: installed from a tarball, a `prepare` script is one npm lists
 * among the dependencies' install scripts to approve, though it has nothing to do.
 *
 * `node dist-tools/release/packed-manifest.js strip` (the end of `prepack`, after the build) keeps
 * package.json aside and writes it without `scripts.prepare`; `… restore` (`postpack`) puts
 * the kept one back. A strip whose restore never ran (the pack failed) is restored by the
 * next strip first, so the kept file is never overwritten with a stripped one.
 * Development tooling; exit code 0, or 1 with the reason on stderr.
 */
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FILE_LIMITS, readTextBounded } from '#src/core/files.js';
import { writeFileAtomicSync } from '#src/core/staged-files.js';

/** Where package.json is kept while packing, beside it: not in the package's `files`, and a leftover shows in `git status`. */
export const KEPT = '.package.json.packing';

/** package.json's text without `scripts.prepare`, its formatting otherwise kept (two-space JSON, as npm writes it). */
export function withoutPrepare(text: string): string {
  const manifest = JSON.parse(text) as { scripts?: Record<string, string> };
  if (manifest.scripts?.prepare === undefined) return text;
  delete manifest.scripts.prepare;
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** Keeps package.json of the package in `dir` aside and writes it without `prepare`. */
export function strip(dir: string): void {
  const kept = join(dir, KEPT);
  if (existsSync(kept)) restore(dir);
  const text = readTextBounded(join(dir, 'package.json'), FILE_LIMITS.bundled);
  writeFileAtomicSync(kept, text);
  writeFileAtomicSync(join(dir, 'package.json'), withoutPrepare(text));
}

/** Puts back the package.json {@link strip} kept aside; nothing when none is kept. */
export function restore(dir: string): void {
  const kept = join(dir, KEPT);
  if (existsSync(kept)) renameSync(kept, join(dir, 'package.json'));
}

/** The command line: `strip` or `restore`, in the current directory (npm runs scripts in the package's). */
export function main(args: readonly string[], dir: string): number {
  try {
    if (args[0] === 'strip' && args.length === 1) strip(dir);
    else if (args[0] === 'restore' && args.length === 1) restore(dir);
    else throw new Error('usage: node dist-tools/release/packed-manifest.js strip|restore');
    return 0;
  } catch (error) {
    process.stderr.write(`packed-manifest: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main(process.argv.slice(2), process.cwd());
