import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MAX_ECHO_LENGTH, MIN_SECRET_LENGTH, REDACTED, REDACTED_PRIVATE_KEY, SecretRedactor, redact, redactPrivateKeys, truncateEcho } from '../../src/core/secrets.js';
import { redactingIO, redactText } from '../../src/cli/io.js';
import type { CliIO } from '../../src/cli/io.js';
import { Readable } from 'node:stream';

const PEM = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgSECRETSECRET\nc2Vjb25kIGxpbmU=\n-----END PRIVATE KEY-----\n';

describe('SecretRedactor', () => {
  it('replaces every plain occurrence of a registered value', () => {
    const r = new SecretRedactor();
    r.add('hunter2-passphrase');
    expect(r.redact('a hunter2-passphrase b hunter2-passphrase')).toBe(`a ${REDACTED} b ${REDACTED}`);
    expect(r.redact('nothing secret here')).toBe('nothing secret here');
  });

  it('replaces the JSON-escaped form of a value with quotes, backslashes and line breaks', () => {
    const secret = 'pa"ss\\word\nline two';
    const r = new SecretRedactor([secret]);
    const body = JSON.stringify({ data: { attributes: { passphrase: secret } } });
    expect(body).not.toContain(secret);
    const out = r.redact(`cannot parse ${body}`);
    expect(out).toBe(`cannot parse {"data":{"attributes":{"passphrase":"${REDACTED}"}}}`);
    // Twice escaped: an echoed body inside a JSON report.
    const twice = JSON.stringify({ detail: `cannot parse ${body}` });
    expect(r.redact(twice)).not.toContain('pa\\\\\\"ss');
    expect(r.redact(twice)).toContain(REDACTED);
  });

  it('replaces the forms other JSON serialisers write (escaped slash, \\u escapes)', () => {
    const r = new SecretRedactor(['a/b/c-secret', 'grüezi-secret']);
    expect(r.redact('"a\\/b\\/c-secret"')).toBe(`"${REDACTED}"`);
    expect(r.redact('"gr\\u00fcezi-secret"')).toBe(`"${REDACTED}"`);
    expect(r.redact('"gr\\u00FCezi-secret"')).toBe(`"${REDACTED}"`);
  });

  it('redacts a multi-line PEM private key block, raw and JSON-escaped, registered or not', () => {
    const unregistered = new SecretRedactor();
    const raw = unregistered.redact(`key: ${PEM}done`);
    expect(raw).toBe(`key: ${REDACTED_PRIVATE_KEY}\ndone`);
    const escaped = unregistered.redact(JSON.stringify({ privateKey: PEM }));
    expect(escaped).not.toContain('SECRETSECRET');
    expect(escaped).not.toContain('c2Vjb25kIGxpbmU');
    expect(escaped).toContain(REDACTED_PRIVATE_KEY);
    // An RSA key, and one cut before its END line (the rest of the text is hidden).
    expect(redactPrivateKeys('-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY----- x')).toBe(`${REDACTED_PRIVATE_KEY} x`);
    expect(redactPrivateKeys('x -----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIE')).toBe(`x ${REDACTED_PRIVATE_KEY}`);
    // A registered PEM whose body appears without its armour lines.
    const registered = new SecretRedactor([PEM.trimEnd()]);
    expect(registered.redact(`echo ${JSON.stringify(PEM.trimEnd())}`)).not.toContain('SECRETSECRET');
  });

  it('hides overlapping secrets entirely (longest first, no leftover piece)', () => {
    const r = new SecretRedactor(['secret', 'secret-long-value']);
    expect(r.redact('x secret-long-value y secret z')).toBe(`x ${REDACTED} y ${REDACTED} z`);
    // Registration order does not matter.
    const r2 = new SecretRedactor(['secret-long-value', 'secret']);
    expect(r2.redact('x secret-long-value y')).toBe(`x ${REDACTED} y`);
    // Partly overlapping values: the union of both is hidden, as one marker.
    const r3 = new SecretRedactor(['abcdef', 'defghi']);
    expect(r3.redact('<abcdefghi>')).toBe(`<${REDACTED}>`);
    expect(r3.redact('<abcdef defghi>')).toBe(`<${REDACTED} ${REDACTED}>`);
  });

  it(`ignores values shorter than ${MIN_SECRET_LENGTH} characters`, () => {
    const r = new SecretRedactor();
    expect(r.add('abc')).toBe(false);
    expect(r.add('')).toBe(false);
    expect(r.add(undefined)).toBe(false);
    expect(r.add('abcd')).toBe(true);
    expect(r.size).toBe(1);
    expect(r.redact('abc on a, abcd')).toBe(`abc on a, ${REDACTED}`);
  });

  it('registers a value once, and keeps values out of inspect and JSON', () => {
    const r = new SecretRedactor(['very-secret-value', 'very-secret-value']);
    expect(r.size).toBe(1);
    expect(inspect(r, { showHidden: true, depth: 5 })).not.toContain('very-secret-value');
    expect(JSON.stringify({ r })).not.toContain('very-secret-value');
  });

  it('learns values after use', () => {
    const r = new SecretRedactor();
    expect(r.redact('cookie ABCD1234')).toBe('cookie ABCD1234');
    r.add('ABCD1234');
    expect(r.redact('cookie ABCD1234')).toBe(`cookie ${REDACTED}`);
  });

  it('keeps the redact(text, secrets) shorthand', () => {
    expect(redact('key abcd1234 and ab', ['abcd1234', 'ab'])).toBe(`key ${REDACTED} and ab`);
  });
});

describe('truncateEcho', () => {
  it('keeps short text as it is', () => {
    expect(truncateEcho('short')).toBe('short');
    expect(truncateEcho('x'.repeat(MAX_ECHO_LENGTH))).toBe('x'.repeat(MAX_ECHO_LENGTH));
  });

  it('cuts long text to the bound, with an ellipsis and the count omitted', () => {
    const out = truncateEcho('y'.repeat(1000));
    expect(out).toBe(`${'y'.repeat(MAX_ECHO_LENGTH)}… [${1000 - MAX_ECHO_LENGTH} characters omitted]`);
    expect(truncateEcho('abcdefghij', 4)).toBe('abcd… [6 characters omitted]');
  });

  it('never splits a surrogate pair or a redaction marker', () => {
    expect(truncateEcho('abc😀def', 4)).toBe('abc… [5 characters omitted]');
    const text = `0123456789 ${REDACTED} tail`;
    expect(truncateEcho(text, 15)).toBe('0123456789 … [15 characters omitted]');
  });
});

describe('redacting CLI output', () => {
  it('passes every write to stdout and stderr through the run registry, also values registered later', () => {
    let stdout = '';
    let stderr = '';
    const base: CliIO = {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      env: {},
      cwd: '/',
      isTTY: false,
      stdin: Readable.from([]),
    };
    const io = redactingIO(base);
    expect(io.secrets).toBeInstanceOf(SecretRedactor);
    io.secrets?.add('the-passphrase');
    io.stdout.write('out the-passphrase\n');
    io.stderr.write(`err ${JSON.stringify(PEM)}\n`);
    expect(stdout).toBe(`out ${REDACTED}\n`);
    expect(stderr).not.toContain('SECRETSECRET');
    expect(redactText(io, '{"p":"the-passphrase"}')).toBe(`{"p":"${REDACTED}"}`);
    // Without a registry, private key blocks are still removed.
    expect(redactText(base, PEM)).toBe(`${REDACTED_PRIVATE_KEY}\n`);
  });
});
