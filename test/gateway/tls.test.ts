import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { ConfigError } from '../../src/core/errors.js';
import { TlsVerificationError } from '../../src/gateway/errors.js';
import { withSession } from '../../src/gateway/lifecycle.js';
import { GatewaySession } from '../../src/gateway/session.js';
import { TEST_POLICY } from './helpers.js';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emulator.close();
});

describe('TLS', () => {
  it('is verified by default: a self-signed gateway is refused, without retries', async () => {
    expect(emulator.url.startsWith('https://')).toBe(true);
    emulator.requestLog.length = 0;
    const s = new GatewaySession({ url: emulator.url, apiKey: emulator.apiKey, retry: TEST_POLICY });
    const error = await s.open().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TlsVerificationError);
    expect((error as Error).message).toContain('--ca-file');
    expect(s.requestCounts().POST).toBe(1);
    expect(emulator.requestLog).toHaveLength(0);
    expect(emulator.openSessionCount()).toBe(0);
    await s.terminate();
  });

  it('works with the gateway certificate as extra CA', async () => {
    const warnings: string[] = [];
    const version = await withSession(
      { url: emulator.url, apiKey: emulator.apiKey, ca: emulator.caCertificate, onWarning: (m) => warnings.push(m), retry: TEST_POLICY },
      async (s) => {
        await s.loadActive();
        return (await s.list('mappings')).length;
      },
    );
    expect(version).toBeGreaterThanOrEqual(0);
    expect(warnings).toEqual([]);
    expect(emulator.openSessionCount()).toBe(0);
  });

  it('insecure skips verification and says so', async () => {
    const warnings: string[] = [];
    await withSession({ url: emulator.url, apiKey: emulator.apiKey, insecure: true, onWarning: (m) => warnings.push(m), retry: TEST_POLICY }, async (s) => {
      await s.loadActive();
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/verification is disabled/);
    expect(warnings[0]).not.toContain(emulator.apiKey);
    expect(emulator.openSessionCount()).toBe(0);
  });

  it('plain http to a non-loopback host is refused before any request', async () => {
    emulator.requestLog.length = 0;
    expect(() => new GatewaySession({ url: 'http://gateway.example.com/airlock/rest', apiKey: emulator.apiKey })).toThrow(ConfigError);
    let ran = false;
    const run = withSession({ url: 'http://10.1.2.3:8080/airlock/rest', apiKey: emulator.apiKey }, () => {
      ran = true;
      return Promise.resolve();
    });
    await expect(run).rejects.toThrow(/refusing plain http:\/\/ to 10\.1\.2\.3:8080.*https:\/\/10\.1\.2\.3:8080\/airlock\/rest/);
    expect(ran).toBe(false);
    expect(emulator.requestLog).toHaveLength(0);
  });
});
