/**
 * `gwops export` asks for a certificate's passphrase only when the key the gateway returned
 * is encrypted: an unencrypted PEM key gets no `passphrase: { fromEnv }` and no variable,
 * an encrypted one (PKCS#8 `ENCRYPTED PRIVATE KEY`, or a traditional key with
 * `Proc-Type: 4,ENCRYPTED`) gets both. Either way the exported project validates with
 * exactly the variables the export names. End to end: the CLI against the emulator over HTTP.
 */
import { createPrivateKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { useHarness } from './harness.js';

const PASSPHRASE = 'export-pass-Kd72-never-shown';

interface ExportJson {
  secrets: { variable: string; kind: string; name: string; attribute: string }[];
}

/** A self-signed certificate and its key, the key as `form` gives it. */
async function certificate(commonName: string, form: 'plain' | 'pkcs8-encrypted' | 'traditional-encrypted'): Promise<{ cert: string; key: string }> {
  const pems = await generate([{ name: 'commonName', value: commonName }], { keyType: 'rsa', keySize: 2048, algorithm: 'sha256' });
  const key = createPrivateKey(pems.private);
  switch (form) {
    case 'plain':
      return { cert: pems.cert, key: key.export({ type: 'pkcs8', format: 'pem' }).toString() };
    case 'pkcs8-encrypted':
      return { cert: pems.cert, key: key.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: PASSPHRASE }).toString() };
    case 'traditional-encrypted':
      return { cert: pems.cert, key: key.export({ type: 'pkcs1', format: 'pem', cipher: 'aes-256-cbc', passphrase: PASSPHRASE }).toString() };
  }
}

describe("export of a certificate's passphrase", () => {
  const t = useHarness();

  it('is written only for an encrypted key, and the export validates with the variables it names', async () => {
    const forms = ['plain', 'pkcs8-encrypted', 'traditional-encrypted'] as const;
    const made = new Map<string, { cert: string; key: string }>();
    for (const form of forms) made.set(form, await certificate(`${form}.example.com`, form));
    expect(made.get('traditional-encrypted')?.key).toMatch(/^Proc-Type: 4,ENCRYPTED$/m);
    await t.h.raw(async (s) => {
      for (const form of forms) {
        const pems = made.get(form);
        const passphrase = form === 'plain' ? {} : { passphrase: PASSPHRASE };
        await s.create('ssl-certificates', { type: 'ssl-certificate', attributes: { certType: 'SERVER_CERT', certificate: pems?.cert, privateKey: pems?.key, ...passphrase } });
      }
    }, 'certificates by hand');

    const dir = join(t.h.dir, 'export-passphrase');
    const r = await t.h.cli(['export', ...t.h.connection, '--out', dir, '--format', 'json']);
    expect(r.code).toBe(0);
    const { secrets } = JSON.parse(r.stdout) as ExportJson;
    const certificates = secrets.filter((s) => s.kind === 'ssl-certificate');
    const example = await readFile(join(dir, 'secrets.env.example'), 'utf8');

    // Each certificate's exported manifest, by the form of its key (found by its key variable's value).
    const env: Record<string, string> = {};
    const attributesOf = new Map<string, string[]>();
    for (const form of forms) {
      const pems = made.get(form);
      const file = (await Promise.all(certificates.map(async (s) => ({ s, text: await readFile(join(dir, 'ssl-certificate', `${s.name}.yaml`), 'utf8') })))).find(
        ({ text }) => text.includes((pems?.cert ?? '').split('\n')[1] ?? '-'),
      );
      const name = file?.s.name ?? '';
      const mine = certificates.filter((s) => s.name === name);
      attributesOf.set(form, mine.map((s) => s.attribute).sort());
      for (const s of mine) env[s.variable] = s.attribute === 'privateKey' ? (pems?.key ?? '') : PASSPHRASE;
      const manifest = parse(file?.text ?? '') as { attributes: Record<string, unknown> };
      if (form === 'plain') expect(manifest.attributes).not.toHaveProperty('passphrase');
      else expect(manifest.attributes.passphrase).toEqual({ fromEnv: mine.find((s) => s.attribute === 'passphrase')?.variable });
    }
    expect(Object.fromEntries(attributesOf)).toEqual({ plain: ['privateKey'], 'pkcs8-encrypted': ['passphrase', 'privateKey'], 'traditional-encrypted': ['passphrase', 'privateKey'] });
    for (const s of certificates) expect(example).toContain(s.variable);

    // Only the variables the export names, each set: the exported project validates.
    const names = new Set(secrets.map((s) => s.variable));
    for (const s of secrets) env[s.variable] ??= 'placeholder-not-a-secret';
    expect(Object.keys(env).every((v) => names.has(v))).toBe(true);
    const validate = await t.h.cli(['validate', '--config', join(dir, 'gwops.yaml')], { env });
    expect(validate.stdout + validate.stderr).not.toMatch(/error/i);
    expect(validate.code).toBe(0);
    for (const out of [r.stdout, r.stderr, example, validate.stdout, validate.stderr]) expect(out).not.toContain(PASSPHRASE);
  });
});
