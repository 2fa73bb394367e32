/**
 * Input files: paths given on the command line or in the project file, directories
 * searched recursively for `*.yaml`/`*.yml`, `-` for stdin.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { InputError, FileReadError } from '../core/errors.js';
import { FILE_LIMITS, readFileBoundedAsync } from '../core/files.js';
import { decodeUtf8 } from './source-file.js';
import type { SourceFile } from './source-file.js';
import { PROJECT_FILE, loadProject } from './project.js';
import { STAGING_PREFIX, leftStagingIn } from '../core/staged-files.js';

/** One path to read, with the name it is shown under. */
export interface InputPath {
  /** Absolute path, or `-` for stdin. */
  readonly absolute: string;
  /** Display name (as given, or relative to the working directory). */
  readonly display: string;
}

const MANIFEST_FILE = /\.ya?ml$/i;

/**
 * The largest manifest file (or standard input) read, in bytes: 32 MiB, several times a
 * project of ten thousand mappings. A larger input is refused before it is parsed, so that
 * memory and time stay bounded.
 */
export const MAX_MANIFEST_BYTES = FILE_LIMITS.manifest;

function tooLarge(display: string, bytes: number): InputError {
  return new InputError(
    `cannot read '${display}': ${bytes} bytes is more than the ${MAX_MANIFEST_BYTES / 1048576} MiB a manifest file may hold; split it into several files`,
  );
}

async function readStream(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    bytes += buffer.length;
    if (bytes > MAX_MANIFEST_BYTES) throw tooLarge('-', bytes);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads a manifest file through the bounded reader (src/core/files.ts): only a regular file (a
 * FIFO would block, a device such as /dev/zero never ends) of at most {@link MAX_MANIFEST_BYTES}.
 * @throws InputError naming the file and what is wrong
 */
async function readManifestFile(p: InputPath): Promise<Buffer> {
  try {
    return await readFileBoundedAsync(p.absolute, MAX_MANIFEST_BYTES);
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    const hint = error.kind === 'not-regular' ? '; name a manifest file or a directory of them' : error.kind === 'too-large' ? '; split it into several files' : '';
    throw new InputError(`cannot read '${p.display}': ${error.problem}${hint}`, { cause: error });
  }
}

/** The overlay directories of a project file in `dir`, if there is a readable one. */
function projectOverlays(dir: string): string[] {
  try {
    return Object.values(loadProject(dir).targets).flatMap((t) => t.overlays ?? []);
  } catch {
    return []; // an invalid nested project file is not this run's project: just scan everything
  }
}

/**
 * Refuses a folder that an export killed during its swap left half swapped (src/core/staged-files.ts):
 * it reads as neither the old export nor the new one.
 * @param names the entries of `dir`
 * @throws InputError naming the folder and the entries that may be missing or old
 */
function refuseHalfSwapped(dir: string, display: string, names: readonly string[]): void {
  if (!names.some((name) => name.startsWith(STAGING_PREFIX))) return;
  const left = leftStagingIn(dir, names).find((l) => l.committing);
  if (left === undefined) return;
  throw new InputError(
    `'${display}' is incomplete: an export into it was killed while swapping in its files (${left.entries.join(', ')} may be missing or old); ` +
      'run the same gwops export --force again, which completes the swap, or restore the folder from Git',
  );
}

async function listDirectory(dir: string, display: string, exclude: ReadonlySet<string>, out: InputPath[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // A project file inside a scanned directory is not a manifest, and its overlays are patches.
  if (entries.some((e) => e.name === PROJECT_FILE && e.isFile())) {
    exclude = new Set([...exclude, ...projectOverlays(dir)]);
  }
  refuseHalfSwapped(dir, display, entries.map((e) => e.name));
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === PROJECT_FILE) continue;
    const absolute = path.join(dir, entry.name);
    const shown = path.join(display, entry.name);
    if (entry.isDirectory()) {
      if (!exclude.has(absolute)) await listDirectory(absolute, shown, exclude, out);
    } else if (MANIFEST_FILE.test(entry.name) && (entry.isFile() || entry.isSymbolicLink())) {
      out.push({ absolute, display: shown });
    }
  }
}

/**
 * Expands paths (relative to `cwd`) into the manifest files they name, in a stable order
 * (as given; directory contents sorted by name), each file once.
 * @param exclude absolute directories to skip inside directories (the targets' overlay
 *   directories, which hold patches rather than documents). Inside scanned directories,
 *   `gwops.yaml` files are skipped and their own overlay directories excluded too.
 * @throws InputError when a path does not exist or cannot be read
 */
export async function expandPaths(paths: readonly string[], cwd: string, exclude: ReadonlySet<string>): Promise<InputPath[]> {
  const out: InputPath[] = [];
  const parentsChecked = new Set<string>();
  for (const given of paths) {
    if (given === '-') {
      out.push({ absolute: '-', display: '-' });
      continue;
    }
    const absolute = path.resolve(cwd, given);
    const display = path.isAbsolute(given) ? path.relative(cwd, absolute) || '.' : path.normalize(given);
    // A kind's folder or file of an export may be missing because the export was killed while swapping it in.
    const parent = path.dirname(absolute);
    if (!parentsChecked.has(parent)) {
      parentsChecked.add(parent);
      refuseHalfSwapped(parent, path.dirname(display), await readdir(parent).catch(() => [] as string[]));
    }
    let info;
    try {
      info = await stat(absolute);
    } catch (error) {
      throw new InputError(`cannot read '${given}': ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : 'unreadable'}`, {
        cause: error,
      });
    }
    if (info.isDirectory()) await listDirectory(absolute, display, exclude, out);
    else out.push({ absolute, display });
  }
  const seen = new Set<string>();
  return out.filter((p) => (p.absolute === '-' ? true : seen.has(p.absolute) ? false : (seen.add(p.absolute), true)));
}

/**
 * Reads the files (stdin for `-`), decoded strictly as UTF-8 ({@link decodeUtf8}): bytes
 * that are not UTF-8 become a located error of `parseFile`, not U+FFFD.
 * @throws InputError when a file cannot be read, or `-` is given without a stdin stream
 */
export async function readSources(paths: readonly InputPath[], cwd: string, stdin: NodeJS.ReadableStream | undefined): Promise<SourceFile[]> {
  return Promise.all(
    paths.map(async (p): Promise<SourceFile> => {
      if (p.absolute === '-') {
        if (!stdin) throw new InputError("'-' given but there is no standard input");
        return { file: '-', dir: cwd, ...decodeUtf8(await readStream(stdin)) };
      }
      const bytes = await readManifestFile(p);
      return { file: p.display, dir: path.dirname(p.absolute), ...decodeUtf8(bytes) };
    }),
  );
}
