import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliIO } from '../../../src/cli/io.js';
import { runEmulatorCommand } from '../../../src/cli/commands/emulator/run.js';
import type { EmulatorCommandOptions } from '../../../src/cli/commands/emulator/run.js';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { UsageError } from '../../../src/core/errors.js';
import { Client } from './helpers.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

function captureIO(cwd: string): CliIO & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) },
    env: {},
    cwd,
    isTTY: false,
    stdin: process.stdin,
  };
}

function options(overrides: Partial<EmulatorCommandOptions> = {}): EmulatorCommandOptions {
  return {
    host: '127.0.0.1',
    port: '0',
    tls: false,
    apiKeyFile: '.gwops/emulator-api-key',
    readOnlyApiKeyFile: '.gwops/emulator-read-only-api-key',
    certFile: '.gwops/emulator-cert.pem',
    variant: 'latest',
    latencyMs: '0',
    sessionTimeoutSeconds: '600',
    basePath: '/airlock/rest',
    ...overrides,
  };
}

/** `gwops emulator` started in a temporary directory, until `stop()`; `result` is its exit code. */
async function startCommand(overrides: Partial<EmulatorCommandOptions> = {}): Promise<{
  cwd: string;
  io: ReturnType<typeof captureIO>;
  running: RunningEmulator;
  stop: () => void;
  result: Promise<number>;
}> {
  const cwd = await mkdtemp(join(tmpdir(), 'gwops-emu-cli-'));
  dirs.push(cwd);
  const io = captureIO(cwd);
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  let running: RunningEmulator | undefined;
  const result = runEmulatorCommand(options(overrides), io, stopped, (e) => (running = e));
  while (!running) await new Promise((r) => setImmediate(r));
  return { cwd, io, running, stop, result };
}

describe('gwops emulator', () => {
  it('creates key files with mode 0600, prints where they are but never a key, logs with --verbose, and stops', async () => {
    const { cwd, io, running, stop, result } = await startCommand({ verbose: true });
    const keyFile = join(cwd, '.gwops/emulator-api-key');
    const key = (await readFile(keyFile, 'utf8')).trim();
    expect(key.split('.')).toHaveLength(3);
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    expect(running.apiKey).toBe(key);

    const client = new Client(running);
    expect((await client.login()).status).toBe(200);
    await client.close();

    stop();
    expect(await result).toBe(0);
    const printed = io.out.join('') + io.err.join('');
    expect(printed).toContain(running.url);
    expect(printed).toContain(keyFile);
    expect(printed).not.toContain(key);
    expect(printed).not.toContain(running.readOnlyApiKey);
    expect(io.err.join('')).toContain('POST /session/create 200');
  });

  it('--login-app serves a JWKS and rotates it through the HTTP control, which needs the administrator key', async () => {
    const { io, running, stop, result } = await startCommand({ loginApp: true });
    const origin = new URL(running.url).origin;
    const jwks = async (): Promise<{ kid: string; alg?: string }[]> =>
      ((await (await fetch(`${origin}/auth/rest/public/signing-keys/jwks`)).json()) as { keys: { kid: string; alg?: string }[] }).keys.map((k) => ({
        kid: k.kid,
        ...(k.alg ? { alg: k.alg } : {}),
      }));
    expect(await jwks()).toEqual([{ kid: 'emulator-key-1', alg: 'RS256' }]);
    const rotate = `${origin}/emulator/login-app/signing-keys/rotate`;
    expect((await fetch(rotate, { method: 'POST' })).status).toBe(401);
    expect((await fetch(rotate, { method: 'POST', headers: { authorization: `Bearer ${running.readOnlyApiKey}` } })).status).toBe(401);
    const admin = { authorization: `Bearer ${running.apiKey}` };
    const rotated = await fetch(rotate, { method: 'POST', headers: admin, body: JSON.stringify({ graceSeconds: 600 }) });
    expect(await rotated.json()).toEqual({ kid: 'emulator-key-2', retired: 'emulator-key-1' });
    expect(await jwks()).toEqual([{ kid: 'emulator-key-2', alg: 'RS256' }, { kid: 'emulator-key-1' }]);
    expect((await fetch(rotate, { method: 'POST', headers: admin, body: '{"graceSeconds": -1}' })).status).toBe(400);
    expect((await fetch(`${origin}/emulator/login-app/signing-keys/expire`, { method: 'POST', headers: admin })).status).toBe(200);
    expect(await jwks()).toEqual([{ kid: 'emulator-key-2', alg: 'RS256' }]);
    stop();
    expect(await result).toBe(0);
    expect(io.out.join('')).toContain(`login application JWKS: ${origin}/auth/rest/public/signing-keys/jwks`);
  });

  it('serves no login application without --login-app', async () => {
    const { running, stop, result } = await startCommand();
    expect((await fetch(`${new URL(running.url).origin}/auth/rest/public/signing-keys/jwks`)).status).toBe(404);
    expect(running.loginApp).toBeUndefined();
    stop();
    expect(await result).toBe(0);
  });

  it('reuses an existing key file', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'gwops-emu-cli-'));
    dirs.push(cwd);
    await writeFile(join(cwd, 'admin.key'), 'my-own-key\n', { mode: 0o644 });
    let running: RunningEmulator | undefined;
    const io = captureIO(cwd);
    await runEmulatorCommand(options({ apiKeyFile: 'admin.key' }), io, Promise.resolve(), (e) => (running = e));
    expect(running?.apiKey).toBe('my-own-key');
    expect(io.err.join('')).toContain('admin.key is readable by other users');
  });

  it('rejects invalid option values as usage errors', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'gwops-emu-cli-'));
    dirs.push(cwd);
    await expect(runEmulatorCommand(options({ variant: 'newest' }), captureIO(cwd), Promise.resolve())).rejects.toBeInstanceOf(UsageError);
    await expect(runEmulatorCommand(options({ port: '70000' }), captureIO(cwd), Promise.resolve())).rejects.toBeInstanceOf(UsageError);
    await expect(runEmulatorCommand(options({ tlsCert: 'c.pem' }), captureIO(cwd), Promise.resolve())).rejects.toBeInstanceOf(UsageError);
  });
});

describe('--fault specs', () => {
  it('parses every key', async () => {
    const { parseFaultSpec } = await import('../../../src/cli/commands/emulator/run.js');
    expect(parseFaultSpec('path=/configuration/mappings*,method=get,status=503,nth=2')).toEqual({
      path: '/configuration/mappings*',
      method: 'GET',
      status: 503,
      nth: 2,
    });
    expect(parseFaultSpec('path=*,fraction=0.25,latency-ms=30,drop,expire-sessions')).toEqual({
      path: '*',
      fraction: 0.25,
      latencyMs: 30,
      drop: true,
      expireSessions: true,
    });
    expect(() => parseFaultSpec('status=500')).toThrow(UsageError);
    expect(() => parseFaultSpec('path=*,colour=red')).toThrow(UsageError);
    expect(() => parseFaultSpec('path=*,fraction=2')).toThrow(UsageError);
  });

  it('serves a given TLS certificate and key', async () => {
    const { selfSignedCertificate } = await import('../../../src/emulator/index.js');
    const cwd = await mkdtemp(join(tmpdir(), 'gwops-emu-cli-'));
    dirs.push(cwd);
    const pems = await selfSignedCertificate('127.0.0.1');
    await writeFile(join(cwd, 'c.pem'), pems.cert);
    await writeFile(join(cwd, 'k.pem'), pems.key);
    let running: RunningEmulator | undefined;
    let stop!: () => void;
    const result = runEmulatorCommand(options({ tls: undefined, tlsCert: 'c.pem', tlsKey: 'k.pem' }), captureIO(cwd), new Promise<void>((r) => (stop = r)), (e) => (running = e));
    while (!running) await new Promise((r) => setImmediate(r));
    expect(running.caCertificate).toBe(pems.cert);
    expect(await readFile(join(cwd, '.gwops/emulator-cert.pem'), 'utf8')).toBe(pems.cert);
    const client = new Client(running);
    expect((await client.login()).status).toBe(200);
    await client.close();
    stop();
    expect(await result).toBe(0);
  });
});

describe('loopback detection', () => {
  it('treats only loopback hosts as private', async () => {
    const { isLoopbackHost: isLoopback } = await import('../../../src/gateway/base-url.js');
    expect(['127.0.0.1', '127.1.2.3', '::1', 'localhost'].map(isLoopback)).toEqual([true, true, true, true]);
    expect(['0.0.0.0', '::', '192.168.1.5', 'example.com'].map(isLoopback)).toEqual([false, false, false, false]);
  });
});
