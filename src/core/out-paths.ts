/**
 * Checks of a path gwops is about to write (`init`'s files, `export --out`, `plan --out`),
 * made before anything is written, deleted or sent to a gateway, so that an ordinary
 * mistake (a file where a directory should be, a directory without write permission, a
 * name longer than a file name may be) gets one line saying what is wrong instead of an
 * errno half-way through the writes.
 */
import { constants } from 'node:fs';
import { access, lstat, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { dirname, parse, sep } from 'node:path';
import { errnoWords } from './files.js';

/** The longest name of one file or directory, in bytes (NAME_MAX of Linux and macOS). */
export const NAME_MAX_BYTES = 255;

/** The longest path, in bytes (PATH_MAX of Linux). */
export const PATH_MAX_BYTES = 4096;

/** What a path is about to become. */
export type WriteTarget = 'file' | 'directory';

function kindOf(info: Stats): string {
  return info.isFile() ? 'a file' : info.isSymbolicLink() ? 'a symbolic link' : info.isFIFO() ? 'a FIFO' : info.isSocket() ? 'a socket' : 'a device';
}

/** The lstat of `path`, undefined when nothing is there, or the words of what failed. */
async function look(path: string, follow: boolean): Promise<Stats | undefined | { problem: string }> {
  try {
    return await (follow ? stat(path) : lstat(path));
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? (error as { code: unknown }).code : undefined;
    // ENOTDIR: a part of the path is no directory; the walk up to it names that part.
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return { problem: `${path}: ${errnoWords(error)}` };
    const link = follow ? await lstat(path).catch(() => undefined) : undefined;
    return link === undefined ? undefined : { problem: `${path} is a symbolic link to nothing` };
  }
}

/**
 * The part of {@link writeProblem} that needs no file system: why `full` is too long (the
 * whole path, or one of its names), or undefined.
 */
export function lengthProblem(full: string): string | undefined {
  if (Buffer.byteLength(full) > PATH_MAX_BYTES) return `the path is ${Buffer.byteLength(full)} bytes long, more than the ${PATH_MAX_BYTES} a path may have`;
  for (const name of full.split(sep)) {
    const bytes = Buffer.byteLength(name);
    if (bytes > NAME_MAX_BYTES) return `the name '${name.slice(0, 40)}…' is ${bytes} bytes long, more than the ${NAME_MAX_BYTES} a file name may have`;
  }
  return undefined;
}

/**
 * Why `full` cannot be written as a `target`, or undefined when it can as far as can be
 * told before writing: every name of the path fits in {@link NAME_MAX_BYTES} and the whole
 * in {@link PATH_MAX_BYTES}; each part of the path that exists is a directory (symbolic
 * links to directories included); `full` itself, when it exists, is a directory (for a
 * `directory`) or not one (for a `file`), and is no dangling symbolic link; and the nearest
 * existing directory is writable.
 * @param full an absolute path
 * @returns one phrase naming the path at fault, e.g. "/tmp/a is a file, not a directory"
 */
export async function writeProblem(full: string, target: WriteTarget): Promise<string | undefined> {
  const tooLong = lengthProblem(full);
  if (tooLong !== undefined) return tooLong;
  const own = await look(full, true);
  if (own !== undefined && 'problem' in own) return own.problem;
  if (own !== undefined) {
    if (target === 'directory' && !own.isDirectory()) return `${full} is ${kindOf(own)}, not a directory`;
    if (target === 'file' && own.isDirectory()) return `${full} is a directory; name a file`;
  }
  // The nearest ancestor that exists must be a directory we may write in.
  let dir = own?.isDirectory() === true ? full : dirname(full);
  const root = parse(full).root;
  for (;;) {
    const info = await look(dir, true);
    if (info !== undefined && 'problem' in info) return info.problem;
    if (info !== undefined) {
      if (!info.isDirectory()) return `${dir} is ${kindOf(info)}, not a directory`;
      break;
    }
    if (dir === root) break;
    dir = dirname(dir);
  }
  try {
    await access(dir, constants.W_OK);
  } catch (error) {
    return `cannot write in ${dir}: ${errnoWords(error)}`;
  }
  return undefined;
}
