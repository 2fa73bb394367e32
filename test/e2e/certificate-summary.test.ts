/**
 * Certificates in plans and drift reports read as a person reads them: subject, SANs,
 * notBefore, notAfter and SHA-256 fingerprint (node:crypto), for every attribute whose
 * schema marks it as holding certificates; the PEM only with --verbose. JSON keeps the PEM
 * (it is data).
 */
import { X509Certificate } from 'node:crypto';
import { generate } from 'selfsigned';
import { describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

async function ca(commonName: string): Promise<string> {
  const pems = await generate([{ name: 'commonName', value: commonName }], { keyType: 'ec', curve: 'P-256', algorithm: 'sha256', extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: `${commonName}.example` }] }] });
  return pems.cert;
}

const indented = (pem: string, by: string): string =>
  pem
    .trimEnd()
    .split('\n')
    .map((l) => `${by}${l}`)
    .join('\n');

const group = (pem: string): string =>
  `apiVersion: gwops/v1\nkind: back-end-group\nname: pinned\nattributes:\n  backendHosts:\n    - { hostName: pinned.internal, port: 8443 }\n  tls:\n    serverCertificateValidation:\n      enabled: true\n      caCertificates:\n        - |\n${indented(pem, '          ')}\n`;

describe('certificates in plans and drift reports', () => {
  const t = useHarness();

  it('plan and drift show a CA list by subject, SANs, validity and fingerprint; --verbose and JSON show the PEM', async () => {
    const first = await ca('first-ca');
    const second = await ca('second-ca');
    const fingerprint = (pem: string): string => new X509Certificate(pem).fingerprint256;
    const dir = await writeManifests(t.h, 'pinned', { 'group.yaml': group(first) });

    const plan = await t.h.cli(['plan', dir, ...t.h.connection]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('+ tls.serverCertificateValidation.caCertificates = (certificate)');
    expect(plan.stdout).toMatch(/subject: +CN=first-ca/);
    expect(plan.stdout).toMatch(/SANs: +DNS:first-ca\.example/);
    expect(plan.stdout).toMatch(/notBefore: +\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/);
    expect(plan.stdout).toMatch(/notAfter: +\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/);
    expect(plan.stdout).toContain(`SHA-256:   ${fingerprint(first)}`);
    expect(plan.stdout).not.toContain('-----BEGIN');

    const verbose = await t.h.cli(['plan', dir, ...t.h.connection, '--verbose']);
    expect(verbose.stdout).toContain('-----BEGIN CERTIFICATE-----');
    expect(verbose.stdout).not.toContain('SHA-256:');
    const markdown = await t.h.cli(['plan', dir, ...t.h.connection, '--format', 'markdown']);
    expect(markdown.stdout).toContain(`SHA-256:   ${fingerprint(first)}`);
    expect(markdown.stdout).not.toContain('-----BEGIN');
    const json = await t.h.cli(['plan', dir, ...t.h.connection, '--format', 'json']);
    expect(json.stdout).toContain('-----BEGIN CERTIFICATE-----');

    expect((await t.h.cli(['apply', '--yes', dir, ...t.h.connection])).code).toBe(0);
    // Someone pins another CA on the gateway.
    await t.h.raw(async (session) => {
      const [live] = await session.list('back-end-groups', ['name==pinned']);
      if (!live) throw new Error('pinned is missing');
      await session.update('back-end-groups', live.id, { type: 'back-end-group', attributes: { tls: { serverCertificateValidation: { caCertificates: [second] } } } });
    }, 'another CA, by hand');
    const drift = await t.h.cli(['drift', dir, ...t.h.connection]);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toMatch(/tls\.serverCertificateValidation\.caCertificates: manifests \(certificate\); subject: CN=first-ca; SANs: DNS:first-ca\.example; notBefore: [^;]+; notAfter: [^;]+; SHA-256: [0-9A-F:]+, gateway \(certificate\); subject: CN=second-ca/);
    expect(drift.stdout).toContain(fingerprint(second));
    expect(drift.stdout).not.toContain('-----BEGIN');
    const driftVerbose = await t.h.cli(['drift', dir, ...t.h.connection, '--verbose']);
    expect(driftVerbose.stdout).toContain('-----BEGIN CERTIFICATE-----');

    // The plan that heals it shows what differs between the two certificates, line by line.
    const heal = await t.h.cli(['plan', dir, ...t.h.connection]);
    expect(heal.stdout).toMatch(/^ +- +subject: +CN=second-ca/m);
    expect(heal.stdout).toMatch(/^ +\+ +subject: +CN=first-ca/m);
    expect(heal.stdout).toContain(`SHA-256:   ${fingerprint(first)}`);
    expect(heal.stdout).not.toContain('-----BEGIN');
  });
});
