/**
 * A user name or password in a URL the gateway connects to (a remote JSON web key set's
 * `url`, an ACME service's `serverUrl`): a manifest that holds one is refused offline,
 * located, without showing them, and nothing is sent; one set by hand on the gateway is
 * shown masked by plan (text, markdown) and drift, never adopted into a manifest, and export
 * leaves the URL out and lists it as not exported.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

const PASSWORD = 'idp-pass-Zr71-never-shown';
const USER = 'svc-user-Lq04';

const keySet = (url: string): string => `apiVersion: gwops/v1
kind: remote-json-web-key-set
name: idp-keys
attributes:
  url: ${url}
`;

describe('credentials in a URL attribute', () => {
  const t = useHarness();

  it('validate, plan and apply refuse a manifest URL with credentials, located, and show none of them', async () => {
    const dir = await writeManifests(t.h, 'url-cred', {
      'gwops.yaml': "manifests: [m.yaml]\nownership:\n  remote-json-web-key-set: ['name=@idp-']\n",
      'm.yaml': keySet(`https://${USER}:\${IDP_PASSWORD}@idp.example/jwks`),
    });
    const sent = t.h.emulator.requestLog.filter((e) => e.method !== 'GET').length;
    const config = ['--config', join(dir, 'gwops.yaml')];
    for (const args of [['validate', ...config], ['plan', ...config, ...t.h.connection], ['plan', ...config, ...t.h.connection, '--format', 'markdown'], ['apply', ...config, ...t.h.connection, '--yes']]) {
      const run = await t.h.cli(args, { env: { IDP_PASSWORD: PASSWORD } });
      const output = run.stdout + run.stderr;
      expect(run.code).toBe(1);
      expect(output).toContain('url-credentials');
      expect(output).toMatch(/m\.yaml:5:\d+/);
      expect(output).not.toContain(PASSWORD);
      expect(output).not.toContain(USER);
    }
    expect(t.h.emulator.requestLog.filter((e) => e.method !== 'GET').length).toBe(sent);
  });

  it('a URL with credentials set on the gateway is masked by plan and drift, and export leaves it out and says so', async () => {
    await t.h.raw(async (s) => {
      await s.create('json-web-key-sets/remotes', { type: 'remote-json-web-key-set', attributes: { name: 'hand-keys', url: `https://${USER}:${PASSWORD}@idp.example/jwks` } });
    }, 'key set by hand');
    const dir = await writeManifests(t.h, 'url-cred-live', {
      'gwops.yaml': "manifests: [m.yaml]\nownership:\n  remote-json-web-key-set: ['name=@hand-']\n",
      'm.yaml': 'apiVersion: gwops/v1\nkind: remote-json-web-key-set\nname: hand-keys\nattributes:\n  url: https://idp.example/jwks\n',
    });
    const config = ['--config', join(dir, 'gwops.yaml'), ...t.h.connection];
    const runs = [await t.h.cli(['plan', ...config]), await t.h.cli(['plan', ...config, '--format', 'markdown']), await t.h.cli(['drift', ...config]), await t.h.cli(['drift', ...config, '--format', 'markdown'])];
    for (const run of runs) {
      expect(run.stdout).toContain('https://***@idp.example/jwks');
      expect(run.stdout + run.stderr).not.toContain(PASSWORD);
      expect(run.stdout + run.stderr).not.toContain(USER);
    }
    // drift --adopt does not write the masked URL into the manifest (it would not validate).
    const adopt = await t.h.cli(['drift', ...config, '--adopt']);
    expect(adopt.stdout + adopt.stderr).not.toContain(PASSWORD);
    expect(await readFile(join(dir, 'm.yaml'), 'utf8')).toContain('url: https://idp.example/jwks');
    const validate = await t.h.cli(['validate', '--config', join(dir, 'gwops.yaml')]);
    expect(validate.code).toBe(0);
    const out = join(t.h.dir, 'url-cred-export');
    const exported = await t.h.cli(['export', ...t.h.connection, '--out', out, '--kind', 'remote-json-web-key-set']);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toMatch(/Not exported:\n(.*\n)*.*remote-json-web-key-set 'hand-keys' attribute url is a URL with a user name or password: not exported/);
    const text = await readFile(join(out, 'remote-json-web-key-set', 'hand-keys.yaml'), 'utf8');
    expect(text).not.toContain('url');
    expect(exported.stdout + exported.stderr + text).not.toContain(PASSWORD);
    expect(exported.stdout + exported.stderr + text).not.toContain(USER);
  });
});
