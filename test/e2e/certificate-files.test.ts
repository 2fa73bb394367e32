/**
 * A certificate's PEM read from files (`certificate: { fromFile: path }`, each item of
 * `certificateChain` too): relative to the manifest, applied as if pasted into the YAML, no
 * drift afterwards; a missing file, or one outside the project (by `..` or through a
 * symbolic link), stops `validate` and `plan` with the manifest's file, line and column and
 * sends nothing. End to end: the CLI against the emulator over HTTP.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

const PROJECT = 'manifests: [manifests]\n';

const manifest = (certificate: string): string =>
  `apiVersion: gwops/v1\nkind: ssl-certificate\nname: filed-tls\nattributes:\n  certType: SERVER_CERT\n  certificate: { fromFile: ${certificate} }\n  certificateChain:\n    - { fromFile: certs/chain.crt }\n  privateKey: { fromEnv: FILED_TLS_KEY }\n`;

describe("a certificate's PEM from files", () => {
  const t = useHarness();
  let dir: string;
  let env: Record<string, string>;
  const cli = (args: readonly string[]): ReturnType<typeof t.h.cli> => t.h.cli([...args, '--config', join(dir, 'gwops.yaml')], { env });

  beforeAll(async () => {
    const leaf = await generate([{ name: 'commonName', value: 'filed.example.com' }], { keyType: 'ec', curve: 'P-256', algorithm: 'sha256' });
    const chain = await generate([{ name: 'commonName', value: 'filed-intermediate.example.com' }], { keyType: 'ec', curve: 'P-256', algorithm: 'sha256' });
    dir = await writeManifests(t.h, 'filed', { 'gwops.yaml': PROJECT });
    await mkdir(join(dir, 'manifests', 'certs'), { recursive: true });
    await writeFile(join(dir, 'manifests', 'certs', 'filed.crt'), leaf.cert);
    await writeFile(join(dir, 'manifests', 'certs', 'chain.crt'), chain.cert);
    await writeFile(join(t.h.dir, 'elsewhere.crt'), leaf.cert);
    await symlink(join(t.h.dir, 'elsewhere.crt'), join(dir, 'manifests', 'certs', 'link-out.crt'));
    env = { FILED_TLS_KEY: leaf.private };
  });

  it('applies the files as if the PEM were in the manifest; drift finds nothing', async () => {
    await writeFile(join(dir, 'manifests', 'certs.yaml'), manifest('certs/filed.crt'));
    expect((await cli(['validate'])).code).toBe(0);
    const apply = await cli(['apply', '--yes', ...t.h.connection]);
    expect(apply.stderr).not.toMatch(/error/i);
    expect(apply.code).toBe(0);
    const live = await t.h.raw(async (s) => s.list('ssl-certificates', []));
    expect(live.some((c) => typeof c.attributes.certificate === 'string' && c.attributes.certificate.includes('-----BEGIN CERTIFICATE-----') && Array.isArray(c.attributes.certificateChain) && c.attributes.certificateChain.length === 1)).toBe(true);
    const drift = await cli(['drift', ...t.h.connection]);
    expect(drift.stdout).toContain('No drift');
    expect(drift.code).toBe(0);
  });

  for (const [label, given, problem] of [
    ['a missing file', 'certs/missing.crt', /cannot read file 'certs\/missing\.crt': no such file/],
    ['a file outside the project', '../../elsewhere.crt', /file '\.\.\/\.\.\/elsewhere\.crt' lies outside the project/],
    ['a symbolic link out of the project', 'certs/link-out.crt', /file 'certs\/link-out\.crt' lies outside the project through a symbolic link/],
  ] as const) {
    it(`${label}: refused at the fromFile value, nothing sent`, async () => {
      await writeFile(join(dir, 'manifests', 'certs.yaml'), manifest(given));
      const validate = await cli(['validate']);
      expect(validate.code).toBe(1);
      expect(validate.stdout + validate.stderr).toMatch(/certs\.yaml:6:28/);
      expect(validate.stdout + validate.stderr).toMatch(problem);
      const before = t.h.emulator.requestLog.length;
      const plan = await cli(['plan', ...t.h.connection]);
      expect(plan.code).toBe(1);
      expect(plan.stderr).toMatch(problem);
      expect(t.h.emulator.requestLog.length).toBe(before);
    });
  }
});
