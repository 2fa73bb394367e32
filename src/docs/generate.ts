/**
 * The generated pages of `docs/`:
 * - `docs/manifest-reference.md` from the schemas and the kind registry
 *   (src/docs/manifest-reference.ts);
 * - `docs/cli-reference.md` from the real CLI's `--help` (src/docs/cli-reference.ts).
 *
 * `npm run docs` writes them (`node dist/docs/generate.js --write`; without `--write` it
 * only reports the files that are out of date). `test/docs/generated.test.ts` fails when a
 * committed file differs from what {@link currentGeneratedDocs} makes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { KINDS } from '../kinds/index.js';
import { documentSchema } from '../schema/index.js';
import { EXIT } from '../exit-codes.js';
import { cliReference } from './cli-reference.js';
import type { HelpReader } from './cli-reference.js';
import { DOCS_COMMAND, manifestReference } from './manifest-reference.js';

export { DOCS_COMMAND };

export const MANIFEST_REFERENCE_FILE = 'manifest-reference.md';
export const CLI_REFERENCE_FILE = 'cli-reference.md';

const DOCS_DIR = new URL('../../docs/', import.meta.url);

/** One generated file of `docs/`. */
export interface GeneratedDoc {
  readonly fileName: string;
  readonly text: string;
}

/** Absolute file URL of a file in `docs/`. */
export function docFileUrl(fileName: string): URL {
  return new URL(fileName, DOCS_DIR);
}

/** The text of `docs/<fileName>` as it is on disk now, or undefined when missing. */
export function committedDocText(fileName: string): string | undefined {
  try {
    return readFileSync(docFileUrl(fileName), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The manifest reference for the registry (`KINDS`) and the schemas on disk. */
export function currentManifestReference(): GeneratedDoc {
  return { fileName: MANIFEST_REFERENCE_FILE, text: manifestReference(KINDS, documentSchema) };
}

/** The CLI reference from the program's help (or the help texts `read` gives). */
export async function currentCliReference(read?: HelpReader): Promise<GeneratedDoc> {
  return { fileName: CLI_REFERENCE_FILE, text: await cliReference(read) };
}

/** Every generated page of `docs/`. */
export async function currentGeneratedDocs(): Promise<GeneratedDoc[]> {
  return [currentManifestReference(), await currentCliReference()];
}

/**
 * `node dist/docs/generate.js [--write]`: with `--write` writes every generated page that
 * differs from its committed text; without it lists them and sets exit code 1.
 */
async function run(args: readonly string[]): Promise<void> {
  const write = args.includes('--write');
  const unknown = args.filter((a) => a !== '--write');
  if (unknown.length > 0) {
    process.stderr.write(`unknown argument ${unknown.join(' ')}: usage: node dist/docs/generate.js [--write]\n`);
    process.exitCode = EXIT.error;
    return;
  }
  const stale = (await currentGeneratedDocs()).filter((f) => committedDocText(f.fileName) !== f.text);
  for (const file of stale) {
    if (write) writeFileSync(docFileUrl(file.fileName), file.text);
    process.stderr.write(`${write ? 'wrote' : 'out of date:'} docs/${file.fileName}\n`);
  }
  if (stale.length === 0) process.stderr.write('generated docs are up to date\n');
  else if (!write) {
    process.stderr.write(`run \`${DOCS_COMMAND}\` to regenerate them\n`);
    process.exitCode = EXIT.error;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await run(process.argv.slice(2));
