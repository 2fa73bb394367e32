/**
 * One input file as read (src/manifest/sources.ts reads them): its display name, its
 * directory and its text, decoded strictly as UTF-8 so that bytes that are not UTF-8 are
 * reported where they are instead of being replaced silently.
 */
/** One input file (or stdin) as read. */
export interface SourceFile {
  /** Display name: as given on the command line or relative to the working directory; `-` for stdin. */
  readonly file: string;
  /** Directory that `fromFile` secret sources resolve against (absolute). */
  readonly dir: string;
  readonly text: string;
  /** Set when the bytes read were not UTF-8: `text` then has U+FFFD from there on. */
  readonly invalidUtf8?: InvalidUtf8;
}

/** Where the first byte that is not UTF-8 is, in a file decoded leniently. */
export interface InvalidUtf8 {
  /** 1-based line and column (UTF-16 units of the decoded text, as every position). */
  readonly line: number;
  readonly column: number;
  /** The byte's value. */
  readonly byte: number;
}

import { Buffer, isAscii } from 'node:buffer';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Offset of the first byte of `bytes` that does not start or continue a well-formed UTF-8
 * character (overlong forms, surrogates and code points above U+10FFFF included), or -1.
 * For a truncated character, its first byte.
 */
function invalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] ?? 0;
    if (lead < 0x80) {
      i += 1;
      continue;
    }
    const more = lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : 0;
    if (more === 0) return i;
    // The second byte's range excludes overlong forms (E0, F0), surrogates (ED) and > U+10FFFF (F4).
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    const second = bytes[i + 1];
    if (second === undefined || second < low || second > high) return i;
    for (let k = 2; k <= more; k++) {
      const next = bytes[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return i;
    }
    i += more + 1;
  }
  return -1;
}

/**
 * Decodes a file's bytes as UTF-8, strictly: bytes that are not UTF-8 are not silently
 * replaced. A byte-order mark is kept (the YAML readers skip it). When the bytes are not
 * UTF-8, `text` is the lenient decoding (U+FFFD for each bad sequence, so the rest of the
 * file can still be checked) and `invalidUtf8` says where the first bad byte is (line and
 * column counted like the YAML positions: UTF-16 units of the decoded text, from 1).
 */
export function decodeUtf8(bytes: Uint8Array): { text: string; invalidUtf8?: InvalidUtf8 } {
  // Bytes below 0x80 are UTF-8 and Latin-1 alike: most manifests take this quicker decoding.
  if (isAscii(bytes)) return { text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1') };
  try {
    return { text: strictUtf8.decode(bytes) };
  } catch {
    const offset = Math.max(0, invalidUtf8Offset(bytes));
    const before = lenientUtf8.decode(bytes.subarray(0, offset));
    let line = 1;
    let lineStart = 0;
    for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) {
      line += 1;
      lineStart = i + 1;
    }
    return {
      text: lenientUtf8.decode(bytes),
      invalidUtf8: { line, column: before.length - lineStart + 1, byte: bytes[offset] ?? 0 },
    };
  }
}
