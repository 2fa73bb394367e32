/**
 * `{ fromJwks }` over plain HTTP from a loopback host: `gwops emulator --no-tls --login-app`
 * serves its JWK Set at an `http://127.0.0.1:…` URL, and gwops reads it, as a `jwks:` source
 * of gwops.yaml and inline; plain HTTP to any other host is refused offline, before any call.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fetchJwks } from '../../src/operations/steps/jwks-fetch.js';
import { useHarness, writeManifests } from './harness.js';

const mapping = (name: string, jwsKey: string): string => `apiVersion: gwops/v1
kind: mapping
name: ${name}
attributes:
  entryPath: { value: /${name}/ }
  backendPath: /
  access:
    tokenVerification:
      signatureCheckEnforced: true
      jwsAlgorithm: RS_256
      jwsKey: ${jwsKey}
relationships:
  back-end-groups: [loopback-backend]
---
`;

const BACKEND = 'apiVersion: gwops/v1\nkind: back-end-group\nname: loopback-backend\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: app.internal, port: 8080 }]\n';

describe('fromJwks over plain HTTP on loopback', () => {
  const t = useHarness({ loginApp: true, tls: false });
  const connection = (): string[] => ['--url', t.h.emulator.url, '--api-key-file', join(t.h.dir, 'api-key')];

  it('applies keys from the login app of an emulator without TLS, by source and inline', async () => {
    const jwksUrl = t.h.emulator.loginApp?.jwksUrl ?? '';
    expect(jwksUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const project = join(t.h.dir, 'gwops.yaml');
    await writeFile(project, `jwks:\n  login:\n    url: ${jwksUrl}\n`);
    const manifests = await writeManifests(t.h, 'loopback', {
      'backend.yaml': BACKEND,
      'mappings.yaml': mapping('by-source', '{ fromJwks: { source: login, alg: RS_256 } }') + mapping('inline', `{ fromJwks: { url: '${jwksUrl}', alg: RS_256 } }`),
    });
    const applied = await t.h.cli(['apply', manifests, '--config', project, ...connection(), '--yes']);
    expect(applied.code, applied.stderr).toBe(0);
    const kid = t.h.emulator.loginApp?.currentKid() ?? '';
    expect(applied.stdout).toContain(`public key kid ${kid}`);
    expect((await fetchJwks(jwksUrl)).keys.length).toBeGreaterThan(0);
  });

  it('refuses plain HTTP to a host that is not loopback, offline', async () => {
    const project = join(t.h.dir, 'remote.yaml');
    await writeFile(project, 'jwks:\n  idp:\n    url: http://idp.example/jwks\n');
    const manifests = await writeManifests(t.h, 'remote', {
      'backend.yaml': BACKEND,
      'mappings.yaml': mapping('remote-inline', '{ fromJwks: { url: "http://10.0.0.1/jwks", alg: RS_256 } }'),
    });
    const before = t.h.emulator.requestLog.length;
    const checked = await t.h.cli(['validate', manifests, '--config', project]);
    expect(checked.code).toBe(1);
    expect(checked.stdout + checked.stderr).toMatch(/remote\.yaml:\d+:\d+: .*jwks\.idp\.url/);
    const inline = await t.h.cli(['validate', manifests]);
    expect(inline.stdout + inline.stderr).toMatch(/mappings\.yaml:\d+:\d+: .*fromJwks/);
    expect(t.h.emulator.requestLog.length).toBe(before);
    await expect(fetchJwks('http://idp.example/jwks')).rejects.toThrow(/https:\/\/ only \(plain http:\/\/ only from a loopback host/);
  });
});
