/**
 * A minimal ZIP writer and reader (no dependency): enough for configuration and mapping
 * export/import (real-clients.md "Configurations", "Resources"), whose files the emulator
 * writes itself. Entries are deflated (zlib); reading accepts stored and deflated entries.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** A file inside a ZIP archive. */
export interface ZipEntry {
  readonly name: string;
  readonly data: Buffer;
}

/** An archive that cannot be read (corrupt, truncated, or using features not supported). */
export class ZipFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipFormatError';
  }
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE) of a buffer. */
export function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** DOS time and date fields of a date. */
function dosDateTime(date: Date): { time: number; day: number } {
  const time = (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2);
  const day = ((Math.max(date.getFullYear(), 1980) - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate();
  return { time, day };
}

/** Builds a ZIP archive of `entries` (deflated). */
export function writeZip(entries: readonly ZipEntry[], date: Date = new Date()): Buffer {
  const { time, day } = dosDateTime(date);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const compressed = deflateRawSync(entry.data);
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(day, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(day, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

/**
 * Reads the entries of a ZIP archive.
 * @throws ZipFormatError when it is not a readable archive.
 */
export function readZip(zip: Buffer): ZipEntry[] {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipFormatError('not a ZIP archive');
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  const out: ZipEntry[] = [];
  try {
    for (let i = 0; i < count; i++) {
      if (zip.readUInt32LE(p) !== 0x02014b50) throw new ZipFormatError('corrupt central directory');
      const method = zip.readUInt16LE(p + 10);
      const crc = zip.readUInt32LE(p + 16);
      const compressedSize = zip.readUInt32LE(p + 20);
      const nameLength = zip.readUInt16LE(p + 28);
      const extraLength = zip.readUInt16LE(p + 30);
      const commentLength = zip.readUInt16LE(p + 32);
      const localOffset = zip.readUInt32LE(p + 42);
      const name = zip.subarray(p + 46, p + 46 + nameLength).toString('utf8');
      p += 46 + nameLength + extraLength + commentLength;
      if (zip.readUInt32LE(localOffset) !== 0x04034b50) throw new ZipFormatError(`corrupt entry ${name}`);
      const start = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
      const raw = zip.subarray(start, start + compressedSize);
      if (raw.length !== compressedSize) throw new ZipFormatError(`truncated entry ${name}`);
      let data: Buffer;
      if (method === 0) data = Buffer.from(raw);
      else if (method === 8) data = inflateRawSync(raw);
      else throw new ZipFormatError(`entry ${name} uses unsupported compression method ${method}`);
      if (crc32(data) !== crc) throw new ZipFormatError(`entry ${name} fails its CRC check`);
      out.push({ name, data });
    }
  } catch (error) {
    if (error instanceof ZipFormatError) throw error;
    throw new ZipFormatError('corrupt ZIP archive');
  }
  return out;
}
