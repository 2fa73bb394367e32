/**
 * Names `gwops export` makes: file names from object names (escaped reversibly), the
 * environment variables that write-only secrets are read from, and generated names of
 * objects that carry none on the gateway (a certificate's identity is its PEM).
 */
import { createHash } from 'node:crypto';
import { hasInvisible } from '../core/display.js';
import { NAME_MAX_BYTES } from '../core/out-paths.js';
import { trimEdges, trimTrailing } from '../core/linear-text.js';

/** Characters never written as themselves in a file name: path separators, `:`, `%` (the escape), Windows' reserved ones, controls. */
const UNSAFE = new RegExp(String.raw`[%/\\:<>"|?*${String.fromCharCode(0)}-${String.fromCharCode(0x1f)}${String.fromCharCode(0x7f)}]`, 'gu');

function percent(char: string): string {
  return [...Buffer.from(char, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/**
 * The file name (without extension) of an object named `name`: `%`, `/`, `\`, `:`,
 * `<>"|?*`, control characters, a leading dot and trailing dots or spaces are
 * percent-encoded (UTF-8 bytes, upper-case hex); everything else is kept, so the name
 * reads as itself. {@link unescapeFileName} reverses it. Objects without a name are never
 * exported, so `name` is not empty.
 */
export function escapeFileName(name: string): string {
  let out = name.replace(UNSAFE, percent);
  // Invisible characters (zero-width, bidi, C1: src/core/display.ts) would hide in a file listing.
  if (hasInvisible(out)) out = [...out].map((ch) => (hasInvisible(ch) ? percent(ch) : ch)).join('');
  if (out.startsWith('.')) out = `%2E${out.slice(1)}`;
  const kept = trimTrailing(out, '. ');
  if (kept !== out) out = kept + [...out.slice(kept.length)].map(percent).join('');
  // A name whose part before the first dot is a device name of Windows (CON, NUL, COM1…) names the device there, not a file.
  if (WINDOWS_DEVICE.test(out.split('.')[0]?.trimEnd() ?? '')) out = percent(out.charAt(0)) + out.slice(1);
  return out;
}

/** Windows' reserved device names (the part of a file name before its first dot, any case). */
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/iu;

/**
 * The key under which two file names are the same file on some file system: case-insensitive
 * ones (Windows, macOS by default) and those that normalise Unicode (macOS): NFC, case-folded
 * (upper then lower case, so that `ß` and `ss` meet as well).
 */
export function fileNameKey(fileName: string): string {
  return fileName.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
}

/** Hex digits of the hash that stands for the cut part of a name too long for a file name. */
const CUT_HASH_LENGTH = 8;

/**
 * `stem + suffix`, within {@link NAME_MAX_BYTES} bytes of UTF-8: a longer stem is cut (never
 * inside a character or a `%XX` escape) and followed by `~` and {@link CUT_HASH_LENGTH} hex
 * digits of the SHA-256 of the whole stem, so that two long names that share their start
 * still get two files.
 */
export function fitFileName(stem: string, suffix: string): string {
  if (Buffer.byteLength(stem + suffix) <= NAME_MAX_BYTES) return stem + suffix;
  const hash = createHash('sha256').update(stem).digest('hex').slice(0, CUT_HASH_LENGTH);
  const budget = NAME_MAX_BYTES - Buffer.byteLength(suffix) - 1 - CUT_HASH_LENGTH;
  let cut = '';
  let bytes = 0;
  for (const char of stem) {
    bytes += Buffer.byteLength(char);
    if (bytes > budget) break;
    cut += char;
  }
  cut = cut.replace(/%[0-9A-F]?$/u, '');
  return `${cut}~${hash}${suffix}`;
}

/** Who a file written by export or adopt belongs to, for the message that says a file was given another name. */
export interface FileOwner {
  /** e.g. `the manifest of openapi-document "orders.content"` (names already escaped for display). */
  readonly label: string;
}

/** A file name that was taken, and the name given instead. */
export interface RenamedFile {
  /** Folder relative to the output directory ('' for the directory itself, '/'-separated). */
  readonly folder: string;
  readonly wanted: string;
  readonly given: string;
  readonly owner: FileOwner;
  /** Who has the name that was wanted; undefined when nobody does (the name was too long for a file name). */
  readonly holder?: FileOwner | undefined;
}

/** What a renamed file is, in one line: `<owner> is written to <given>: <wanted> is <holder>` (paths '/'-separated, relative). */
export function renamedFileText(renamed: RenamedFile): string {
  const at = (file: string): string => (renamed.folder === '' ? file : `${renamed.folder}/${file}`);
  const why = renamed.holder === undefined ? `the name ${at(renamed.wanted)} is longer than the ${NAME_MAX_BYTES} bytes a file name may have` : `${at(renamed.wanted)} is ${renamed.holder.label}`;
  return `${renamed.owner.label} is written to ${at(renamed.given)}: ${why}`;
}

/**
 * Hands out file names so that every file has one owner: two names that are the same
 * file on some file system ({@link fileNameKey}: case, Unicode normalisation), a name
 * already taken by another file of the same run or by a file on disk that is kept, or one
 * longer than {@link NAME_MAX_BYTES} bytes, get another name instead (`~2`, `~3`, … before
 * the suffix; a cut name with a hash, {@link fitFileName}). Every such change is recorded
 * in `renamed`, so that the caller says it.
 */
export class FileNames {
  private readonly taken = new Map<string, Map<string, FileOwner>>();
  /** Every file name that was not the one wanted. */
  readonly renamed: RenamedFile[] = [];

  private folderOf(folder: string): Map<string, FileOwner> {
    let names = this.taken.get(folder);
    if (!names) this.taken.set(folder, (names = new Map<string, FileOwner>()));
    return names;
  }

  /** Marks `fileName` in `folder` as taken by `owner` (a file written under a fixed name, or one on disk that stays). */
  reserve(folder: string, fileName: string, owner: FileOwner): void {
    const names = this.folderOf(folder);
    const key = fileNameKey(fileName);
    if (!names.has(key)) names.set(key, owner);
  }

  /** Who has `fileName` in `folder`, if anyone. */
  holderOf(folder: string, fileName: string): FileOwner | undefined {
    return this.taken.get(folder)?.get(fileNameKey(fileName));
  }

  /**
   * A free file name in `folder` for `stem + suffix` (a stem made by {@link escapeFileName}),
   * taken for `owner`: the wanted one when it is free and fits, else another.
   */
  claim(folder: string, stem: string, suffix: string, owner: FileOwner): string {
    const names = this.folderOf(folder);
    const wanted = stem + suffix;
    let given = fitFileName(stem, suffix);
    for (let n = 2; names.has(fileNameKey(given)); n++) given = fitFileName(`${stem}~${n}`, suffix);
    const holder = names.get(fileNameKey(wanted));
    names.set(fileNameKey(given), owner);
    if (given !== wanted) this.renamed.push({ folder, wanted, given, owner, holder });
    return given;
  }
}

/** The object name a file name made by {@link escapeFileName} stands for. */
export function unescapeFileName(fileName: string): string {
  return decodeURIComponent(fileName);
}

/** `GWOPS_<KIND>_<NAME>_<ATTR>`: upper-case, every run of other characters than A-Z and 0-9 as one `_`. */
export function secretEnvName(kind: string, name: string, attributePath: readonly string[]): string {
  const part = (text: string): string => trimEdges(text.toUpperCase().replace(/[^A-Z0-9]+/g, '_'), '_');
  return ['GWOPS', kind, name, ...attributePath].map(part).filter((p) => p !== '').join('_');
}

/** A name part made of letters, digits, `.`, `-` and `_` (a wildcard `*` reads `wildcard`). */
function slug(text: string): string {
  return trimEdges(text.replace(/\*/g, 'wildcard').replace(/[^A-Za-z0-9._-]+/g, '-'), '-.').toLowerCase();
}

/** Length of the fingerprint prefix in a generated name. */
export const FINGERPRINT_PREFIX_LENGTH = 12;

/**
 * A stable name for an object without one, from its identity key (a fingerprint, hex) and
 * `readable`, what its kind's `IdentityHooks.exportName` makes of it (a certificate's
 * subject common name): `shop.example.com-3f9a0c1d2e4b`; else `<kind>-<prefix>`.
 */
export function generatedName(kind: string, key: string, readable: string | undefined): string {
  const base = readable === undefined ? '' : slug(readable);
  return `${base === '' ? kind : base}-${key.slice(0, FINGERPRINT_PREFIX_LENGTH)}`;
}
