/**
 * Files that a generator writes into the repository (`npm run schemas`, `npm run docs`):
 * the committed text must be the generator's output byte for byte, and a staleness test
 * says which command regenerates it. One mechanism for every generator.
 */
import { fileURLToPath } from 'node:url';
import { EXIT } from './exit-codes.js';
import type { ExitCode } from './exit-codes.js';
import { FILE_LIMITS, readTextBounded } from './files.js';
import { FileReadError } from './errors.js';
import { writeFileAtomicSync } from './staged-files.js';

/** One generated file: its name inside its folder and its full text. */
export interface GeneratedFile {
  readonly fileName: string;
  readonly text: string;
}

/** A folder of generated files: where it is, how it is named in messages, and what regenerates it. */
export interface GeneratedFolder {
  /** The folder, as a file URL ending in `/`. */
  readonly dir: URL;
  /** Its name relative to the repository, for messages, e.g. `docs`. */
  readonly label: string;
  /** The command that regenerates it, e.g. `npm run docs`. */
  readonly command: string;
}

/** The text of `fileName` in `folder` as it is on disk now (not cached), or undefined when missing. */
export function committedText(folder: GeneratedFolder, fileName: string): string | undefined {
  try {
    return readTextBounded(fileURLToPath(new URL(fileName, folder.dir)), FILE_LIMITS.bundled);
  } catch (error) {
    if (error instanceof FileReadError && error.kind === 'missing') return undefined;
    throw error;
  }
}

/** The first line (1-based) where two texts differ. */
export function firstDifferentLine(a: string, b: string): number {
  const as = a.split('\n');
  const bs = b.split('\n');
  const i = as.findIndex((line, n) => line !== bs[n]);
  return (i === -1 ? as.length : i) + 1;
}

/**
 * Why the committed copy of `file` is not the generator's output, or undefined when it is.
 * @param edit what to edit instead of the generated file, e.g. `the generator or the schemas`
 */
export function stalenessProblem(folder: GeneratedFolder, file: GeneratedFile, edit: string): string | undefined {
  const committed = committedText(folder, file.fileName);
  const where = `${folder.label}/${file.fileName}`;
  if (committed === undefined) return `${where} is missing: run \`${folder.command}\``;
  if (committed === file.text) return undefined;
  return (
    `${where} differs from the generator's output (first at line ${firstDifferentLine(committed, file.text)}): ` +
    `run \`${folder.command}\` and commit the result (edit ${edit}, never the generated file)`
  );
}

/**
 * The command line of a generator: `node <script> [--write]`. With `--write` writes every
 * generated file that differs from its committed text; without it lists them. Progress
 * goes to stderr.
 * @returns the exit code for the script's entry to end with: 1 for an unknown argument or
 *   (without `--write`) stale files, else 0
 */
export async function runGenerator(folder: GeneratedFolder, script: string, files: () => GeneratedFile[] | Promise<GeneratedFile[]>, args: readonly string[]): Promise<ExitCode> {
  const write = args.includes('--write');
  const unknown = args.filter((a) => a !== '--write');
  if (unknown.length > 0) {
    process.stderr.write(`unknown argument ${unknown.join(' ')}: usage: node ${script} [--write]\n`);
    return EXIT.error;
  }
  const stale = (await files()).filter((f) => committedText(folder, f.fileName) !== f.text);
  for (const file of stale) {
    if (write) writeFileAtomicSync(fileURLToPath(new URL(file.fileName, folder.dir)), file.text);
    process.stderr.write(`${write ? 'wrote' : 'out of date:'} ${folder.label}/${file.fileName}\n`);
  }
  if (stale.length === 0) process.stderr.write(`generated ${folder.label} are up to date\n`);
  else if (!write) {
    process.stderr.write(`run \`${folder.command}\` to regenerate them\n`);
    return EXIT.error;
  }
  return EXIT.ok;
}
