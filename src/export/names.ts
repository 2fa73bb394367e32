/**
 * Names `gwops export` makes: file names from object names (escaped reversibly), the
 * environment variables that write-only secrets are read from, and generated names of
 * objects that carry none on the gateway (a certificate's identity is its PEM).
 */
import { X509Certificate } from 'node:crypto';
import { hasInvisible } from '../display.js';
import { trimEdges, trimTrailing } from '../linear-text.js';

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
  // Invisible characters (zero-width, bidi, C1: src/display.ts) would hide in a file listing.
  if (hasInvisible(out)) out = [...out].map((ch) => (hasInvisible(ch) ? percent(ch) : ch)).join('');
  if (out.startsWith('.')) out = `%2E${out.slice(1)}`;
  const kept = trimTrailing(out, '. ');
  if (kept !== out) out = kept + [...out.slice(kept.length)].map(percent).join('');
  return out;
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

/** The common name of a PEM certificate's subject, or undefined when it is no certificate or has none. */
export function subjectCommonName(pem: string): string | undefined {
  try {
    const subject = new X509Certificate(pem).subject;
    const cn = subject.split('\n').find((line) => line.startsWith('CN='));
    return cn?.slice(3);
  } catch {
    return undefined;
  }
}

/** Length of the fingerprint prefix in a generated name. */
export const FINGERPRINT_PREFIX_LENGTH = 12;

/**
 * A stable name for an object without one, from its identity key (a fingerprint, hex) and,
 * when `pem` holds a certificate, its subject's common name: `shop.example.com-3f9a0c1d2e4b`;
 * else `<kind>-<prefix>`.
 */
export function generatedName(kind: string, key: string, pem: unknown): string {
  const cn = typeof pem === 'string' ? subjectCommonName(pem) : undefined;
  const base = cn === undefined ? '' : slug(cn);
  return `${base === '' ? kind : base}-${key.slice(0, FINGERPRINT_PREFIX_LENGTH)}`;
}
