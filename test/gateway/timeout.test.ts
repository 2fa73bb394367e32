import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ConfigError, InputError } from '../../src/core/errors.js';
import { resolveConnection } from '../../src/gateway/connection.js';
import { ConnectionError } from '../../src/gateway/errors.js';
import { GatewaySession } from '../../src/gateway/session.js';
import { loadProject } from '../../src/manifest/project.js';
import type { FakeGateway, FakeHandler } from './fake-gateway.js';
import { startFakeGateway } from './fake-gateway.js';
import { TEST_POLICY, recordingClock } from './helpers.js';

let gateway: FakeGateway | undefined;

afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

/** Never answers: keeps the request open until the client gives up. */
const hang: FakeHandler = () => undefined;

const URL_ = 'https://gw.example.com/airlock/rest';

describe('timeout setting', () => {
  it('comes from --timeout, then GWOPS_TIMEOUT, then the target, then 120 s; it sets headers and body timeouts, connect at most 10 s', () => {
    const base = { cwd: tmpdir(), env: { GWOPS_API_KEY: 'k' } };
    const target = { url: URL_, timeout: 45 };
    expect(resolveConnection({ ...base, url: URL_ }).timeouts).toEqual({ connectMs: 10_000, headersMs: 120_000, bodyMs: 120_000 });
    expect(resolveConnection({ ...base, target }).timeouts).toEqual({ connectMs: 10_000, headersMs: 45_000, bodyMs: 45_000 });
    const env = { ...base.env, GWOPS_TIMEOUT: '30' };
    expect(resolveConnection({ ...base, env, target }).timeouts).toEqual({ connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000 });
    expect(resolveConnection({ ...base, env, target, timeout: 7 }).timeouts).toEqual({ connectMs: 7_000, headersMs: 7_000, bodyMs: 7_000 });
    expect(resolveConnection({ ...base, env, target, timeout: 300 }).timeouts).toEqual({ connectMs: 10_000, headersMs: 300_000, bodyMs: 300_000 });
  });

  it('an invalid GWOPS_TIMEOUT is a one-line ConfigError', () => {
    for (const value of ['abc', '0', '0.5', '-5', '1e9', '90000']) {
      const error = (() => {
        try {
          resolveConnection({ url: URL_, cwd: tmpdir(), env: { GWOPS_API_KEY: 'k', GWOPS_TIMEOUT: value } });
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error, value).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain('GWOPS_TIMEOUT');
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('a target takes `timeout` in gwops.yaml (seconds, at least 1)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gwops-timeout-'));
    writeFileSync(join(dir, 'gwops.yaml'), `targets:\n  prod:\n    url: ${URL_}\n    timeout: 30\n`);
    expect(loadProject(dir).targets.prod?.timeout).toBe(30);
    for (const bad of ['0', '0.5', '-3', 'soon']) {
      writeFileSync(join(dir, 'gwops.yaml'), `targets:\n  prod:\n    url: ${URL_}\n    timeout: ${bad}\n`);
      expect(() => loadProject(dir), bad).toThrow(InputError);
    }
  });

  it('plan --timeout with an invalid value is a one-line usage error', async () => {
    for (const value of ['abc', '0', '-1', '0.5']) {
      let stderr = '';
      const code = await main(['node', 'gwops', 'plan', '--url', 'http://127.0.0.1:9/airlock/rest', '--timeout', value, tmpdir()], {
        stdout: { write: () => true },
        stderr: { write: (s: string) => ((stderr += s), true) },
        env: { GWOPS_API_KEY: 'k' },
        cwd: tmpdir(),
        isTTY: false,
        stdin: Readable.from([]),
      });
      expect(code, value).toBe(1);
      expect(stderr.trim().split('\n'), stderr).toHaveLength(1);
      expect(stderr).toMatch(/^Error: --timeout/);
    }
  });
});

describe('a gateway that stops answering', () => {
  async function hangingSession(handler: FakeHandler, warnings: string[]): Promise<GatewaySession> {
    gateway = await startFakeGateway(handler);
    const session = new GatewaySession({
      url: gateway.url,
      apiKey: 'fake-key',
      retry: TEST_POLICY,
      clock: recordingClock(),
      timeouts: { connectMs: 1_000, headersMs: 1_000, bodyMs: 1_000, noticeMs: 200 },
      onWarning: (m) => warnings.push(m),
    });
    await session.open();
    return session;
  }

  it('a call without answer says once that gwops is waiting, then ends as a ConnectionError that says it timed out, not retried', async () => {
    const warnings: string[] = [];
    const s = await hangingSession(hang, warnings);
    const started = Date.now();
    const error = await s.list('mappings').catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).phase).toBe('response');
    expect((error as Error).message).toContain('GET /configuration/mappings');
    expect((error as Error).message).toMatch(/timed out after 1 s/);
    expect(warnings).toEqual(['waiting for the gateway: GET /configuration/mappings has taken 0.2 s (timeout 1 s, --timeout to change)']);
    expect(gateway?.requests.get('GET /configuration/mappings')).toBe(1);
    await s.terminate();
  });

  it('a body that stalls times out the same way', async () => {
    const warnings: string[] = [];
    const s = await hangingSession((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[');
    }, warnings);
    const error = await s.validatorMessages().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).phase).toBe('response');
    expect((error as Error).message).toMatch(/timed out after 1 s/);
    expect((error as Error).message).toContain('the response body stopped arriving');
    expect(warnings).toHaveLength(1);
    expect(gateway?.requests.get('GET /configuration/validator-messages')).toBe(1);
    await s.terminate();
  });

  it('a quick call gives no waiting notice, not even later', async () => {
    const warnings: string[] = [];
    const s = await hangingSession((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}'), warnings);
    expect(await s.list('mappings')).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(warnings).toEqual([]);
    await s.terminate();
  });

  it('plan --timeout applies to the calls of the run, and ends the run after one timed-out call', async () => {
    gateway = await startFakeGateway(hang);
    const dir = mkdtempSync(join(tmpdir(), 'gwops-timeout-cli-'));
    writeFileSync(
      join(dir, 'm.yaml'),
      'apiVersion: gwops/v1\nkind: mapping\nname: t-m\nattributes:\n  entryPath: { value: /t/ }\n  backendPath: /\n',
    );
    let stderr = '';
    const started = Date.now();
    const code = await main(['node', 'gwops', 'plan', '--url', gateway.url, '--timeout', '1', dir], {
      stdout: { write: () => true },
      stderr: { write: (s: string) => ((stderr += s), true) },
      env: { GWOPS_API_KEY: 'fake-key' },
      cwd: dir,
      isTTY: false,
      stdin: Readable.from([]),
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Error: GET \/configuration\/\S+ failed: the gateway at \S+ timed out after 1 s \(no response; --timeout sets the limit\)$/m);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
