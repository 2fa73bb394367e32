/**
 * The generated pages of `docs/`:
 * - `docs/manifest-reference.md` from the schemas and the kind registry
 *   (tools/docs/manifest-reference.ts);
 * - `docs/cli-reference.md` from the real CLI's `--help` (tools/docs/cli-reference.ts).
 *
 * `npm run docs` writes them (`node dist-tools/docs/generate.js --write`; without `--write` it
 * only reports the files that are out of date). `test/docs/generated.test.ts` fails when a
 * committed file differs from what {@link currentGeneratedDocs} makes.
 */
import { pathToFileURL } from 'node:url';
import { KINDS } from '#src/kinds/index.js';
import { documentSchema } from '#src/schema/index.js';
import { committedText, runGenerator } from '#src/core/generated-files.js';
import type { GeneratedFile, GeneratedFolder } from '#src/core/generated-files.js';
import { cliReference } from './cli-reference.js';
import type { HelpReader } from './cli-reference.js';
import { DOCS_COMMAND, manifestReference } from './manifest-reference.js';

export { DOCS_COMMAND };

export const MANIFEST_REFERENCE_FILE = 'manifest-reference.md';
export const CLI_REFERENCE_FILE = 'cli-reference.md';

/** The generated pages of `docs/`. */
export const DOCS_FOLDER: GeneratedFolder = { dir: new URL('../../docs/', import.meta.url), label: 'docs', command: DOCS_COMMAND };

/** One generated page of `docs/`. */
export type GeneratedDoc = GeneratedFile;

/** The text of `docs/<fileName>` as it is on disk now, or undefined when missing. */
export function committedDocText(fileName: string): string | undefined {
  return committedText(DOCS_FOLDER, fileName);
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

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = await runGenerator(DOCS_FOLDER, 'dist-tools/docs/generate.js', currentGeneratedDocs, process.argv.slice(2));
