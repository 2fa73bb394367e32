/**
 * ZIP archives for configuration and mapping export/import (docs/gateway-api.md "Export and
 * import"), through the `fflate` library: the emulator only maps its entries to and from
 * buffers.
 */
import { unzipSync, zipSync } from 'fflate';

/** A file inside a ZIP archive. */
export interface ZipEntry {
  readonly name: string;
  readonly data: Buffer;
}

/** An archive that cannot be read (corrupt, truncated, or using unsupported features). */
export class ZipFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipFormatError';
  }
}

/** A deflated ZIP archive of `entries`, each stamped with `date`. */
export function writeZip(entries: readonly ZipEntry[], date: Date = new Date()): Buffer {
  const files = Object.fromEntries(entries.map((e) => [e.name, new Uint8Array(e.data)]));
  return Buffer.from(zipSync(files, { level: 6, mtime: date }));
}

/**
 * The files of a ZIP archive (directories left out).
 * @throws ZipFormatError when the archive cannot be read
 */
export function readZip(zip: Buffer): ZipEntry[] {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(new Uint8Array(zip));
  } catch (error) {
    throw new ZipFormatError(error instanceof Error ? error.message : String(error));
  }
  return Object.entries(files)
    .filter(([name]) => !name.endsWith('/'))
    .map(([name, data]) => ({ name, data: Buffer.from(data) }));
}
