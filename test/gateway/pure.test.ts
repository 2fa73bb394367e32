import { mkdtempSync, writeFileSync } from 'node:fs';
import { apiKeyExpiry } from '../../src/gateway/api-key.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { resolveConnection } from '../../src/gateway/connection.js';
import { toValidatorMessage } from '../../src/api/documents.js';
import { ApiError, ConnectionError, InterruptedError, OutdatedConfigurationError } from '../../src/gateway/errors.js';
import { checkBaseUrl, isLoopbackHost } from '../../src/gateway/base-url.js';
import { DEFAULT_RETRY_POLICY, backoffDelay, parseRetryAfter, retrying } from '../../src/gateway/retry.js';
import type { RetryClock, RetryPolicy } from '../../src/gateway/retry.js';
import { redact } from '../../src/core/secrets.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T03:00:00Z');
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter(['7', '9'], now)).toBe(7000);
  });
  it('reads an HTTP date relative to now, never negative', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 03:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 02:59:00 GMT', now)).toBe(0);
  });
  it('ignores absent and malformed values', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('-3', now)).toBeUndefined();
    expect(parseRetryAfter('1.5', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('stays within [half, whole] of the capped exponential, for any attempt and random value', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.double({ min: 0, max: 1, noNaN: true }), (attempt, r) => {
        const d = backoffDelay(attempt, DEFAULT_RETRY_POLICY, () => r);
        const cap = Math.min(DEFAULT_RETRY_POLICY.maxDelayMs, DEFAULT_RETRY_POLICY.baseDelayMs * 2 ** (attempt - 1));
        return d >= Math.floor(cap / 2) && d <= cap && d <= DEFAULT_RETRY_POLICY.maxDelayMs;
      }),
    );
  });
  it('grows with the attempt number until the cap', () => {
    const p: RetryPolicy = { maxAttempts: 10, baseDelayMs: 100, maxDelayMs: 1000, maxTotalMs: 1e6 };
    expect([1, 2, 3, 4, 5].map((a) => backoffDelay(a, p, () => 1))).toEqual([100, 200, 400, 800, 1000]);
    expect(backoffDelay(3, p, () => 0)).toBe(200);
  });
});

/** A clock whose sleeps advance time instantly and are recorded. */
function recordingClock(): RetryClock & { waits: number[] } {
  let t = 0;
  const waits: number[] = [];
  return { waits, now: () => t, random: () => 0.5, sleep: (ms) => ((t += ms), waits.push(ms), Promise.resolve()) };
}

const fault = (status: number, retryAfterMs?: number): ApiError =>
  new ApiError({ method: 'GET', path: '/configuration/mappings', status, code: 'INJECTED_FAULT', retryAfterMs });

describe('retrying', () => {
  const policy: RetryPolicy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1000, maxTotalMs: 10_000 };
  it('retries transient statuses, honouring Retry-After over backoff', async () => {
    const clock = recordingClock();
    let calls = 0;
    const result = await retrying(
      () => {
        calls++;
        if (calls === 1) return Promise.reject(fault(503, 3000));
        if (calls === 2) return Promise.reject(fault(429));
        return Promise.resolve('ok');
      },
      { policy, clock },
    );
    expect(result).toBe('ok');
    expect(clock.waits).toEqual([3000, 150]);
  });
  it('does not retry 4xx or 500', async () => {
    for (const status of [400, 404, 409, 500]) {
      let calls = 0;
      await expect(retrying(() => (calls++, Promise.reject(fault(status))), { policy, clock: recordingClock() })).rejects.toMatchObject({ status });
      expect(calls).toBe(1);
    }
  });
  it('stops after maxAttempts and records the attempts in the error', async () => {
    let calls = 0;
    const error = await retrying(() => (calls++, Promise.reject(fault(502))), { policy, clock: recordingClock() }).catch((e: unknown) => e);
    expect(calls).toBe(4);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).attempts).toBe(4);
    expect((error as ApiError).message).toContain('after 4 attempts');
  });
  it('does not start a wait that would exceed the total time', async () => {
    const clock = recordingClock();
    let calls = 0;
    await expect(retrying(() => (calls++, Promise.reject(fault(503, 60_000))), { policy, clock })).rejects.toBeInstanceOf(ApiError);
    expect(calls).toBe(1);
    expect(clock.waits).toEqual([]);
  });
  it('retries connection faults', async () => {
    let calls = 0;
    const conn = new ConnectionError({ method: 'GET', path: '/x', phase: 'response', causeCode: 'UND_ERR_SOCKET', origin: 'https://gw' });
    const r = await retrying(() => (++calls < 3 ? Promise.reject(conn) : Promise.resolve(calls)), { policy, clock: recordingClock() });
    expect(r).toBe(3);
  });
});

describe('isLoopbackHost and checkBaseUrl', () => {
  it('knows loopback hosts', () => {
    for (const h of ['localhost', 'LOCALHOST', 'api.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1', '::ffff:127.0.0.1']) {
      expect(isLoopbackHost(h), h).toBe(true);
    }
    for (const h of ['10.0.0.1', '128.0.0.1', 'gateway.example.com', 'localhost.example.com', '[::2]', '0.0.0.0', '127.0.0.1.nip.io']) {
      expect(isLoopbackHost(h), h).toBe(false);
    }
  });
  it('accepts https anywhere and http only on loopback', () => {
    expect(checkBaseUrl('https://gw.example.com/airlock/rest').host).toBe('gw.example.com');
    expect(checkBaseUrl('http://localhost:8080/airlock/rest').port).toBe('8080');
    expect(checkBaseUrl('http://[::1]:8080/airlock/rest').hostname).toBe('[::1]');
  });
  it('refuses plain http to another host, saying what would be right', () => {
    const error = (() => {
      try {
        checkBaseUrl('http://gw.example.com:8080/airlock/rest');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('https://gw.example.com:8080/airlock/rest');
    expect(() => checkBaseUrl('ftp://gw/x')).toThrow(ConfigError);
    expect(() => checkBaseUrl('not a url')).toThrow(ConfigError);
    expect(() => checkBaseUrl('https://user:pw@gw/x')).toThrow(ConfigError);
  });
});

describe('resolveConnection', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gwops-conn-'));
  writeFileSync(join(dir, 'key.txt'), 'file-key-123\n');
  writeFileSync(join(dir, 'empty.txt'), '\n');
  writeFileSync(join(dir, 'ca.pem'), '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
  writeFileSync(join(dir, 'not-ca.pem'), 'hello');
  const target = { url: 'https://gw.example.com/airlock/rest', apiKeyEnv: 'SHOP_KEY', apiKeyFile: 'key.txt', caFile: 'ca.pem' };

  it('takes the key from --api-key-file, then apiKeyEnv, then apiKeyFile, then GWOPS_API_KEY', () => {
    const env = { GWOPS_API_KEY: 'env-key', SHOP_KEY: 'target-env-key' };
    expect(resolveConnection({ target, apiKeyFile: 'key.txt', env, cwd: dir }).apiKey).toBe('file-key-123');
    // GWOPS_API_KEY next to a different key of the target is refused (test/gateway/keys.test.ts).
    expect(() => resolveConnection({ target, env, cwd: dir })).toThrow(ConfigError);
    expect(resolveConnection({ target, env: { SHOP_KEY: 'target-env-key' }, cwd: dir }).apiKey).toBe('target-env-key');
    expect(resolveConnection({ target, env: {}, cwd: dir }).apiKey).toBe('file-key-123');
    expect(resolveConnection({ url: target.url, env, cwd: dir }).apiKey).toBe('env-key');
  });
  it("reads the CA file; --url beside a target must be the target's own URL unless --api-key-file gives the key", () => {
    const c = resolveConnection({ url: `${target.url}/`, target, env: {}, cwd: dir, insecure: true });
    expect(c.url).toBe(`${target.url}/`);
    expect(c.ca).toContain('BEGIN CERTIFICATE');
    expect(c.insecure).toBe(true);
    expect(() => resolveConnection({ url: 'https://other:9443/airlock/rest', target, targetName: 'prod', env: {}, cwd: dir })).toThrow(
      /--url https:\/\/other:9443\/airlock\/rest is not the URL of target 'prod'/,
    );
    const own = resolveConnection({ url: 'https://other:9443/airlock/rest', target, apiKeyFile: 'key.txt', env: {}, cwd: dir });
    expect(own.url).toBe('https://other:9443/airlock/rest');
  });
  it('never serialises the key', () => {
    const c = resolveConnection({ url: 'https://gw/x', env: { GWOPS_API_KEY: 'sekrit-value' }, cwd: dir });
    expect(c.apiKey).toBe('sekrit-value');
    expect(JSON.stringify(c)).not.toContain('sekrit-value');
  });
  it('names every place looked at when no key is found, never a value', () => {
    const e = (() => {
      try {
        resolveConnection({ target: { url: target.url, apiKeyEnv: 'SHOP_KEY' }, targetName: 'prod', env: { OTHER: 'x-value' }, cwd: dir });
      } catch (err) {
        return err as Error;
      }
      throw new Error('expected an error');
    })();
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.message).toContain('--api-key-file');
    expect(e.message).toContain('GWOPS_API_KEY');
    expect(e.message).toContain("SHOP_KEY (apiKeyEnv of target 'prod')");
    expect(e.message).not.toContain('x-value');
  });
  it('refuses bad inputs with ConfigError', () => {
    const env = { GWOPS_API_KEY: 'k' };
    expect(() => resolveConnection({ env, cwd: dir })).toThrow(/no gateway URL/);
    expect(() => resolveConnection({ url: 'http://gw.example.com/airlock/rest', env, cwd: dir })).toThrow(ConfigError);
    expect(() => resolveConnection({ url: target.url, apiKeyFile: 'empty.txt', env, cwd: dir })).toThrow(/is empty/);
    expect(() => resolveConnection({ url: target.url, apiKeyFile: 'missing.txt', env, cwd: dir })).toThrow(/ENOENT/);
    expect(() => resolveConnection({ url: target.url, caFile: 'not-ca.pem', env, cwd: dir })).toThrow(/no PEM certificate/);
  });
});

describe('errors and documents', () => {
  it('formats an API error with call, object, status, code and detail', () => {
    const e = new ApiError({ method: 'PATCH', path: '/configuration/mappings/12', status: 400, code: 'INVALID_VALUE', detail: "unknown attribute 'x'", object: { kind: 'mapping', name: 'shop-api' } });
    expect(e.message).toBe("PATCH /configuration/mappings/12 (mapping 'shop-api') failed: 400 INVALID_VALUE: unknown attribute 'x'");
    expect(e.exitCode).toBe(1);
    const o = new OutdatedConfigurationError({ method: 'POST', path: '/configuration/configurations/activate', status: 409, code: 'OUTDATED_CONFIGURATION' });
    expect(o).toBeInstanceOf(ApiError);
    expect(o.message).toMatch(/someone else activated.*Re-run plan/);
    expect(new InterruptedError('SIGINT').exitCode).toBe(130);
    expect(new InterruptedError('SIGTERM').exitCode).toBe(143);
  });
  it('redacts private keys and literal secrets', () => {
    const text = 'bad value -----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY----- for key abcd1234';
    const out = redact(text, ['abcd1234']);
    expect(out).not.toContain('MIIE');
    expect(out).not.toContain('abcd1234');
  });
  it('normalises both validator message shapes', () => {
    expect(toValidatorMessage({ type: 'validator-message', id: '1', meta: { severity: 'ERROR' }, attributes: { detail: 'Port clash' } })).toEqual({
      severity: 'ERROR',
      code: '',
      title: 'Port clash',
      detail: 'Port clash',
    });
    expect(
      toValidatorMessage({
        type: 'validator-message',
        id: '2',
        attributes: { code: 'VH_NO_CERT', title: 'No certificate', meta: { severity: 'warning', model: { type: 'virtual-host', id: 4 } } },
      }),
    ).toEqual({ severity: 'WARNING', code: 'VH_NO_CERT', title: 'No certificate', detail: 'No certificate', model: { type: 'virtual-host', id: '4' } });
  });
});

describe('apiKeyExpiry', () => {
  const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  it("reads a JWT's exp without verifying it, and nothing from keys that are not JWTs", () => {
    expect(apiKeyExpiry(`${part({ alg: 'HS256' })}.${part({ exp: 1738324800 })}.c2ln`)?.toISOString()).toBe('2025-01-31T12:00:00.000Z');
    for (const key of ['opaque-key', 'a.b', `${part({})}.${part({ sub: 'x' })}.c2ln`, `${part({})}.${part({ exp: '1' })}.c2ln`, `${part({})}.bm90IGpzb24.c2ln`, 'a.b+c.d']) {
      expect(apiKeyExpiry(key)).toBeUndefined();
    }
  });
});
