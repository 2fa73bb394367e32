/**
 * Signed plan files (docs/architecture.md "Saved plans", "Signed plan files"): with a
 * plan-signing key, `plan --out FILE` writes `FILE.sig` beside the file, one line
 * `hmac-sha256:<hex>`, the HMAC-SHA256 keyed by the key of the file's exact bytes; `apply
 * --plan FILE` computes it again over the bytes it reads and parses, and refuses any
 * difference, a signed file without the key, and, when a key is configured, a file without
 * a signature. The key comes from `--plan-signing-key-file` or the environment variable
 * {@link PLAN_SIGNING_KEY_ENV}, never from a command-line value; it never appears in any
 * output or file, and it also keys the plan's live digest (live-digest.ts), which both
 * runs then compute alike whatever API key each uses.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { ConfigError } from '../../core/errors.js';
import { FileReadError } from '../../core/errors.js';
import { FILE_LIMITS, readTextBounded, readTextBoundedAsync } from '../../core/files.js';
import { PlanSignatureError } from '../../engine/errors.js';

/** The environment variable that holds the plan-signing key. */
export const PLAN_SIGNING_KEY_ENV = 'GWOPS_PLAN_SIGNING_KEY';

/** The prefix of a plan file's signature. */
const SIGNATURE_PREFIX = 'hmac-sha256:';

/** The shortest key accepted, in bytes of UTF-8: a key shorter than the hash it keys is guessable. */
const MIN_KEY_BYTES = 16;

/** Where a plan-signing key comes from. */
export interface PlanSigningKeySource {
  /** `--plan-signing-key-file`, relative to `cwd`. */
  readonly planSigningKeyFile?: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

/**
 * The plan-signing key: the file of `--plan-signing-key-file` (trailing line breaks and
 * spaces removed), else {@link PLAN_SIGNING_KEY_ENV}, else undefined.
 * @throws ConfigError when the file cannot be read, or the key is shorter than 16 bytes
 */
export function planSigningKey(source: PlanSigningKeySource): string | undefined {
  let key: string | undefined;
  let from: string;
  if (source.planSigningKeyFile !== undefined) {
    from = `--plan-signing-key-file ${source.planSigningKeyFile}`;
    try {
      key = readTextBounded(path.resolve(source.cwd, source.planSigningKeyFile), FILE_LIMITS.apiKey).trimEnd();
    } catch (error) {
      if (!(error instanceof FileReadError)) throw error;
      throw new ConfigError(`cannot read the plan-signing key of ${from}: ${error.problem}`, { cause: error });
    }
  } else {
    from = PLAN_SIGNING_KEY_ENV;
    key = source.env[PLAN_SIGNING_KEY_ENV];
    if (key === undefined || key === '') return undefined;
  }
  if (Buffer.byteLength(key, 'utf8') < MIN_KEY_BYTES) {
    throw new ConfigError(`the plan-signing key of ${from} is shorter than ${MIN_KEY_BYTES} bytes; use a random key, e.g. openssl rand -hex 32`);
  }
  return key;
}

/** The signature file of a plan file: `<file>.sig`. */
export function signatureFileOf(file: string): string {
  return `${file}.sig`;
}

/** An HMAC-SHA256 over the bytes fed to it, read once as the signature line. */
export interface PlanSigner {
  update(chunk: string | Uint8Array): void;
  /** `hmac-sha256:<lowercase hex>`. */
  signature(): string;
}

/** A {@link PlanSigner} keyed by `key` (strings are fed as UTF-8, as a file holds them). */
export function planSigner(key: string): PlanSigner {
  const mac = createHmac('sha256', key);
  return {
    update: (chunk) => void mac.update(chunk),
    signature: () => `${SIGNATURE_PREFIX}${mac.digest('hex')}`,
  };
}

/** `chunks` passed through unchanged, each fed to `signer` on the way (the bytes written are the bytes signed). */
export function* signedChunks(chunks: Iterable<string>, signer: PlanSigner): Generator<string> {
  for (const chunk of chunks) {
    signer.update(chunk);
    yield chunk;
  }
}

/**
 * What reading a plan file must check of its signature: the signature of `<file>.sig`
 * (undefined when there is none) and a signer keyed by `key`, or nothing to check.
 * @param full the plan file's absolute path; `file` as given, for messages
 * @throws PlanSignatureError for a signed file without a key, an unsigned file with one,
 *   or a signature file that is not one line `hmac-sha256:<64 hex digits>`
 */
export async function signatureCheckOf(file: string, full: string, key: string | undefined): Promise<{ expected: string; signer: PlanSigner } | undefined> {
  const sigFile = signatureFileOf(full);
  let text: string | undefined;
  try {
    text = await readTextBoundedAsync(sigFile, FILE_LIMITS.apiKey);
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    if (error.kind !== 'missing') throw new PlanSignatureError(`cannot read the signature ${signatureFileOf(file)} of plan file ${file}: ${error.problem}; nothing was sent`);
  }
  if (text === undefined && key === undefined) return undefined;
  if (text === undefined) {
    throw new PlanSignatureError(
      `plan file ${file} is not signed (no ${signatureFileOf(file)}), and a plan-signing key is configured: only a plan file signed with it is applied; ` +
        `nothing was sent: run gwops plan --out with the same key (${PLAN_SIGNING_KEY_ENV} or --plan-signing-key-file)`,
    );
  }
  if (key === undefined) {
    throw new PlanSignatureError(
      `plan file ${file} is signed (${signatureFileOf(file)}), and no plan-signing key is configured to check it; nothing was sent: ` +
        `set ${PLAN_SIGNING_KEY_ENV} or pass --plan-signing-key-file with the key it was signed with`,
    );
  }
  const expected = text.trim();
  if (!/^hmac-sha256:[0-9a-f]{64}$/.test(expected)) {
    throw new PlanSignatureError(`the signature ${signatureFileOf(file)} of plan file ${file} is not one line hmac-sha256:<64 hex digits>; nothing was sent: run gwops plan --out again`);
  }
  return { expected, signer: planSigner(key) };
}

/**
 * Compares the signature computed over the bytes read with the expected one (in constant time).
 * @throws PlanSignatureError when they differ: the file was changed after it was signed, or signed with another key
 */
export function verifySignature(file: string, expected: string, actual: string): void {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(actual, 'utf8');
  if (a.length === b.length && timingSafeEqual(a, b)) return;
  throw new PlanSignatureError(
    `plan file ${file} does not match its signature ${signatureFileOf(file)}: it was changed after it was signed, or signed with another key; ` +
      'nothing was sent: a plan file is not edited; run gwops plan --out again',
  );
}
