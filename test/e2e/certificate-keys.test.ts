/**
 * A certificate's `privateKey` is checked offline: a key that is no PEM, one encrypted with
 * another passphrase, or the key of another certificate stops validate and plan with the
 * document's file and line, never the key; nothing is sent to the gateway. The right key
 * (encrypted, with its passphrase) passes.
 */
import { createPrivateKey } from 'node:crypto';
import { generate } from 'selfsigned';
import { describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

async function certificate(commonName: string): Promise<{ cert: string; key: string }> {
  const pems = await generate([{ name: 'commonName', value: commonName }], { keyType: 'ec', curve: 'P-256', algorithm: 'sha256' });
  return { cert: pems.cert, key: pems.private };
}

const manifest = (cert: string): string =>
  `apiVersion: gwops/v1\nkind: ssl-certificate\nname: keyed-tls\nattributes:\n  certType: SERVER_CERT\n  certificate: |\n${cert
    .trimEnd()
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n')}\n  privateKey: { fromEnv: KEYED_TLS_KEY }\n  passphrase: { fromEnv: KEYED_TLS_PASSPHRASE }\n`;

describe("a certificate's private key", () => {
  const t = useHarness();

  it('that is no PEM, has another passphrase or belongs to another certificate: refused offline, located, never shown', async () => {
    const own = await certificate('keyed.example.com');
    const other = await certificate('other.example.com');
    const passphrase = 'keyed-pass-Hy61';
    const encrypt = (pem: string): string => createPrivateKey(pem).export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase }).toString();
    const dir = await writeManifests(t.h, 'keyed', { 'cert.yaml': manifest(own.cert) });
    const cases: [string, string, string, RegExp][] = [
      ['not a PEM', 'not-a-pem-Zx83-never-shown', passphrase, /'privateKey' of ssl-certificate 'keyed-tls' is not a PEM private key that can be read with its passphrase/],
      ['another passphrase', encrypt(own.key), 'wrong-pass-Qa27', /'privateKey' of ssl-certificate 'keyed-tls' is not a PEM private key that can be read with its passphrase/],
      ['the key of another certificate', encrypt(other.key), passphrase, /'privateKey' of ssl-certificate 'keyed-tls' does not belong to its certificate \(subject CN=keyed\.example\.com\)/],
    ];
    const sent = t.h.emulator.requestLog.length;
    for (const [name, key, pass, message] of cases) {
      const env = { KEYED_TLS_KEY: key, KEYED_TLS_PASSPHRASE: pass };
      for (const args of [['validate', dir], ['plan', dir, ...t.h.connection], ['plan', dir, ...t.h.connection, '--format', 'json']]) {
        const run = await t.h.cli(args, { env });
        const output = run.stdout + run.stderr;
        expect(run.code, `${name}: ${args.join(' ')}`).toBe(1);
        expect(output).toMatch(message);
        expect(output).toMatch(/cert\.yaml(:\d+:\d+|",\s*"line": \d+)/);
        expect(output).not.toContain(key.trim());
        expect(output).not.toContain('not-a-pem-Zx83');
        expect(output).not.toContain(pass);
      }
    }
    expect(t.h.emulator.requestLog.length).toBe(sent);
    const right = await t.h.cli(['validate', dir], { env: { KEYED_TLS_KEY: encrypt(own.key), KEYED_TLS_PASSPHRASE: passphrase } });
    expect(right.code, right.stdout).toBe(0);
  });
});
