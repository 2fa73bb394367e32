/**
 * A JWKS URL with credentials (`https://user:password@idp/...`), in a `{ fromJwks: { url } }`
 * value or a `jwks:` source of gwops.yaml: refused offline as the gateway URL is, located,
 * and neither the password nor the user name is shown; nothing is fetched or sent.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

const mapping = (jwsKey: string): string => `apiVersion: gwops/v1
kind: mapping
name: cred-jwks
attributes:
  entryPath: { value: /cred/ }
  backendPath: /
  access:
    tokenVerification:
      signatureCheckEnforced: true
      jwsAlgorithm: RS_256
      jwsKey: ${jwsKey}
relationships:
  back-end-groups: [cred-backend]
---
apiVersion: gwops/v1
kind: back-end-group
name: cred-backend
attributes:
  backendHosts: [{ protocol: HTTP, hostName: app.internal, port: 8080 }]
`;

const PASSWORD = 'jwks-pass-Wq93-never-shown';
const USER = 'idp-user-Kd20';

describe('credentials in a JWKS URL', () => {
  const t = useHarness();

  it.each([
    ['a fromJwks url', `'{ fromJwks: { url: "https://${USER}:\${JWKS_PASS}@127.0.0.1:1/jwks", kid: k } }'`.slice(1, -1), ''],
    ['a jwks source of gwops.yaml', '{ fromJwks: { source: idp, kid: k } }', `jwks:\n  idp:\n    url: https://${USER}:${PASSWORD}@127.0.0.1:1/jwks\n`],
  ])('%s: validate and plan refuse it, located, without the credentials', async (_name, reference, projectText) => {
    const dir = await writeManifests(t.h, `cred-${projectText ? 'source' : 'url'}`, { 'm.yaml': mapping(reference) });
    const project = join(t.h.dir, `cred-${projectText ? 'source' : 'url'}.gwops.yaml`);
    await writeFile(project, projectText || 'manifests: []\n');
    const sent = t.h.emulator.requestLog.length;
    for (const args of [['validate', dir, '--config', project], ['plan', dir, '--config', project, ...t.h.connection], ['plan', dir, '--config', project, ...t.h.connection, '--format', 'json']]) {
      const run = await t.h.cli(args, { env: { JWKS_PASS: PASSWORD } });
      const output = run.stdout + run.stderr;
      expect(run.code).toBe(1);
      expect(output).not.toContain(PASSWORD);
      expect(output).not.toContain(USER);
      expect(output).toContain('https://127.0.0.1:1/jwks');
      expect(output).toMatch(/m\.yaml(:11:15|",\s*"line": 11)/);
      expect(output).toContain('jwks-credentials');
    }
    expect(t.h.emulator.requestLog.length).toBe(sent);
  });
});
