import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { ConfigError } from '../../src/core/errors.js';
import { resolveConnection } from '../../src/gateway/connection.js';
import { SessionError } from '../../src/gateway/errors.js';
import { GatewaySession } from '../../src/gateway/session.js';
import { TEST_POLICY } from './helpers.js';
import { thrownBy } from '../support/thrown.js';

const URL_ = 'https://gw.example.com/airlock/rest';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJnd29wcy10ZXN0In0.c2lnbmF0dXJlLW9mLXRoZS10ZXN0LWtleQ';
const dir = mkdtempSync(join(tmpdir(), 'gwops-keys-'));
writeFileSync(join(dir, 'prod.key'), 'prod-file-key\n');
writeFileSync(join(dir, 'm.yaml'), 'apiVersion: gwops/v1\nkind: mapping\nname: t-m\nattributes:\n  entryPath: { value: /t/ }\n  backendPath: /\n');

async function cli(args: readonly string[], env: Record<string, string>, cwd = dir): Promise<{ code: number; stderr: string; stdout: string }> {
  let stderr = '';
  let stdout = '';
  const code = await main(['node', 'gwops', ...args], {
    stdout: { write: (s: string) => ((stdout += s), true) },
    stderr: { write: (s: string) => ((stderr += s), true) },
    env,
    cwd,
    isTTY: false,
    stdin: Readable.from([]),
  });
  return { code, stderr, stdout };
}

describe('--api-key-file given something that is not a readable file', () => {
  it('never echoes the value: it names the option, the errno code, and says that it takes a path', () => {
    for (const value of [JWT, `${JWT}${'x'.repeat(400)}`]) {
      const error = thrownBy(() => resolveConnection({ url: URL_, apiKeyFile: value, env: {}, cwd: dir }), ConfigError);
      expect(error.message).not.toContain(JWT.slice(0, 12));
      expect(error.message).toContain('--api-key-file');
      expect(error.message).toMatch(/\((ENOENT|ENAMETOOLONG)\)/);
      expect(error.message).toContain('not shown');
      expect(error.message).toMatch(/path/);
      expect(error.message).not.toContain('\n');
    }
  });

  it('gwops plan --api-key-file "$(cat key)" prints no part of the key', async () => {
    const r = await cli(['plan', '--url', 'http://127.0.0.1:9/airlock/rest', '--api-key-file', JWT, 'm.yaml'], {});
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--api-key-file');
    expect(r.stderr + r.stdout).not.toContain(JWT.slice(0, 12));
  });

  it("a target's apiKeyFile from gwops.yaml that cannot be read is still named", () => {
    const error = thrownBy(
      () => resolveConnection({ target: { url: URL_, apiKeyFile: join(dir, 'missing.key') }, targetName: 'prod', env: {}, cwd: dir }),
      ConfigError,
    );
    expect(error.message).toContain(join(dir, 'missing.key'));
    expect(error.message).toContain('ENOENT');
  });
});

describe('API key precedence', () => {
  const fileTarget = { url: URL_, apiKeyFile: 'prod.key' };
  const envTarget = { url: URL_, apiKeyEnv: 'PROD_KEY' };

  it("takes --api-key-file, then the target's apiKeyEnv/apiKeyFile, then GWOPS_API_KEY, and records where the key came from", () => {
    const both = { GWOPS_API_KEY: 'global-key', PROD_KEY: 'prod-env-key' };
    const fromFlag = resolveConnection({ target: envTarget, targetName: 'prod', apiKeyFile: 'prod.key', env: both, cwd: dir });
    expect(fromFlag.apiKey).toBe('prod-file-key');
    expect(fromFlag.apiKeySource).toBe(`--api-key-file (${join(dir, 'prod.key')})`);
    const fromEnv = resolveConnection({ target: envTarget, targetName: 'prod', env: { PROD_KEY: 'prod-env-key' }, cwd: dir });
    expect(fromEnv.apiKey).toBe('prod-env-key');
    expect(fromEnv.apiKeySource).toBe("environment variable PROD_KEY (apiKeyEnv of target 'prod')");
    const fromFile = resolveConnection({ target: fileTarget, targetName: 'prod', env: {}, cwd: dir });
    expect(fromFile.apiKey).toBe('prod-file-key');
    expect(fromFile.apiKeySource).toBe(`apiKeyFile of target 'prod' (${join(dir, 'prod.key')})`);
    const global = resolveConnection({ url: URL_, env: { GWOPS_API_KEY: 'global-key' }, cwd: dir });
    expect(global.apiKey).toBe('global-key');
    expect(global.apiKeySource).toBe('environment variable GWOPS_API_KEY');
    expect(JSON.stringify(global)).toContain('environment variable GWOPS_API_KEY');
    expect(JSON.stringify(global)).not.toContain('global-key');
    // The same key in both places is no conflict; nor is a target whose apiKeyEnv is GWOPS_API_KEY.
    expect(resolveConnection({ target: envTarget, env: { GWOPS_API_KEY: 'same', PROD_KEY: 'same' }, cwd: dir }).apiKey).toBe('same');
    expect(resolveConnection({ target: { url: URL_, apiKeyEnv: 'GWOPS_API_KEY' }, env: { GWOPS_API_KEY: 'g' }, cwd: dir }).apiKey).toBe('g');
  });

  it("refuses GWOPS_API_KEY next to a target's own, different key, naming both sources and never a value", () => {
    for (const [target, env, source] of [
      [envTarget, { GWOPS_API_KEY: 'global-key', PROD_KEY: 'prod-env-key' }, "environment variable PROD_KEY (apiKeyEnv of target 'prod')"],
      [fileTarget, { GWOPS_API_KEY: 'global-key' }, `apiKeyFile of target 'prod' (${join(dir, 'prod.key')})`],
      [envTarget, { GWOPS_API_KEY: 'global-key' }, "environment variable PROD_KEY (apiKeyEnv of target 'prod')"],
    ] as const) {
      const error = thrownBy(() => resolveConnection({ target, targetName: 'prod', env, cwd: dir }), ConfigError);
      expect(error.message).toContain('environment variable GWOPS_API_KEY');
      expect(error.message).toContain(source);
      expect(error.message).toContain('unset GWOPS_API_KEY');
      for (const value of ['global-key', 'prod-env-key', 'prod-file-key']) expect(error.message).not.toContain(value);
    }
  });
});

describe('a rejected API key', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, tls: false });
  });
  afterAll(async () => {
    await emulator.close();
  });

  it('names where the key came from, never the key', async () => {
    const s = new GatewaySession({ url: emulator.url, apiKey: 'wrong-key-value', apiKeySource: "apiKeyFile of target 'prod' (/k)", retry: TEST_POLICY });
    const error = await s.open().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionError);
    expect((error as SessionError).reason).toBe('key-rejected');
    expect((error as Error).message).toContain("the API key from apiKeyFile of target 'prod' (/k) was rejected");
    expect((error as Error).message).not.toContain('wrong-key-value');
    await s.terminate();
  });

  it('gwops plan says which source the rejected key came from, and refuses two different keys', async () => {
    const project = mkdtempSync(join(tmpdir(), 'gwops-keys-project-'));
    writeFileSync(join(project, 'wrong.key'), 'wrong-key-value\n');
    writeFileSync(join(project, 'm.yaml'), 'apiVersion: gwops/v1\nkind: mapping\nname: t-m\nattributes:\n  entryPath: { value: /t/ }\n  backendPath: /\n');
    writeFileSync(join(project, 'gwops.yaml'), `manifests: m.yaml\ntargets:\n  prod:\n    url: ${emulator.url}\n    apiKeyFile: wrong.key\n`);
    const rejected = await cli(['plan', '--target', 'prod'], {}, project);
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toContain(`the API key from apiKeyFile of target 'prod' (${join(project, 'wrong.key')}) was rejected`);
    expect(rejected.stderr).not.toContain('wrong-key-value');

    const conflict = await cli(['plan', '--target', 'prod'], { GWOPS_API_KEY: emulator.apiKey }, project);
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toContain('environment variable GWOPS_API_KEY');
    expect(conflict.stderr).not.toContain(emulator.apiKey);
    expect(emulator.openSessionCount()).toBe(0);
  });
});
