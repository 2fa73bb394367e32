/**
 * API keys and secrets written into a manifest through `${VAR}`: the value of a key or
 * secret variable of the project (GWOPS_API_KEY, every target's apiKeyEnv, every
 * `{ fromEnv }` source) is never substituted, never printed (validate, plan in every
 * format, graph) and never sent; the reference is a located error naming the variable.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

/** A mapping whose relationship and enum attribute hold `${name}`, and whose backendPath does. */
function manifests(variable: string): Record<string, string> {
  return {
    'backend.yaml': 'apiVersion: gwops/v1\nkind: back-end-group\nname: kv-backend\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: kv.internal, port: 8080 }]\n',
    'mapping.yaml':
      'apiVersion: gwops/v1\nkind: mapping\nname: kv-shop\nattributes:\n  entryPath: { value: /kv/ }\n' +
      `  backendPath: /app/\${${variable}}/\nrelationships:\n  back-end-groups: ['\${${variable}}']\n`,
  };
}

describe('key and secret variables in manifests', () => {
  const t = useHarness();

  it('GWOPS_API_KEY in a relationship and an attribute: validate, plan and graph never print it', async () => {
    const dir = await writeManifests(t.h, 'global-key', manifests('GWOPS_API_KEY'));
    const key = t.h.emulator.apiKey;
    const env = { GWOPS_API_KEY: key };
    const caFile = t.h.connection[t.h.connection.indexOf('--ca-file') + 1] ?? '';
    const runs = [
      await t.h.cli(['validate', dir], { env }),
      await t.h.cli(['validate', dir, '--format', 'json'], { env }),
      await t.h.cli(['validate', dir, '--format', 'github'], { env }),
      await t.h.cli(['plan', dir, '--url', t.h.emulator.url, '--ca-file', caFile], { env }),
      await t.h.cli(['plan', dir, '--url', t.h.emulator.url, '--ca-file', caFile, '--format', 'json'], { env }),
      await t.h.cli(['graph', dir], { env }),
    ];
    for (const run of runs) {
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).not.toContain(key);
      expect(run.stdout + run.stderr).toContain('GWOPS_API_KEY');
    }
    expect(runs[0]?.stdout).toMatch(/mapping\.yaml:\d+:\d+: error: .*'GWOPS_API_KEY' holds an API key/);
  });

  it("a staging plan that names production's key variable: an error, nothing sent, the key in no format", async () => {
    const dir = await writeManifests(t.h, 'two-targets', manifests('PROD_KEY'));
    const caFile = t.h.connection[t.h.connection.indexOf('--ca-file') + 1] ?? '';
    await writeFile(
      join(dir, 'gwops.yaml'),
      `manifests: ['.']\ntargets:\n  staging: { url: '${t.h.emulator.url}', apiKeyEnv: STAGING_KEY, caFile: '${caFile}' }\n` +
        `  production: { url: 'https://prod.invalid/airlock/rest', apiKeyEnv: PROD_KEY }\n`,
    );
    const prodKey = 'prod-key-Zr81-never-shown';
    const env = { STAGING_KEY: t.h.emulator.apiKey, PROD_KEY: prodKey };
    const sent = t.h.emulator.requestLog.length;
    for (const format of ['text', 'markdown', 'json']) {
      const run = await t.h.cli(['plan', '--target', 'staging', '--format', format], { cwd: dir, env });
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).not.toContain(prodKey);
      expect(run.stdout + run.stderr).toMatch(/mapping\.yaml(:\d+:\d+|",\s*"line": \d+)/);
      expect(run.stdout + run.stderr).toContain("'PROD_KEY' holds an API key");
    }
    expect(t.h.emulator.requestLog.length).toBe(sent);
    expect(JSON.stringify(t.h.emulator.requestLog)).not.toContain(prodKey);
  });

  it('a variable that a { fromEnv } source reads is a secret: ${VAR} of it is an error, with --skip-secrets too', async () => {
    const files = manifests('SHOP_DB_PASSWORD');
    files['cert.yaml'] = 'apiVersion: gwops/v1\nkind: ssl-certificate\nname: kv-cert\nattributes:\n  passphrase: { fromEnv: SHOP_DB_PASSWORD }\n';
    const dir = await writeManifests(t.h, 'secret-variable', files);
    const secret = 'db-pass-Qm47-never-shown';
    for (const args of [['validate', dir], ['validate', dir, '--skip-secrets'], ['graph', dir]]) {
      const run = await t.h.cli(args, { env: { SHOP_DB_PASSWORD: secret } });
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).not.toContain(secret);
      expect(run.stdout + run.stderr).toContain("'SHOP_DB_PASSWORD' holds a secret");
    }
  });
});
