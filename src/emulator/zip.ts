/**
 * ZIP archives for configuration and mapping export/import (docs/gateway-api.md "Export and
 * import"), through the `fflate` library: the emulator only maps its entries to and from
 * buffers, or, for a configuration of 100,000 mappings whose entries are far beyond what
 * one string may hold, writes and reads them piece by piece ({@link ZipWriter},
 * {@link readZipStreamed}).
 */
import { constants, deflateRawSync } from 'node:zlib';
import { Unzip, UnzipInflate, Zip, ZipPassThrough, unzipSync, zipSync } from 'fflate';

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

/** The deflate level of every entry written. */
const LEVEL = 6;

/** A deflated ZIP archive of `entries`, each stamped with `date`. */
export function writeZip(entries: readonly ZipEntry[], date: Date = new Date()): Buffer {
  const files = Object.fromEntries(entries.map((e) => [e.name, new Uint8Array(e.data)]));
  return Buffer.from(zipSync(files, { level: LEVEL, mtime: date }));
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

/** Characters of text gathered before they are encoded and deflated. */
const TEXT_CHUNK = 1024 * 1024;

/** Bytes of a compressed archive inflated at a time when read piece by piece. */
const READ_SLICE = 256 * 1024;

/** One entry of a {@link ZipWriter}, written piece by piece. */
export interface ZipEntryWriter {
  /** Appends text (written as UTF-8). */
  write(piece: string): void;
  /** Ends the entry; nothing may be written to it afterwards. */
  end(): void;
}

/**
 * An entry deflated by Node's zlib (native: several times fflate's own deflate, which takes
 * minutes over the gigabytes of a 100,000-mapping configuration), fflate doing the rest
 * (checksum, sizes, headers). Each pushed slice is deflated on its own and ends on a sync
 * flush (byte-aligned, not final), so the slices' raw deflate output joins into one valid
 * stream; the last slice finishes it.
 */
class NativeDeflate extends ZipPassThrough {
  constructor(name: string) {
    super(name);
    this.compression = 8;
  }

  protected override process(chunk: Uint8Array<ArrayBuffer>, final: boolean): void {
    this.ondata(null, new Uint8Array(deflateRawSync(chunk, { level: LEVEL, finishFlush: final ? constants.Z_FINISH : constants.Z_SYNC_FLUSH })), final);
  }
}

/**
 * A deflated ZIP archive written entry by entry and each entry piece by piece, so no entry
 * is ever held whole, as text or as bytes; only the compressed archive is. Entries are
 * stored in the order they were opened; what is written to an entry while an earlier one is
 * still open waits, compressed, until that one ends (an entry may so be written first and
 * stored second, e.g. content whose digest the first entry names).
 */
export class ZipWriter {
  readonly #zip: Zip;
  readonly #chunks: Uint8Array[] = [];
  #complete = false;

  /** @param date the modification time of every entry */
  constructor(private readonly date: Date = new Date()) {
    this.#zip = new Zip((error, chunk, final) => {
      if (error) throw error;
      this.#chunks.push(chunk);
      if (final) this.#complete = true;
    });
  }

  /** Adds the entry `name` to the archive. */
  open(name: string): ZipEntryWriter {
    const file = new NativeDeflate(name);
    file.mtime = this.date;
    this.#zip.add(file);
    let text = '';
    return {
      write(piece) {
        text += piece;
        if (text.length < TEXT_CHUNK) return;
        file.push(Buffer.from(text, 'utf8'));
        text = '';
      },
      end() {
        file.push(Buffer.from(text, 'utf8'), true);
        text = '';
      },
    };
  }

  /**
   * The archive's bytes.
   * @throws Error when an entry was left open (a programming error)
   */
  finish(): Buffer {
    this.#zip.end();
    if (!this.#complete) throw new Error('an entry of the archive was left open');
    return Buffer.concat(this.#chunks);
  }
}

/**
 * Reads the entries of an archive piece by piece: `open(name)` is asked for each file (not
 * directories) and returns what receives its inflated bytes, chunk by chunk (`final` on the
 * last), or undefined to skip the file. An archive without any file reads as none.
 * @throws ZipFormatError when the archive cannot be read; whatever a receiver throws, as it is
 */
export function readZipStreamed(zip: Buffer, open: (name: string) => ((chunk: Uint8Array, final: boolean) => void) | undefined): void {
  /** What a receiver threw, kept apart from fflate's own errors. */
  let received: { error: unknown } | undefined;
  const unzip = new Unzip((file) => {
    if (file.name.endsWith('/')) return;
    const receive = open(file.name);
    if (!receive) return;
    file.ondata = (error, chunk, final) => {
      if (error) throw new ZipFormatError(error.message);
      try {
        receive(chunk, final);
      } catch (thrown) {
        received = { error: thrown };
        throw thrown;
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    // Pushed a slice at a time, so that each file's bytes come out a slice at a time too.
    for (let at = 0; at < zip.length || at === 0; at += READ_SLICE) {
      const end = Math.min(at + READ_SLICE, zip.length);
      unzip.push(new Uint8Array(zip.buffer, zip.byteOffset + at, end - at), end === zip.length);
    }
  } catch (error) {
    if (received) throw received.error;
    if (error instanceof ZipFormatError) throw error;
    throw new ZipFormatError(error instanceof Error ? error.message : String(error));
  }
}
