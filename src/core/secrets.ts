/**
 * Secret redaction: the one mechanism that keeps secret values out of everything gwops
 * prints or writes.
 *
 * A {@link SecretRedactor} collects the secret values a run knows (each `fromEnv` /
 * `fromFile` value the manifest loader resolved, the API key, the `JSESSIONID` cookie) and
 * replaces, in any text, every occurrence of each of them (also in the forms the value
 * takes inside JSON: a PEM or a passphrase with quotes or line breaks appears escaped in
 * JSON output and in a request body the gateway echoes) and every PEM private key block,
 * registered or not. The CLI passes every write to stdout and stderr, and the plan file,
 * through one redactor (src/cli/io.ts `redactingIO`).
 *
 * Rules:
 * - Values shorter than {@link MIN_SECRET_LENGTH} characters are ignored: redacting every
 *   `a` or `on` would destroy the output while protecting nothing worth the name.
 * - Overlapping or nested occurrences are merged: every character that belongs to any
 *   occurrence is hidden (one `[redacted]` per merged stretch), so no piece of a longer
 *   secret survives the redaction of a shorter one.
 * - Text echoed by the server is also cut to a bounded length ({@link truncateEcho}) after
 *   it is redacted (cutting first could leave a prefix of a secret that no longer matches).
 */

/** What replaces a secret value. */
export const REDACTED = '[redacted]';

/** What replaces a PEM private key block. */
export const REDACTED_PRIVATE_KEY = '[redacted private key]';

/** Values shorter than this are not registered (see the module comment). */
export const MIN_SECRET_LENGTH = 4;

/** Default bound of {@link truncateEcho}: how much server-echoed text an error message keeps. */
export const MAX_ECHO_LENGTH = 300;

/**
 * A PEM private key block (`RSA`, `EC`, `ENCRYPTED`, PKCS#8 …), raw or JSON-escaped; a block
 * cut before its END line is hidden up to the end of the text.
 */
const PRIVATE_KEY_BLOCK = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g;

/** The inside of a JSON string literal holding `value`. */
function jsonEscaped(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

/**
 * The forms a value may take in output: itself, JSON-escaped (once, and twice for JSON
 * inside a JSON string, e.g. an echoed body in a JSON report), with `/` escaped as `\/`
 * and with non-ASCII as `\uXXXX` (what other JSON serialisers write).
 */
function formsOf(value: string): string[] {
  const once = jsonEscaped(value);
  const forms = [value, once, jsonEscaped(once), once.replace(/\//g, '\\/')];
  forms.push(once.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  forms.push(once.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`));
  return forms;
}

/** Replaces every PEM private key block in `text`. */
export function redactPrivateKeys(text: string): string {
  return text.replace(PRIVATE_KEY_BLOCK, REDACTED_PRIVATE_KEY);
}

/** The registered secret values of a run, and the redaction of text with them. */
export class SecretRedactor {
  // ECMAScript private fields: invisible to util.inspect and JSON.stringify.
  readonly #values = new Set<string>();
  /** Every form of every value, longest first; rebuilt after an `add`. */
  #needles: string[] | undefined;

  /** @param values secret values to register at once (see {@link add}). */
  constructor(values: Iterable<string | undefined> = []) {
    this.addAll(values);
  }

  /**
   * Registers a secret value. Ignored when undefined, not a string, or shorter than
   * {@link MIN_SECRET_LENGTH}. @returns whether the value is (now) registered
   */
  add(value: string | undefined): boolean {
    if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) return false;
    if (!this.#values.has(value)) {
      this.#values.add(value);
      this.#needles = undefined;
    }
    return true;
  }

  /** Registers every value (see {@link add}). */
  addAll(values: Iterable<string | undefined>): void {
    for (const value of values) this.add(value);
  }

  /** How many values are registered. */
  get size(): number {
    return this.#values.size;
  }

  /**
   * `text` with every PEM private key block replaced by {@link REDACTED_PRIVATE_KEY} and
   * every occurrence of a registered value (in any of its JSON forms) by {@link REDACTED}.
   */
  redact(text: string): string {
    const out = redactPrivateKeys(text);
    const needles = this.sortedNeedles();
    if (needles.length === 0) return out;
    const ranges: [number, number][] = [];
    for (const needle of needles) {
      for (let at = out.indexOf(needle); at !== -1; at = out.indexOf(needle, at + 1)) ranges.push([at, at + needle.length]);
    }
    if (ranges.length === 0) return out;
    ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    let result = '';
    let cursor = 0;
    let open: [number, number] | undefined;
    for (const range of ranges) {
      if (open && range[0] <= open[1]) {
        open[1] = Math.max(open[1], range[1]);
        continue;
      }
      if (open) {
        result += out.slice(cursor, open[0]) + REDACTED;
        cursor = open[1];
      }
      open = [range[0], range[1]];
    }
    if (open) {
      result += out.slice(cursor, open[0]) + REDACTED;
      cursor = open[1];
    }
    return result + out.slice(cursor);
  }

  private sortedNeedles(): string[] {
    if (!this.#needles) {
      const forms = new Set<string>();
      for (const value of this.#values) for (const form of formsOf(value)) if (form.length >= MIN_SECRET_LENGTH) forms.add(form);
      this.#needles = [...forms].sort((a, b) => b.length - a.length);
    }
    return this.#needles;
  }
}

/**
 * Removes secrets from text: every occurrence of `secrets` (values shorter than
 * {@link MIN_SECRET_LENGTH} ignored), in any JSON form, and any PEM private key block.
 * Shorthand for a one-off {@link SecretRedactor}.
 */
export function redact(text: string, secrets: Iterable<string | undefined>): string {
  return new SecretRedactor(secrets).redact(text);
}

/**
 * Cuts text the server echoed (an error detail, which may repeat the whole request body)
 * to at most `max` characters, followed by `… [N characters omitted]`. Redact before
 * cutting: a cut through a secret leaves a prefix that no longer matches it.
 */
export function truncateEcho(text: string, max: number = MAX_ECHO_LENGTH): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  // Never split a surrogate pair, nor a redaction marker.
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  const marker = text.lastIndexOf('[redacted', end - 1);
  if (marker !== -1) {
    const close = text.indexOf(']', marker);
    if (close === -1 || close >= end) end = marker;
  }
  return `${text.slice(0, end)}… [${text.length - end} characters omitted]`;
}

/**
 * `url` without user name and password, for messages: gwops refuses a URL with credentials
 * (the gateway's, a JWKS's) and never prints them. A text that is no URL loses whatever
 * stands between `//` and `@`.
 */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//');
  }
}

/**
 * The user name and password of `url` (percent-decoded, and as written), for the run's
 * redactor; empty when it has none or is no URL.
 */
export function urlCredentials(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const part of [parsed.username, parsed.password]) {
    if (!part) continue;
    out.push(part);
    try {
      out.push(decodeURIComponent(part));
    } catch {
      // not valid percent-encoding: the form as written is enough
    }
  }
  return out;
}
