/**
 * The one way gwops reads a file it is given (manifests, overlays, the project file, secret
 * sources, CA and API key files, plan files, TLS files of the emulator command). A path can
 * name anything: a FIFO whose open blocks until a writer comes, a device such as /dev/zero
 * that never ends, a directory, a symbolic link loop, a 2 GB sparse file. So the reader:
 *
 * - opens with `O_NONBLOCK` (a FIFO's open returns at once instead of waiting for a writer);
 * - checks the opened descriptor with `fstat` (not the path, which may change in between);
 * - refuses anything but a regular file, and a file larger than the limit of its use;
 * - reads at most `limit + 1` bytes, so a file that grows while being read is refused too.
 *
 * Reading is therefore bounded in time and memory, and the event loop stays free for the
 * signal handlers (SIGTERM and SIGINT end a run at once). Every failure is a
 * {@link FileReadError} whose `problem` the caller puts in its own one-line message, naming
 * the option or attribute that gave the path. eslint refuses `readFile`, `readFileSync`,
 * `createReadStream` and `open` of `node:fs` anywhere else in src/ (the emulator's own state
 * excepted).
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { FileReadError } from './errors.js';
import type { FileProblemKind } from './errors.js';

const MIB = 1024 * 1024;

/**
 * The largest file of each use, in bytes. A file larger than its limit is refused before
 * it is read.
 */
export const FILE_LIMITS = {
  /** A manifest or overlay file: 32 MiB, several times a project of ten thousand mappings. */
  manifest: 32 * MIB,
  /** The project file (gwops.yaml): 1 MiB. */
  project: MIB,
  /** A `{ fromFile }` secret source (a key, a certificate chain, a password): 1 MiB. */
  secret: MIB,
  /** The content of a document (`content: { fromFile }`: an OpenAPI or GraphQL specification): 16 MiB. */
  content: 16 * MIB,
  /** A CA file (a bundle of PEM certificates): 4 MiB, ten times a system's whole bundle. */
  ca: 4 * MIB,
  /** An API key file: 64 KiB. */
  apiKey: 64 * 1024,
  /** A saved plan file: 256 MiB. */
  plan: 256 * MIB,
  /** A `.gitignore` that `gwops init` adds lines to: 4 MiB. */
  gitignore: 4 * MIB,
  /** A file of gwops itself (schemas, server defaults, generated documents): 64 MiB. */
  bundled: 64 * MIB,
} as const;

/** Reasons an `open` fails, in words (the errno code follows in parentheses). */
const ERRNO_WORDS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'a loop of symbolic links',
  ENAMETOOLONG: 'the name is too long',
  ENXIO: 'it is a socket or a device without a reader, not a regular file',
  EISDIR: 'it is a directory, not a regular file',
  EMFILE: 'too many open files',
  EIO: 'an input/output error',
  EEXIST: 'it exists already',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  ENOTEMPTY: 'the directory is not empty',
  EBUSY: 'it is busy',
};

/** The `code` of a failed system call (`EEXIST`, `ENOENT`, …); undefined for other errors. */
export function errnoCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

/**
 * The words for a failed file system call (a read or a write): "permission denied
 * (EACCES)", or the bare code when it has no words here ("unreadable" when the error has
 * no code).
 */
export function errnoWords(error: unknown): string {
  const code = errnoCode(error);
  if (code === undefined) return 'unreadable';
  const words = ERRNO_WORDS[code];
  return words !== undefined ? `${words} (${code})` : code;
}

function openFailed(file: string, error: unknown): FileReadError {
  const code = error instanceof Error && 'code' in error ? (error as { code: unknown }).code : undefined;
  const kind: FileProblemKind = code === 'ENOENT' ? 'missing' : code === 'EISDIR' || code === 'ENXIO' ? 'not-regular' : 'unreadable';
  return new FileReadError(file, kind, errnoWords(error), { cause: error });
}

function what(info: Stats): string {
  return info.isDirectory()
    ? 'a directory'
    : info.isFIFO()
      ? 'a FIFO (named pipe)'
      : info.isSocket()
        ? 'a socket'
        : info.isCharacterDevice()
          ? 'a character device'
          : info.isBlockDevice()
            ? 'a block device'
            : 'not a regular file';
}

function sizeWords(limit: number): string {
  return limit >= MIB ? `${limit / MIB} MiB` : `${limit / 1024} KiB`;
}

function tooLarge(file: string, limit: number): FileReadError {
  return new FileReadError(file, 'too-large', `it holds more than ${sizeWords(limit)}, the most this file may hold`);
}

/** Refuses what the descriptor's `fstat` shows is not a regular file, or is larger than `limit`. */
function checkOpened(file: string, info: Stats, limit: number): void {
  if (!info.isFile()) {
    const kind = what(info);
    throw new FileReadError(file, 'not-regular', kind === 'not a regular file' ? kind : `it is ${kind}, not a regular file`);
  }
  if (info.size > limit) throw tooLarge(file, limit);
}

// O_NONBLOCK does not exist on Windows, where opening a named pipe does not block.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * Reads a regular file of at most `limit` bytes, synchronously (for the code that reads a
 * file while it walks a document). Bounded: at most `limit + 1` bytes are read.
 * @param file the path (absolute, or relative to the process's working directory)
 * @param limit the largest size accepted, in bytes (one of {@link FILE_LIMITS})
 * @returns the bytes of the file
 * @throws FileReadError when the file cannot be opened, is not a regular file, or holds more than `limit` bytes
 */
export function readFileBounded(file: string, limit: number): Buffer {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    throw openFailed(file, error);
  }
  try {
    const info = fstatSync(fd);
    checkOpened(file, info, limit);
    const buffer = Buffer.allocUnsafe(Math.min(info.size, limit) + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > limit) throw tooLarge(file, limit);
      if (length === buffer.length) return grownSync(fd, file, limit, buffer, length);
    }
    return buffer.subarray(0, length);
  } catch (error) {
    if (error instanceof FileReadError) throw error;
    throw new FileReadError(file, 'unreadable', errnoWords(error), { cause: error });
  } finally {
    closeSync(fd);
  }
}

/** Goes on reading a file that grew after `fstat`, still at most `limit + 1` bytes. */
function grownSync(fd: number, file: string, limit: number, first: Buffer, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(limit + 1);
  first.copy(buffer, 0, 0, length);
  for (;;) {
    const n = readSync(fd, buffer, length, buffer.length - length, null);
    if (n === 0) return buffer.subarray(0, length);
    length += n;
    if (length > limit) throw tooLarge(file, limit);
  }
}

/** {@link readFileBounded} decoded as UTF-8 (invalid bytes become U+FFFD). */
export function readTextBounded(file: string, limit: number): string {
  return readFileBounded(file, limit).toString('utf8');
}

/**
 * Reads a regular file of at most `limit` bytes without blocking the event loop. The same
 * checks as {@link readFileBounded}.
 * @throws FileReadError when the file cannot be opened, is not a regular file, or holds more than `limit` bytes
 */
export async function readFileBoundedAsync(file: string, limit: number): Promise<Buffer> {
  const { handle, info } = await openChecked(file, limit);
  try {
    let buffer = Buffer.allocUnsafe(Math.min(info.size, limit) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        const larger = Buffer.allocUnsafe(limit + 1);
        buffer.copy(larger, 0, 0, length);
        buffer = larger;
      }
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) return buffer.subarray(0, length);
      length += bytesRead;
      if (length > limit) throw tooLarge(file, limit);
    }
  } catch (error) {
    throw readFailed(file, error);
  } finally {
    await handle.close();
  }
}

/** Opens `file` for reading and checks it is a regular file within `limit` (closed again when not). @throws FileReadError */
async function openChecked(file: string, limit: number): Promise<{ handle: FileHandle; info: Stats }> {
  let handle: FileHandle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (error) {
    throw openFailed(file, error);
  }
  try {
    const info = await handle.stat();
    checkOpened(file, info, limit);
    return { handle, info };
  } catch (error) {
    await handle.close();
    throw readFailed(file, error);
  }
}

/** A FileReadError as it is, any other error of reading `file` as an unreadable one. */
function readFailed(file: string, error: unknown): FileReadError {
  return error instanceof FileReadError ? error : new FileReadError(file, 'unreadable', errnoWords(error), { cause: error });
}

/**
 * Reads a regular file of at most `limit` bytes in chunks (of up to `chunkSize` bytes,
 * each a copy the caller may keep), so that it never exists whole in memory. The same
 * checks as {@link readFileBounded}, the size one also while reading.
 * @throws FileReadError when the file cannot be opened, is not a regular file, or holds
 *   more than `limit` bytes (thrown before the first chunk when its size says so, else
 *   once a chunk passes the limit)
 */
export async function* readChunksBoundedAsync(file: string, limit: number, chunkSize = 1024 * 1024): AsyncGenerator<Buffer> {
  const { handle } = await openChecked(file, limit);
  try {
    let length = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(chunkSize);
      const { bytesRead } = await handle.read(buffer, 0, chunkSize, null);
      if (bytesRead === 0) return;
      length += bytesRead;
      if (length > limit) throw tooLarge(file, limit);
      yield buffer.subarray(0, bytesRead);
    }
  } catch (error) {
    throw readFailed(file, error);
  } finally {
    await handle.close();
  }
}

/** {@link readFileBoundedAsync} decoded as UTF-8 (invalid bytes become U+FFFD). */
export async function readTextBoundedAsync(file: string, limit: number): Promise<string> {
  return (await readFileBoundedAsync(file, limit)).toString('utf8');
}
